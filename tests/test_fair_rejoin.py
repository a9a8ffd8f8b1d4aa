"""A reload mid-hand at a fair table takes the same hand up (issue 38, point 1).

The pages of ``test_fair_session`` on the fake network: one tab reloads within its seat's
grace, comes back with what it kept for the tab (its seat, and its part of the hand:
``web.p2p.fair.resume``), and the hand goes on at every page, nothing dealt again, to be
scored the same everywhere. Two people, so each page plays a computer too: its table is
taken up as well.
"""

from __future__ import annotations

import asyncio
import json

import pytest

from tests.groups import SMALL
from tests.online_pages import Page, play_out_hosted_hand, until
from tests.test_fair_session import (
    Told,
    back,
    come_late,
    dealt,
    fair_pages,
    handed_over,
    play_out,
    reload,
    scored,
    seat_of,
    sit,
)
from web import words
from web.blame import Cheat, Fault
from web.friends.role import Role
from web.friends.sheet import sheet
from web.p2p.fair.table import GONE_GRACE, FairStage
from web.seats.fair import FairSeat


def _mover(seats: list[FairSeat]) -> FairSeat | None:
    return next((s for s in seats if s.snapshot().may_play), None)


async def _to(seats: list[FairSeat], stage: str) -> int:
    """Play to ``stage``: "pass" (the second page passed, the first not), "trick" (cards
    on the table, another person's turn) or "turn" (the second page's person to play).
    The index of the page that reloads."""
    if stage == "pass":
        snap = seats[1].snapshot()
        assert snap.view is not None and snap.may_pass
        for card in snap.view.hand[:3]:
            seats[1].toggle(card)
        seats[1].pass_cards()
        await until(lambda: seats[1].table.current.passing is not None, "passed")
        return 1
    for seat in seats:
        snap = seat.snapshot()
        assert snap.view is not None
        for card in snap.view.hand[:3]:
            seat.toggle(card)
        seat.pass_cards()
    played = 0
    while True:
        await until(lambda: _mover(seats) is not None, "a person's turn")
        mover = _mover(seats)
        assert mover is not None
        if played >= 3 and len(mover.table.transcript.plays) % 4:
            # every page has taken in the cards the mover has seen (a message waits for its
            # page's next slice): what the reloading page showed is what its record holds
            await _seen(seats, len(mover.table.transcript.plays))
            index = seats.index(mover)
            return index if stage == "turn" else 1 - index
        view = mover.snapshot().view
        assert view is not None
        mover.play(view.legal_plays[0])
        played += 1
        await _seen(seats, len(mover.table.transcript.plays))


async def _seen(seats: list[FairSeat], plays: int) -> None:
    await until(lambda: all(len(s.table.transcript.plays) >= plays for s in seats),
                "the card seen at every page")


Hand = tuple[int, tuple[object, ...], tuple[int, ...], tuple[object, ...], int]


def _hand(seat: FairSeat) -> Hand:
    """What the person sees of the hand: its number, their cards, the scores, the hands
    scored and the cards played."""
    table = seat.table
    return (table.hand_number, tuple(table.hand()), tuple(table.scores),
            tuple(table.history), len(table.transcript.plays))


def _next_deck_kept(page: Page) -> bool:
    """Whether what ``page`` keeps for its tab holds part of the next hand's deal."""
    kept = page.seat_kept[-1] if page.seat_kept else None
    return kept is not None and any(hand["next"]["log"] for hand in json.loads(kept)["hands"])


@pytest.mark.parametrize("stage", ["pass", "trick", "turn"])
def test_a_reload_mid_hand_takes_the_same_hand_up_and_it_is_scored_the_same(
        stage: str) -> None:
    async def run() -> None:
        network, pages = fair_pages(people=2)
        seats = await sit(pages)
        n = await _to(seats, stage)
        stays = seats[1 - n]
        if stage != "pass":  # the next hand's deck, made in the background slices, begun
            await until(lambda: _next_deck_kept(pages[n]), "the next deck's part kept")
        before = _hand(seats[n])
        reloaded, kept = reload(network, pages[n])
        gone = seats[n].table.seat
        await until(lambda: gone in stays.away, "the seat shown away")
        hands = json.loads(kept)["hands"]
        assert hands  # its part of the hand, kept for the tab
        if stage != "pass":  # and of the next hand's deal, made while this one is played
            assert any(hand["next"]["log"] for hand in hands)
        await back(reloaded, kept)
        again = seat_of(reloaded)
        await until(lambda: _hand(again) == before, lambda: f"{_hand(again)} != {before}")
        assert again.table.seat == gone and again.notice == words.FAIR_RESUMED
        await until(lambda: gone not in stays.away, "the seat back")
        assert seat_of(pages[1 - n]) is stays  # nothing dealt again
        assert not any(p.session.fair is not None and p.session.fair.redrawing
                       for p in (pages[1 - n], reloaded))
        if stage == "turn":
            assert again.snapshot().may_play
        await play_out([stays, again])
        await scored([stays, again])
        assert stays.table.history == again.table.history
        assert len(again.table.history) == len(before[3]) + 1  # this hand, played out
        assert all(s.table.stage is FairStage.SCORED and s.table.fault is None
                   for s in (stays, again))
        assert dealt(reloaded)
    asyncio.run(run())


