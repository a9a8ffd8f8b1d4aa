"""The lobby of Play online (web/friends/lobby.py) as one page sees it: who deals, and what
of the public room's messages it takes in. No network: connections are named as Trystero's
are (``r:lobby:<page id>``) and the clock is passed in."""

from __future__ import annotations

import json
import random

from web.friends.lobby import DEALER_GRACE, MAX_MESSAGES, WAIT_SECONDS, Lobby, table_message
from web.p2p.tablecode import make_code

PASSED_OVER = WAIT_SECONDS + DEALER_GRACE
"""How long a page seen in the lobby has to deal before it is passed over."""


def lobby_of(me: str, *others: str) -> Lobby:
    """Page ``me``'s lobby, every other page seen as it came in at 0 s."""
    lobby = Lobby(me, started=0.0)
    for peer in others:
        lobby.opened(f"r:lobby:{peer}", now=0.0)
    return lobby


def invitation(people: int = 0) -> str:
    return table_message(make_code(random.Random(7)), people=people)


def test_the_lowest_id_deals_to_the_next_three_at_once() -> None:
    lobby = lobby_of("p1", "p5", "p3", "p9", "p7")
    assert lobby.dealer(now=0.5)
    assert lobby.deal(now=0.5) == ["r:lobby:p3", "r:lobby:p5", "r:lobby:p7"]
    assert not lobby_of("p3", "p1").dealer(now=0.5)


def test_a_page_that_stays_in_the_lobby_without_dealing_is_passed_over() -> None:
    # p1 has the lowest id but never deals (a stalled tab, a changed page).
    p5, p7 = lobby_of("p5", "p1", "p7"), lobby_of("p7", "p1", "p5")
    assert p5.deal(now=WAIT_SECONDS + 1) is None  # p1's turn to deal
    assert p5.deal(now=PASSED_OVER + 0.5) == ["r:lobby:p7"]  # p1 passed over, not dealt to
    # p7 passed p1 over at the same moment and follows p5, not itself.
    assert not p7.dealer(now=PASSED_OVER + 0.5)
    p7.received("r:lobby:p5", invitation(), now=PASSED_OVER + 0.6)
    assert p7.invited is not None


def test_stalled_pages_are_passed_over_one_at_a_time() -> None:
    # p1 and p3 both stall; p5 and p7 agree that p5 deals once both had their time.
    p5, p7 = lobby_of("p5", "p1", "p3", "p7"), lobby_of("p7", "p1", "p3", "p5")
    for now in (PASSED_OVER + 1, 2 * PASSED_OVER - 1):  # p3's turn now
        assert not p5.dealer(now) and not p7.dealer(now)
    assert p5.dealer(2 * PASSED_OVER + 1) and not p7.dealer(2 * PASSED_OVER + 1)


def test_a_late_dealer_is_still_followed() -> None:
    lobby = lobby_of("p5", "p1")
    lobby.received("r:lobby:p1", invitation(), now=PASSED_OVER + 3)
    assert lobby.invited is not None


def test_only_the_dealer_may_invite() -> None:
    lobby = lobby_of("p5", "p1", "p3")
    lobby.received("r:lobby:p3", invitation(), now=1.0)  # p1 deals here, not p3
    lobby.received("r:lobby:p7", invitation(), now=1.0)  # a higher id than this page's
    assert lobby.invited is None
    lobby.received("r:lobby:p1", invitation(people=3), now=1.0)
    assert lobby.invited is not None and lobby.fair_people == 3


def test_a_page_that_sends_junk_no_longer_counts() -> None:
    junk = ["{", "x" * 5000, json.dumps({"v": 1, "t": "table", "code": "XXXX"}),
            json.dumps({"v": 1, "t": "state"}), json.dumps({"v": 2, "t": "running"}),
            json.dumps({"v": True, "t": "running"}), json.dumps([1, "table"]),
            json.dumps({"v": 1, "t": "running", "seat": 2}),
            table_message(make_code(random.Random(7)), people=5),
            json.dumps({"v": 1, "t": "table", "code": make_code(random.Random(7)).code,
                        "fair": True})]
    for text in junk:
        lobby = lobby_of("p5", "p1", "p7")
        lobby.received("r:lobby:p1", text, now=1.0)
        assert lobby.people() == 2, text  # p1 is muted: not a player, not the dealer
        assert lobby.dealer(now=1.0), text
        lobby.received("r:lobby:p1", invitation(), now=1.5)
        assert lobby.invited is None, text  # nothing more of it is read


def test_a_page_that_sends_too_much_no_longer_counts() -> None:
    lobby = lobby_of("p5", "p9")
    running = json.dumps({"v": 1, "t": "running"})
    for _ in range(MAX_MESSAGES):
        lobby.received("r:lobby:p1", running, now=1.0)  # a table under way, said again
    assert "r:lobby:p1" in lobby.tables and lobby.people() == 2
    lobby.received("r:lobby:p1", running, now=1.0)
    assert "r:lobby:p1" in lobby.muted
