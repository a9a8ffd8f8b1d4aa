"""The relay lobby (web/friends/looking.py, lobby_door.py, lobby_events.py): pages seated by
events on a relay, and what a public lobby's bad input does to them. The relay and the clock
are simulated (tools/lobby_relay.py, tools/lobby_sim.py); signatures are a stand-in."""

from __future__ import annotations

import json
import random

import pytest

from tools.lobby_sim import World, key_of, sign_for, verify
from web.friends.lobby_budget import NOTES, QUERIES, SENDS, LobbyBudget
from web.friends.lobby_door import Door
from web.friends.lobby_events import (
    DOOR,
    LEVELS,
    LOOK,
    NOTE,
    Event,
    make_event,
    read_event,
    shard,
    shard_tags,
)
from web.friends.looking import (
    ALONE_WAIT,
    GATHER,
    MAX_FROM_KEY,
    SEAT_WAIT,
    Alone,
    Effect,
    Joined,
    Looker,
    Publish,
    Seated,
    Subscribe,
)

T0 = 1000.0


def event(name: str, kind: int, content: str, *, at: float = T0,
          tags: tuple[tuple[str, ...], ...] = ()) -> Event:
    key = key_of(name)
    return make_event(key, int(at), kind, tags, content, sign_for(key))


def look(name: str, at: float = T0) -> Event:
    return event(name, LOOK, json.dumps({"v": 4, "came": round(at * 1000)}), at=at,
                 tags=(("d", "look"), *shard_tags(key_of(name))))


def note(sender: str, to: str, at: float = T0, **fields: object) -> tuple[Event, str]:
    text = json.dumps({"v": 4, **fields})
    return event(sender, NOTE, text, at=at, tags=(("p", to),)), text


def looker(name: str, at: float = T0) -> Looker:
    page = Looker(key_of(name), at, verify=verify, new_table=lambda: "tableA")
    page.start(at)
    page.look_id = look(name, at).id
    page.level = 0
    return page


def alone_at(page: Looker, now: float) -> list[Effect]:
    """A page alone ticks at ``now``: it asks for the open doors (the relay answers with
    those the test handed it already, and EOSE), then knocks or plays with computers."""
    asked = page.tick(now)
    assert "doors" in [e.name for e in asked if isinstance(e, Subscribe)]
    return page.stored_end("doors", now) + page.tick(now)


def crowd(count: int, spread: float = 1.0, seed: int = 1, loss: float = 0.0,
          stay: float = 600.0) -> World:
    world = World(random.Random(seed), loss=loss, stay=stay, keep_log=True)
    for index in range(count):
        world.add(f"page{index}", T0 + world.rng.uniform(0, spread))
    world.clock.run(T0 + spread + 30)
    return world


# --- the events ---

def test_an_event_reads_back_only_with_its_own_id_and_shape() -> None:
    good = look("ann")
    assert read_event(good.wire()) == good
    assert read_event({**good.wire(), "content": good.content + " "}) is None  # id no more
    assert read_event({**good.wire(), "kind": 1}) is None  # not a lobby kind
    assert read_event({**good.wire(), "extra": 1}) is None
    assert read_event({**good.wire(), "sig": "zz"}) is None
    long = event("ann", LOOK, "x" * 700)
    assert read_event(long.wire()) is None  # too big
    assert read_event([good.wire()]) is None


def test_a_key_is_in_one_shard_per_level_each_half_of_the_one_above() -> None:
    key = key_of("ann")
    assert shard(key, 0) == 0
    for level in range(1, LEVELS):
        assert shard(key, level) >> 1 == shard(key, level - 1)
    assert len(shard_tags(key)) == LEVELS


# --- seated by the rule ---

def test_two_people_pressing_together_sit_together_in_seconds() -> None:
    world = crowd(2, spread=0.2)
    ann, bob = world.pages
    assert ann.table is bob.table is not None
    assert {ann.peers, bob.peers} == {1}
    assert max(ann.person - ann.arrived, bob.person - bob.arrived) < GATHER + 4


