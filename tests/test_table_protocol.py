"""The private table's host: intents only, seats bound to connections, each seat its own view."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hearts import (
    Card,
    CardPlayed,
    Game,
    GameOver,
    HandScored,
    HeartsBroken,
    PassesExchanged,
    Phase,
    TrickWon,
)
from hearts.bots import make
from tests.solo_page import Heard
from web import words
from web.p2p.guest import SeatState
from web.p2p.host import BUCKET_SIZE, LOCAL, HostTable
from web.p2p.protocol import (
    Intent,
    ProtocolError,
    dump,
    event_to_dict,
    intent_text,
    parse_intent,
    view_from_dict,
    view_to_dict,
)
from web.p2p.saved import resume_table, table_json
from web.p2p.turns import TurnTimer
from web.seats.remote import RemoteSeat
from web.table.model import PageState, build
from web.told import Broken, from_wire, of_event
from web.words import time_up, told_text


def easy(level: str, seed: int) -> Any:
    return make("easy", seed)


def table(seed: int = 5, grace: float = 10.0) -> HostTable:
    return HostTable(Game.new(seed), make_bot=easy, grace=grace)


def last_to(host: HostTable, conn: str, kind: str = "state") -> dict[str, Any]:
    for to, text in reversed(host.outbox):
        data = json.loads(text)
        if to == conn and data["t"] == kind:
            return dict(data)
    raise AssertionError(f"no {kind} message to {conn}")


def run_computers(host: HostTable) -> None:
    while host.computer_step():
        pass


# --- intents --------------------------------------------------------------------------------

def test_intents_round_trip() -> None:
    cards = tuple(Card.parse(c) for c in ("QS", "AH", "2C"))
    for intent in (Intent("pass", cards), Intent("play", cards[:1]), Intent("ready"),
                   Intent("leave"), Intent("react", reaction="gg")):
        assert parse_intent(intent_text(intent)) == intent


def test_intents_never_carry_a_seat_or_extra_fields() -> None:
    for text in ('{"v":1,"t":"play","card":"QS","seat":2}', '{"v":1,"t":"ready","x":1}',
                 '{"v":2,"t":"ready"}', '{"v":true,"t":"ready"}', '{"t":"ready"}',
                 '{"v":1,"t":"play","card":"qs"}', '{"v":1,"t":"pass","cards":["QS","AH"]}',
                 '{"v":1,"t":"react","id":"free text"}', '{"v":1,"t":"state"}', "[]",
                 "x" * 500, '{"v":1,"t":"play","card":"QS"' + " " * 300 + "}"):
        try:
            parse_intent(text)
        except ProtocolError:
            continue
        raise AssertionError(f"accepted {text}")


def test_view_round_trips() -> None:
    game = Game.new(3)
    for seat in range(4):
        game.choose_pass(seat, game.hand(seat)[:3])
    game.play(game.legal_plays()[0])
    for seat in range(4):
        view = game.view(seat)
        assert view_from_dict(json.loads(json.dumps(view_to_dict(view)))) == view


# --- the host -----------------------------------------------------------------------------

def test_lobby_then_computer_fills_empty_seats() -> None:
    host = table()
    assert host.join("g1", 2, 0.0)
    assert host.stage() == "lobby" and host.kind(1) == "open"
    host.start()
    assert host.kind(1) == "computer" and host.kind(2) == "friend"
    run_computers(host)
    assert host.game.pass_chosen(1) and host.game.pass_chosen(3)
    assert not host.game.pass_chosen(2) and not host.game.pass_chosen(0)
    assert host.waiting_for() == [0, 2]
    assert last_to(host, "g1")["waiting"] == [0, 2]


def test_each_seat_gets_only_its_own_hand() -> None:
    host = table()
    host.join("g1", 1, 0.0)
    host.join("g3", 3, 0.0)
    host.start()
    for conn, seat in (("g1", 1), ("g3", 3), (LOCAL, 0)):
        view = last_to(host, conn)["view"]
        assert view["seat"] == seat
        assert view["hand"] == [str(c) for c in host.game.hand(seat)]
        others = {str(c) for s in range(4) if s != seat for c in host.game.hand(s)}
        text = json.dumps(last_to(host, conn))
        assert not any(f'"{card}"' in text for card in others)


def test_a_guest_cannot_act_for_another_seat() -> None:
    host = table()
    host.join("g1", 1, 0.0)
    host.start()
    north = [str(c) for c in host.game.hand(2)[:3]]
    host.receive("g1", dump("pass", cards=north), 1.0)
    assert not host.game.pass_chosen(1) and not host.game.pass_chosen(2)
    assert "not in your hand" in last_to(host, "g1", "refused")["reason"]
    assert host.log.count == 1 and host.log.lines[-1].startswith("West: pass refused")
    host.receive("stranger", dump("pass", cards=north), 1.0)
    assert not host.game.pass_chosen(2)


def play_to_first_trick(host: HostTable) -> None:
    host.start()
    run_computers(host)
    for seat in range(4):
        if not host.game.pass_chosen(seat):
            cards = [str(c) for c in host.game.hand(seat)[:3]]
            if seat == 0:
                host.local(parse_intent(dump("pass", cards=cards)))
            else:
                host.receive(f"g{seat}", dump("pass", cards=cards), 2.0)
    assert host.game.phase is Phase.PLAY


def test_play_out_of_turn_and_illegal_card_are_refused_with_reasons() -> None:
    host = table(seed=5)
    host.join("g1", 1, 0.0)
    play_to_first_trick(host)
    leader = host.game.to_play
    if leader == 1:
        card = next(c for c in host.game.hand(1) if c != Card.parse("2C"))
        host.receive("g1", dump("play", card=str(card)), 3.0)
        assert "2" in last_to(host, "g1", "refused")["reason"] or \
               "club" in last_to(host, "g1", "refused")["reason"].lower()
    else:
        host.receive("g1", dump("play", card=str(host.game.hand(1)[0])), 3.0)
        assert "not your turn" in last_to(host, "g1", "refused")["reason"]
    assert not host.game.tricks or host.game.current_trick is None


def test_a_whole_hand_with_two_people_then_ready() -> None:
    host = table(seed=9)
    host.join("g2", 2, 0.0)
    play_to_first_trick(host)
    now = 3.0
    while host.stage() == "play":
        if host.computer_step():
            continue
        seat = host.game.to_play
        card = str(host.game.legal_plays()[0])
        if seat == 0:
            host.local(Intent("play", (Card.parse(card),)))
        else:
            now += 1.0
            host.receive("g2", dump("play", card=card), now)
    assert host.stage() == "scores" and host.waiting_for() == [0, 2]
    assert host.game.hand_number == 2 and not host.due()
    host.receive("g2", dump("ready"), now + 1)
    host.local(Intent("ready"))
    assert host.stage() == "pass" and host.due()
    state = SeatState()
    state.receive(host.outbox[-1][1] if host.outbox[-1][0] == "g2" else
                  json.dumps(last_to(host, "g2")))
    assert state.state is not None and state.state.last_hand is not None


def test_dropped_guest_gets_a_grace_period_then_the_computer_plays() -> None:
    host = table(grace=10.0)
    host.join("g1", 1, 0.0)
    host.start()
    host.drop("g1", 5.0)
    assert host.kind(1) == "away" and host.waiting_for() == [0, 1]
    assert not host.tick(14.0)
    assert host.tick(15.0)
    assert host.kind(1) == "computer"
    run_computers(host)
    assert host.game.pass_chosen(1)


def test_reinvite_mid_game_takes_the_seat_back_from_the_computer() -> None:
    host = table()
    host.start()
    run_computers(host)
    assert host.join("again", 3, 30.0)
    assert host.kind(3) == "friend"
    assert last_to(host, "again")["view"]["seat"] == 3
    assert not host.join("other", 3, 31.0), "a connected person keeps the seat"


def test_leave_hands_the_seat_to_the_computer_at_once() -> None:
    host = table()
    host.join("g1", 1, 0.0)
    host.start()
    host.receive("g1", dump("leave"), 1.0)
    assert host.kind(1) == "computer" and "g1" in host.hangups


def test_host_leaving_tells_every_guest() -> None:
    host = table()
    host.join("g1", 1, 0.0)
    host.join("g2", 2, 0.0)
    host.close()
    for conn in ("g1", "g2"):
        assert "closed" in last_to(host, conn, "closed")["reason"]
        assert conn in host.hangups
    state = SeatState()
    state.receive(json.dumps(last_to(host, "g1", "closed")))
    assert state.closed == "The host closed the table."


def test_flooding_is_dropped_then_disconnected() -> None:
    host = table()
    host.join("g1", 1, 0.0)
    host.start()
    before = len(host.outbox)
    for _ in range(BUCKET_SIZE + 50):
        host.receive("g1", "nonsense", 1.0)
    refusals = [t for c, t in host.outbox[before:] if c == "g1"]
    assert len(refusals) == BUCKET_SIZE
    assert host.log.lines[-1] == "West: too many messages at once (dropped)"
    assert host.log.count == BUCKET_SIZE + 1, "a flood is logged once, not per message"
    for _ in range(300):
        host.receive("g1", "nonsense", 1.0)
    assert host.kind(1) == "computer" and "g1" in host.hangups


def test_reactions_reach_everyone_as_preset_words() -> None:
    host = table()
    host.join("g1", 1, 0.0)
    host.receive("g1", dump("react", id="gg"), 1.0)
    assert last_to(host, LOCAL, "reaction")["text"] == "Good game!"


def test_a_guest_reads_every_event_as_the_hosts_page_tells_it() -> None:
    # What the host sends is, once read at the guest's edge, what its own page tells.
    game = Game.new(seed=8)
    while game.phase is not Phase.GAME_OVER:
        if game.phase is Phase.PASS:
            for seat in range(4):
                if game.view(seat).passed is None:
                    game.choose_pass(seat, game.hand(seat)[:3])
        else:
            game.play(game.legal_plays()[0])
    kinds = {type(e) for e in game.events}
    assert {CardPlayed, TrickWon, HeartsBroken, HandScored, PassesExchanged, GameOver} <= kinds
    for event in game.events:
        assert from_wire(json.loads(json.dumps(event_to_dict(event)))) == of_event(event)
    queen = from_wire({"e": "played", "seat": 2, "card": "QS"})
    assert queen is not None and told_text(queen, 0) == \
        "North played the Queen of spades."


# --- fuzzing the host's message handler ------------------------------------------------------

CARDS = [f"{r}{s}" for r in "23456789TJQKA" for s in "CDHS"]
intent_values = st.one_of(
    st.builds(lambda c: dump("play", card=c), st.sampled_from(CARDS)),
    st.builds(lambda cs: dump("pass", cards=cs), st.lists(st.sampled_from(CARDS), min_size=3,
                                                          max_size=3)),
    st.sampled_from([dump("ready"), dump("leave"), dump("react", id="nice")]),
    st.text(max_size=250),
    st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=5),
                 lambda inner: st.lists(inner, max_size=3)
                 | st.dictionaries(st.sampled_from(["v", "t", "card", "cards", "id", "seat"]),
                                   inner, max_size=4), max_leaves=10).map(json.dumps),
    st.integers(), st.none(), st.binary(max_size=20),
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.sampled_from(["g1", "g2", "g3", "nobody"]), intent_values,
                          st.booleans()), max_size=60), st.integers(0, 1000))
def test_fuzzed_messages_never_break_the_game_or_leak_hands(
        messages: list[tuple[str, object, bool]], seed: int) -> None:
    host = HostTable(Game.new(seed), make_bot=easy, grace=5.0)
    for seat in (1, 2, 3):
        host.join(f"g{seat}", seat, 0.0)
    host.start()
    seats = {"g1": 1, "g2": 2, "g3": 3, LOCAL: 0}
    now = 0.0

    def each(action: Any) -> None:
        sent = len(host.outbox)
        action()
        for to, out in host.outbox[sent:]:
            data = json.loads(out)
            if data["t"] == "state":  # exactly that seat's view, as it is now
                assert data["view"] == view_to_dict(host.game.view(seats[to]))

    for conn, text, step in messages:
        now += 0.05
        each(lambda: host.receive(conn, text, now))  # noqa: B023
        if step:
            each(host.computer_step)
            each(lambda: host.local(Intent("ready")))
    game = host.game
    assert Game.from_json(game.to_json()).to_text() == game.to_text()
    on_table = sum(len(t.cards) for t in game.tricks)
    on_table += len(game.current_trick.cards) if game.current_trick else 0
    assert sum(len(game.hand(s)) for s in range(4)) + on_table == 52
    assert {to for to, _ in host.outbox} <= set(seats)


def test_seat_state_keeps_the_events_of_the_last_state_only() -> None:
    seat = SeatState()
    message = {"view": view_to_dict(Game.new(seed=1).view(2)), "kinds": ["host"] * 4,
               "stage": "play", "waiting": [], "ready": False}
    seat._state({**message, "events": [{"e": "broken", "seat": 0}]})
    assert seat.events == [Broken()]
    seat._state({**message, "events": []})
    assert seat.events == []


def test_a_state_with_a_malformed_event_is_ignored_whole() -> None:
    seat = SeatState()
    text = json.dumps({"v": 1, "t": "state", "view": view_to_dict(Game.new(seed=1).view(2)),
                       "kinds": ["host"] * 4, "stage": "play", "waiting": [], "ready": False,
                       "events": [{"e": "played", "seat": 1, "card": "XX"}]})
    assert seat.receive(text) is None and seat.state is None


def test_a_saved_table_resumes_with_computers_in_the_guest_seats() -> None:
    host = table(seed=9)
    host.join("g1", 1, 0.0)
    play_to_first_trick(host)
    run_computers(host)
    saved = table_json(host)
    again = resume_table(saved, make_bot=easy)
    assert again is not None and again.started
    assert again.game.to_json() == host.game.to_json()
    assert [again.kind(s) for s in range(4)] == ["host", "computer", "computer", "computer"]
    assert again.stage() == host.stage()
    for bad in ("", "{}", "[1]", '{"v": 1, "started": true, "game": "{"}', saved[:-5],
                saved.replace('"v":1', '"v":2'), table_json(HostTable(Game.new(1)))):
        assert resume_table(bad) is None, bad


# --- the turn timer of a table of strangers -------------------------------------------------

def test_a_stalling_person_is_played_for_when_their_time_is_up() -> None:
    from web.p2p.guest import SeatState
    from web.p2p.turns import TurnTimer

    host = table()
    host.turns = TurnTimer(limit=30.0)
    assert host.join("g1", 1, 0.0)
    host.start()
    host.tick(0.0)
    run_computers(host)  # the computers pass; the host (seat 0) and seat 1 are waited for
    host.tick(1.0)
    assert set(host.waiting_for()) == {0, 1}
    seat = SeatState()
    seat.receive(json.dumps(last_to(host, "g1")))
    assert seat.state is not None and seat.state.turn_left == 30
    host.tick(12.0)  # every 5 s the pages hear the seconds left, and count down from there
    seat.receive(json.dumps(last_to(host, "g1")))
    assert seat.state is not None and seat.state.turn_left == 19
    assert not host.tick(30.5)
    dealt = host.game.hand(1)
    assert host.tick(31.5)  # time's up: the computer passes for both, the cards change hands
    assert host.game.phase is Phase.PLAY
    # and each is told which three cards went for them
    passed = [card for card in dealt if card not in host.game.hand(1)]
    notice = last_to(host, "g1", "notice")["text"]
    assert notice == time_up("pass", passed)
    assert notice.startswith("Time's up:") and all(card.short in notice for card in passed)


def test_no_turn_timer_runs_for_a_person_alone_with_the_computers() -> None:
    from web.p2p.turns import TurnTimer

    host = table()
    host.turns = TurnTimer(limit=30.0)
    host.start()
    run_computers(host)
    assert host.waiting_for() == [0]
    assert not host.tick(10_000.0)  # nobody else waits for this person: no clock at all
    assert host.waiting_for() == [0] and host.turn_left(10_000.0) is None


def test_a_table_without_a_timer_waits_as_long_as_it_takes() -> None:
    host = table()
    assert host.join("g1", 1, 0.0)
    host.start()
    run_computers(host)
    assert not host.tick(10_000.0)
    assert 1 in host.waiting_for()
    assert last_to(host, "g1")["turn_left"] is None


# --- names -----------------------------------------------------------------------------------

def test_a_person_names_their_seat_and_every_page_sees_the_name() -> None:
    host = table()
    host.join("c1", 1, 0.0)
    host.join("c2", 2, 0.0)
    host.names[0] = "Ana"
    host.receive("c1", intent_text(Intent("name", name="Bo 🎲")), 0.0)
    seen = SeatState()
    seen.receive(host.outbox[-1][1] if host.outbox[-1][0] == "c2" else
                 json.dumps(last_to(host, "c2")))
    assert seen.state is not None and seen.state.names == ("Ana", "Bo 🎲", "", "")


def test_a_name_that_breaks_the_rules_leaves_the_seat_its_own_name() -> None:
    host = table()
    host.join("c1", 1, 0.0)
    for bad in ("", "   ", "x" * 21, "Ana\nBob", "\u202eAna", "Ana\u200b"):
        host.receive("c1", json.dumps({"v": 1, "t": "name", "name": bad}), 0.0)
        assert host.names[1] == "", bad
    host.receive("c1", json.dumps({"v": 1, "t": "name", "name": 7}), 0.0)
    assert host.names[1] == "" and host.kind(1) == "friend"  # not refused: just no name


def test_a_guest_shows_no_name_a_host_should_not_have_sent() -> None:
    host = table()
    host.join("c1", 1, 0.0)
    message = last_to(host, "c1")
    message["names"] = ["Ana", "", "<b>x</b>" * 5, "Cy"]  # too long; a computer's seat
    message["kinds"][3] = "computer"
    seen = SeatState()
    seen.receive(json.dumps(message))
    assert seen.state is not None and seen.state.names == ("Ana", "", "", "")


def test_a_seat_taken_over_by_the_computer_loses_its_persons_name() -> None:
    host = table()
    host.join("c1", 1, 0.0)
    host.receive("c1", intent_text(Intent("name", name="Bo")), 0.0)
    host.receive("c1", intent_text(Intent("leave")), 0.0)
    assert host.names[1] == "" and host.kind(1) != "friend"


def test_a_host_seat_counts_down_between_the_hosts_messages_and_is_told_what_went() -> None:
    host = table()
    host.turns = TurnTimer(limit=30.0)
    assert host.join("g1", 1, 0.0)
    host.start()
    host.tick(0.0)
    run_computers(host)
    host.tick(0.0)
    clock = [100.0]  # the guest's own clock: not the host's
    state = SeatState()
    seat = RemoteSeat(state, lambda intent: None, now=lambda: clock[0])
    heard = Heard()
    seat.attach(heard)
    state.receive(json.dumps(last_to(host, "g1")))
    seat.update("state")
    seen = []
    for t in (100.0, 101.0, 102.9, 104.0):
        clock[0] = t
        seat.tick(t * 1000, True)
        seen.append(build(seat.snapshot(), PageState(ready=True)).turn_clock)
    assert seen == [30, 29, 28, 26] and heard.changes >= 4
    dealt = host.game.hand(1)
    host.tick(30.5)  # time's up at the host: its page passes for both people
    for kind in ("state", "notice"):
        state.receive(json.dumps(last_to(host, "g1", kind)))
        seat.update(kind)
    passed = tuple(card for card in dealt if card not in host.game.hand(1))
    assert heard.told[-1] == words.time_up("pass", passed)


def test_no_clock_is_shown_where_no_timer_runs() -> None:
    host = table()
    host.turns = TurnTimer(limit=30.0)
    host.start()
    run_computers(host)
    host.tick(5.0)
    state = SeatState()
    state.receive(json.dumps(last_to(host, "local")))
    seat = RemoteSeat(state, lambda intent: None, deal=lambda: None, alone=True)
    model = build(seat.snapshot(), PageState(ready=True))
    assert model.prompt and model.turn_clock is None  # alone with the computers


def test_a_play_made_for_you_names_the_card() -> None:
    assert words.time_up("play", (Card.parse("4C"),)) == "Time's up: the 4♣ was played for you."


def test_the_host_and_the_others_are_told_who_left_and_a_closing_host_is_named() -> None:
    host = table()
    assert host.join("g1", 1, 0.0) and host.join("g2", 2, 0.0)
    host.names[0], host.names[1] = "Ana", "Bo"
    host.start()
    host.receive("g1", intent_text(Intent("leave")), 1.0)
    told = words.left_the_table("Bo", 1)
    assert told == "Bo left the table: a computer plays West now."
    assert last_to(host, LOCAL, "notice")["text"] == told  # the host's own page too
    assert last_to(host, "g2", "notice")["text"] == told
    host.close()
    assert last_to(host, "g2", "closed")["reason"] == "Ana closed the table."