@pytest.mark.parametrize("cheat", ["rekey", "otherhand"])
def test_a_page_back_with_other_keys_or_another_hand_is_refused_and_named(cheat: str
                                                                          ) -> None:
    """A modified page (``cheats.RESUMES``) reloads and takes the hand up with a fresh set
    of keys, or with another hand's record: the other page refuses it, names it, and its
    seat stays away (its grace running as for any page away)."""
    async def run() -> None:
        network, pages = fair_pages(people=2)
        seats = await sit(pages)
        n = await _to(seats, "trick")
        stays = seats[1 - n]
        told = Told()
        stays.attach(told)
        gone = seats[n].table.seat
        reloaded, kept = reload(network, pages[n])
        await until(lambda: gone in stays.away, "the seat shown away")
        reloaded.session.cheat = cheat
        reloaded.session.fair_group = SMALL
        reloaded.session.back_to_table(kept)
        named = words.fault_text(Fault(gone, Cheat.RESUMED_ELSEWHERE), stays.table.seat)
        await until(lambda: named in told.told, lambda: f"named: {told.told}")
        assert gone in stays.away and seat_of(pages[1 - n]) is stays
        assert stays.table.closed is None  # the honest page's game waits, as for any away
    asyncio.run(run())


def test_a_page_back_just_after_its_grace_is_charged_and_sits_down_at_once() -> None:
    """Back with its record just after its grace ran out at the other page (which hasn't
    handed the hand over yet): the hand can't be taken up any more, so the reloaded page
    falls back at once to the way of a tab without the record — the hand counts as far as
    it went with the rest on its seat, at both pages, and the next hand is dealt with it
    at its seat — instead of sitting at the old hand until the table's timer gives up.
    No clock moves after the claim: it all happens at once."""
    async def run() -> None:
        network, pages = fair_pages(people=2)
        seats = await sit(pages)
        n = await _to(seats, "trick")
        stays, other = seats[1 - n], pages[1 - n]
        gone = seats[n].table.seat
        before = list(seats[n].table.history)
        reloaded, kept = reload(network, pages[n])
        charged = tuple(json.loads(kept)["charged"])
        assert len(charged) == 4 and json.loads(kept)["hands"]  # a hand under way, kept
        await until(lambda: gone in stays.away, "the seat shown away")
        other.clock[0] += other.session.grace
        await until(lambda: other.session.fair is not None and bool(other.session.fair.leaving),
                    "the grace over")
        reloaded.session.fair_group = SMALL
        reloaded.session.back_to_table(kept)
        await until(lambda: dealt(reloaded) and dealt(other) and seat_of(other) is not stays
                    and seat_of(reloaded).table.hand_number == len(before) + 2,
                    "both pages dealt the next hand, together")
        for page in (other, reloaded):
            assert seat_of(page).table.history == [*before, charged]
        back_again = seat_of(reloaded)
        assert back_again.table.seat == gone and back_again.kinds[gone] != "computer"
        assert back_again.notice == words.fair_back(words.fair_left_hand(gone, charged, gone))
        assert words.fair_left_hand(gone, charged, seat_of(other).table.seat) \
            in (seat_of(other).notice or "")
    asyncio.run(run())


def test_a_page_back_after_its_seat_went_to_a_computer_sits_down_anew_next_hand() -> None:
    """Back with its record after the two others handed its seat to a computer and dealt
    the next hand: the reloaded page is told at once that it came too late (no waiting on
    a hand nobody goes on with), and, a computer's seat being open, it comes in again as a
    person who comes later does: it waits, told so in plain words, and sits down at the
    next hand with the scores as they stand; the others read that it came back too late
    and sits down again."""
    async def run() -> None:
        network, pages = fair_pages(people=3)
        seats = await sit(pages)
        gone = seats[2].table.seat
        reloaded, kept = reload(network, pages[2])
        assert json.loads(kept)["hands"]  # the hand under way, kept
        await handed_over(pages[:2], seats[:2], gone)
        told = Told()
        seat_of(pages[0]).attach(told)
        reloaded.session.fair_group = SMALL
        reloaded.session.back_to_table(kept)
        r = reloaded.session
        await until(lambda: r.fair is not None and r.fair.anew and r.fair.door.late
                    and len(r.fair.room) == 2, "the reloaded page in again, a newcomer")
        assert r.role is Role.FAIR and reloaded.dialog_open
        assert dict(sheet(r).texts)["#fr-intro"] == words.FAIR_BACK_AGAIN
        said = words.fair_back_again(gone, seat_of(pages[0]).table.seat)
        await until(lambda: said in told.told, lambda: f"told: {told.told}")
        assert all(seat_of(p).kinds[gone] == "computer" and seat_of(p).table.closed is None
                   for p in pages[:2])
        playing = [seat_of(p) for p in pages[:2]]
        await play_out(playing)
        await scored(playing)
        history = list(playing[0].table.history)
        await until(lambda: all(dealt(p) for p in (*pages[:2], reloaded))
                    and seat_of(reloaded).table.hand_number == len(history) + 1,
                    "the page back sat down at the next hand")
        again = seat_of(reloaded)
        assert again.table.history == history == seat_of(pages[0]).table.history
        assert again.kinds.count("computer") == 1 and not reloaded.dialog_open
        assert "You sit at" in (again.notice or "")
    asyncio.run(run())