def test_ten_at_once_are_seated_in_fours_with_no_page_paired_with_more_than_three() -> None:
    world = crowd(10, stay=1e6)  # nobody leaves the table before it is counted
    assert all(page.table is not None for page in world.pages)
    assert all(page.peers <= 3 for page in world.pages)
    sizes = sorted(len({*t.members}) for t in world.tables.values() if t.members)
    assert sum(sizes) == 10 and max(sizes) == 4


def test_a_page_alone_plays_with_computers_and_the_next_one_takes_a_seat() -> None:
    world = World(random.Random(3), hand=20.0, stay=1e6)  # nobody leaves
    first = world.add("first", T0)
    later = world.add("later", T0 + 15)  # nobody looked in the 10 s before: no wait
    world.clock.run(T0 + 4)
    assert isinstance(first.looker.outcome if first.looker else None, Alone)
    assert first.cards - first.arrived < GATHER + 1  # nobody waits idle
    world.clock.run(T0 + 40)
    assert isinstance(later.looker.outcome if later.looker else None, Joined)
    assert later.table is first.table
    assert later.cards - later.arrived < GATHER + 1  # with computers until its seat is free
    assert first.table is not None
    assert first.person == later.person == first.table.next_hand(later.seated)


def test_a_crowd_splits_into_shards_and_each_page_reads_a_bounded_number() -> None:
    world = crowd(300, spread=3.0)
    assert all(page.cards > 0 for page in world.pages)
    assert all(page.peers <= 3 for page in world.pages)
    levels = {page.looker.level for page in world.pages if page.looker}
    assert max(level or 0 for level in levels) >= 2
    read = max(world.relay.counts[page.key].received for page in world.pages)
    assert read <= QUERIES + NOTES  # far fewer than every looker's two events
    with_people = sum(page.person > 0 for page in world.pages)
    assert with_people >= 0.9 * len(world.pages)  # the rest sit down at a next hand


def test_a_crowd_pressing_within_one_second_reads_no_more_than_the_budget() -> None:
    world = crowd(400, spread=1.0)
    # every event a page read in its first minute: queries capped by the relay's limit,
    # their sum bounded by the budget, and its notes
    read = max(len([at for at, what in world.relay.counts[page.key].log
                    if what == "r" and at < page.arrived + 60]) for page in world.pages)
    assert read <= QUERIES + NOTES
    assert all(page.cards > 0 for page in world.pages)
    assert sum(page.person > 0 for page in world.pages) >= 0.9 * len(world.pages)


def test_loss_on_the_relay_leaves_nobody_unseated() -> None:
    world = crowd(60, spread=2.0, seed=5, loss=0.05)
    assert all(page.cards > 0 for page in world.pages)


# --- bad input ---

def test_a_look_with_a_bad_signature_is_not_counted() -> None:
    page = looker("me")
    forged = look("eve")
    forged = Event(forged.id, forged.pubkey, forged.created_at, forged.kind, forged.tags,
                   forged.content, "0" * 128)
    page.received(forged, None, T0)
    assert page.view.came == {}
    page.received(look("bob"), None, T0)
    assert list(page.view.came) == [key_of("bob")]


def test_a_flood_from_one_key_mutes_it() -> None:
    page = looker("me")
    for index in range(MAX_FROM_KEY + 1):
        page.received(look("eve", at=T0 + index * 0.01), None, T0 + 1)
    assert key_of("eve") in page.view.muted and key_of("eve") not in page.view.came


def test_a_look_of_the_wrong_shape_is_dropped() -> None:
    page = looker("me")
    page.received(event("eve", LOOK, json.dumps({"v": 4, "came": "soon"}),
                        tags=(("d", "look"),)), None, T0)
    page.received(event("ivy", LOOK, json.dumps({"v": 4, "came": 1}),  # far from its time
                        tags=(("d", "look"),)), None, T0)
    page.received(event("old", LOOK, json.dumps({"v": 3, "came": T0 * 1000}),
                        tags=(("d", "look"),)), None, T0)
    assert page.view.came == {}


def invited_page() -> tuple[Looker, str]:
    """Page "me" that has seen "dealer" (who came first) looking."""
    page = looker("me", at=T0 + 0.5)
    page.received(look("dealer", at=T0), None, T0 + 0.5)
    return page, key_of("dealer")