def test_a_page_back_after_its_seat_went_to_a_computer_with_no_seat_open_is_told_it_is_gone(
        ) -> None:
    """Back with its record after the others handed its seat to a computer, when no seat is
    open to it (a person who came later waits for the only computer's seat): the reloaded
    page is told at once that it came too late and that a computer plays its seat now
    (``"gone"``), and its table closes for it, saying so — nothing to wait for; the others
    read that it came back too late, and their table goes on, the newcomer still waiting
    for the seat."""
    async def run() -> None:
        network, pages = fair_pages(people=4)
        seats = await sit(pages)
        gone = seats[3].table.seat
        reloaded, kept = reload(network, pages[3])
        await handed_over(pages[:3], seats[:3], gone)
        late = await come_late(network, pages[0].clock)
        await until(lambda: all(p.session.fair is not None and p.session.fair.open_seats() == 0
                                for p in pages[:3]), "the newcomer noted by every page")
        told = [Told() for _ in pages[:3]]
        for page, news in zip(pages[:3], told, strict=True):
            seat_of(page).attach(news)
        reloaded.session.fair_group = SMALL
        reloaded.session.back_to_table(kept)
        r = reloaded.session
        await until(lambda: r.role is Role.GUEST_CLOSED, "the page back, told it's too late")
        assert r.fair is None and r.fair_ended == words.FAIR_BACK_TOO_LATE
        assert dict(sheet(r).texts)["#fr-fair-closed"] == words.FAIR_BACK_TOO_LATE
        for page, news in zip(pages[:3], told, strict=True):
            seat = seat_of(page)
            said = words.fair_back_too_late(gone, seat.table.seat, seat.names)
            await until(lambda: said in news.told, lambda: f"told: {news.told}")  # noqa: B023
            assert seat.kinds[gone] == "computer" and seat.table.closed is None
            assert page.session.role is Role.FAIR
        fair = late.session.fair
        assert late.session.role is Role.FAIR and fair is not None and fair.door.late
    asyncio.run(run())


async def _carried_on_alone(pages: list[Page], seats: list[FairSeat], gone: int) -> Page:
    """At a table of two, the seat ``gone`` is away (a reload) and its grace runs out: the
    person who stayed carries the game on alone against the computers. That page."""
    stay = next(p for p, s in zip(pages, seats, strict=True) if s.table.seat != gone)
    await until(lambda: gone in seat_of(stay).away, "the seat shown away")
    stay.clock[0] += stay.session.grace
    await until(lambda: stay.session.fair is not None and bool(stay.session.fair.leaving),
                "the grace over")
    stay.clock[0] += GONE_GRACE
    await until(lambda: stay.session.role is Role.HOSTING and stay.session.fair is not None
                and stay.session.fair.me is not None,
                "the page left alone carries on, its door open")
    return stay


def test_a_page_back_after_the_other_went_on_alone_sits_down_with_it_next_hand() -> None:
    """Two people; one tab reloads and comes back after its grace, when the other person
    already plays on alone against the computers: the claim is answered at once (a
    computer has the seat), not left to wait on a table nobody holds any more, and the
    person sits down again with the one who stayed once their hand is over, the scores as
    they stand."""
    async def run() -> None:
        network, pages = fair_pages(people=2)
        seats = await sit(pages)
        gone = seats[1].table.seat
        reloaded, kept = reload(network, pages[1])
        stay = await _carried_on_alone(pages, seats, gone)
        reloaded.session.fair_group = SMALL
        reloaded.session.back_to_table(kept)
        r = reloaded.session
        await until(lambda: r.fair is not None and r.fair.anew and r.fair.door.late
                    and bool(r.fair.room), "the claim answered: in again, a newcomer")
        assert dict(sheet(r).texts)["#fr-intro"] == words.FAIR_BACK_AGAIN
        hosting = stay.session.hosting
        assert stay.session.role is Role.HOSTING and hosting is not None
        play_out_hosted_hand(hosting.host)
        hosting.flush()
        history = hosting.host.game.hand_history
        await until(lambda: dealt(stay) and dealt(reloaded), "both at a fair table, dealt")
        for seat in (seat_of(stay), seat_of(reloaded)):
            assert seat.table.history == history and seat.kinds.count("computer") == 2
    asyncio.run(run())