def test_an_invitation_is_taken_from_a_dealer_seen_looking_before_this_page() -> None:
    page, dealer = invited_page()
    invite, text = note("dealer", page.me, table="tableX", t="invite", look=page.look_id)
    effects = page.received(invite, text, T0 + 1)
    assert [e.to for e in effects if isinstance(e, Publish)] == [dealer]
    seat, text = note("dealer", page.me, table="tableX", t="seat", people=[dealer, page.me])
    page.received(seat, text, T0 + 1.5)
    assert page.outcome == Seated("tableX", (dealer, page.me), dealer=False)


@pytest.mark.parametrize("case", ["replayed", "stranger", "later", "to another"])
def test_an_invitation_that_does_not_hold_is_ignored(case: str) -> None:
    page, _ = invited_page()
    sender = "stranger" if case == "stranger" else "dealer"
    if case == "later":  # a page that came after this one doesn't deal to it
        page.received(look("late", at=T0 + 0.9), None, T0 + 0.9)
        sender = "late"
    look_id = "f" * 64 if case == "replayed" else page.look_id
    to = key_of("other") if case == "to another" else page.me
    invite, text = note(sender, to, table="tableX", t="invite", look=look_id)
    effects = page.received(invite, text, T0 + 1)
    if case == "stranger":  # who is it? it has no LOOK: nothing is taken
        assert [e.name for e in effects if isinstance(e, Subscribe)] == ["who"]
        assert page.stored_end("who", T0 + 1.1) == []
    else:
        assert effects == []
    assert page.answered is None


def test_a_dealer_that_never_seats_is_passed_over_and_the_page_goes_on() -> None:
    page, dealer = invited_page()
    invite, text = note("dealer", page.me, table="tableX", t="invite", look=page.look_id)
    page.received(invite, text, T0 + 1)
    page.tick(T0 + 1 + SEAT_WAIT + 0.1)  # no seat came: a liar, or gone
    assert dealer in page.view.muted and page.answered is None
    page.tick(T0 + 1 + SEAT_WAIT + GATHER)
    assert page.outcome is None  # someone looked lately: it waits a little for another
    alone_at(page, T0 + 0.5 + GATHER + ALONE_WAIT + 0.1)
    assert isinstance(page.outcome, Alone)


def test_a_seat_not_naming_this_page_or_from_another_key_is_ignored() -> None:
    page, dealer = invited_page()
    invite, text = note("dealer", page.me, table="tableX", t="invite", look=page.look_id)
    page.received(invite, text, T0 + 1)
    for sender, people in (("dealer", [dealer, key_of("x")]),
                           ("other", [key_of("other"), page.me]),
                           ("dealer", [dealer, page.me, *(key_of(str(i)) for i in range(3))])):
        seat, text = note(sender, page.me, table="tableX", t="seat", people=people)
        page.received(seat, text, T0 + 1.2)
    assert page.outcome is None


def test_a_door_lets_in_as_many_as_it_has_seats_once_each() -> None:
    door = Door(key_of("host"), "tableD", verify=verify)
    door.seats(1, T0)
    knocks = [note(name, door.me, table="tableD", t="knock", look="a" * 64)
              for name in ("ann", "ann", "bob")]
    welcomed = [[e.to for e in door.received(ev, text, T0 + 1)
                 if isinstance(e, Publish) and e.kind == NOTE] for ev, text in knocks]
    assert welcomed == [[key_of("ann")], [key_of("ann")], []]  # one seat, one key


def test_a_door_files_its_seats_and_withdraws_them_when_taken() -> None:
    door = Door(key_of("host"), "tableD", verify=verify)
    filed = [e for e in door.seats(2, T0) if isinstance(e, Publish)]
    assert [json.loads(e.content)["open"] for e in filed] == [2]
    assert door.seats(2, T0 + 10) == []  # quiet while nothing changes
    assert [json.loads(e.content)["open"] for e in door.seats(2, T0 + 61)
            if isinstance(e, Publish)] == [2]  # refreshed once a minute
    assert [json.loads(e.content)["open"] for e in door.seats(0, T0 + 70)
            if isinstance(e, Publish)] == [0]


def test_a_looker_knocks_only_at_doors_of_the_right_shape() -> None:
    page = looker("me")
    page.received(event("host", DOOR, json.dumps({"v": 4, "open": 9}),
                        tags=(("d", "tableD"),)), None, T0)
    page.received(event("host2", DOOR, json.dumps({"v": 4, "open": 1}),
                        tags=(("d", "bad table!"),)), None, T0)
    assert page.view.doors == {}
    page.received(event("host3", DOOR, json.dumps({"v": 4, "open": 2}),
                        tags=(("d", "tableE"),)), None, T0)
    assert page.view.doors == {key_of("host3"): ("tableE", 2)}
    knock = alone_at(page, T0 + GATHER + 0.1)
    assert [e.to for e in knock if isinstance(e, Publish)] == [key_of("host3")]


def test_a_welcome_must_name_this_pages_look() -> None:
    page = looker("me")
    page.received(event("host", DOOR, json.dumps({"v": 4, "open": 2}),
                        tags=(("d", "tableE"),)), None, T0)
    alone_at(page, T0 + GATHER + 0.1)
    replay, text = note("host", page.me, table="tableE", t="welcome", look="e" * 64)
    page.received(replay, text, T0 + 2.5)
    assert page.outcome is None
    welcome, text = note("host", page.me, table="tableE", t="welcome", look=page.look_id)
    page.received(welcome, text, T0 + 2.6)
    assert page.outcome == Joined("tableE", key_of("host"))


def test_a_liar_claiming_to_have_come_first_cannot_seat_anyone_at_a_made_up_table() -> None:
    world = World(random.Random(9))
    for index in range(6):
        world.add(f"page{index}", T0 + index * 0.1)
    world.clock.run(T0 + 0.05)
    liar = key_of("liar")  # files a LOOK that claims an early arrival, then stays silent
    backdated = make_event(liar, int(T0) - 1, LOOK, (("d", "look"), *shard_tags(liar)),
                           json.dumps({"v": 4, "came": round((T0 - 1) * 1000)}),
                           sign_for(liar))
    world.relay.publish(liar, backdated)
    world.clock.run(T0 + 40)
    assert all(page.table is not None for page in world.pages)
    assert all(page.table and page.table.members for page in world.pages)
    with_people = [page for page in world.pages if page.person > 0]
    assert len(with_people) == 6


def test_how_busy_a_shard_is_counts_each_key_at_every_level_it_shares() -> None:
    keys = [key_of(f"page{n}") for n in range(300)]
    looker = Looker(keys[0], 0.0, verify=lambda event: True, new_table=lambda: "abcd")
    for key in keys[1:] + keys[1:50]:  # heard twice: counted once
        looker.reading.heard_from(key)
    for level in range(LEVELS):
        mine = shard(keys[0], level)
        assert looker.busy(level) == sum(1 for key in keys[1:] if shard(key, level) == mine)


# --- what a page sends: bounded by its budget ---

def test_a_page_that_keeps_failing_to_deal_sends_no_more_than_its_budget_in_any_minute() -> None:
    # three new people look every second, after this page: it deals to them, nobody ever
    # answers; each time it ends up alone it looks again (the same page, the same budget)
    budget = LobbyBudget()
    page, sent, deals, looks = None, [], 0, 0
    now = T0
    while now < T0 + 150:
        if page is None or page.outcome is not None:
            page = Looker(key_of("dealer"), now, verify=verify, new_table=lambda: "tableA",
                          budget=budget)
            effects, looks = page.start(now), looks + 1
            page.look_id = look("dealer", now).id
            page.level = 0
        else:
            effects = page.tick(now)
        if round(now * 10) % 10 == 5:
            for n in range(3):
                effects += page.received(look(f"p{now:.0f}.{n}", now), None, now)
        for effect in effects:
            if isinstance(effect, Subscribe) and effect.once:
                effects += page.stored_end(effect.name, now)  # nothing stored
        sent += [now for effect in effects if isinstance(effect, Publish)]
        deals += any(isinstance(e, Publish) and "invite" in e.content for e in effects)
        now = round(now + 0.1, 1)
    if page is not None and page.outcome is None:
        sent.append(now)  # its withdrawal, were it to stop now
    assert deals >= 4 and looks >= 4  # it dealt (and failed) again and again, then anew
    assert max(sum(start <= at < start + 60 for at in sent) for start in sent) <= SENDS
