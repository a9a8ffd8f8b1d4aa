"""The host's table in parts: who sits where (``Seats``) and the game's flow (``TableFlow``)."""

from __future__ import annotations

from typing import Any

from hearts import Game
from hearts.bots import make
from web.p2p.flow import TableFlow
from web.p2p.protocol import Intent
from web.p2p.seats import LOCAL, Seats


def easy(level: str, seed: int) -> Any:
    return make("easy", seed)


def kinds(seats: Seats, started: bool = True) -> list[str]:
    return [seats.kind(s, started) for s in range(4)]


# --- who sits where ----------------------------------------------------------------------------

def test_the_host_sits_south_and_the_other_seats_are_open_until_the_game_starts() -> None:
    seats = Seats(grace=10.0)
    assert seats.seat_of(LOCAL) == 0 and seats.present() == [(0, LOCAL)]
    assert kinds(seats, started=False) == ["host", "open", "open", "open"]
    assert kinds(seats) == ["host", "computer", "computer", "computer"]


def test_a_dropped_persons_seat_waits_the_grace_from_the_first_drop() -> None:
    seats = Seats(grace=10.0)
    seats.sit("g1", 2)
    assert seats.drop("g1", 5.0, started=True) == 2
    assert kinds(seats)[2] == "away" and seats.present() == [(0, LOCAL)]
    seats.drop("g1", 9.0, started=True)  # a second drop does not start the wait again
    assert seats.expired(14.9) == []
    assert seats.expired(15.0) == [2]
    assert seats.clear(2) == "g1" and kinds(seats)[2] == "computer"


def test_in_the_lobby_a_dropped_persons_seat_is_open_again_at_once() -> None:
    seats = Seats(grace=10.0)
    seats.sit("g1", 1)
    assert seats.drop("g1", 1.0, started=False) == 1
    assert kinds(seats, started=False)[1] == "open" and seats.seat_of("g1") is None
    assert seats.drop("g1", 2.0, started=False) is None, "nothing is left to drop"


def test_a_seat_is_kept_for_one_page_and_a_page_gets_one_kept_seat() -> None:
    seats = Seats(grace=10.0)
    seats.sit("r:seated", 3)
    assert seats.keep("r:a", 1)
    assert not seats.keep("r:b", 1), "kept for another page"
    assert not seats.keep("r:a", 2), "that page has a seat kept already"
    assert not seats.keep("r:seated", 2), "that page sits at the table"
    seats.drop("r:a", 4.0, started=True)
    assert seats.coming == {}, "a page that goes loses the seat kept for it"
    assert seats.keep("r:b", 1) and seats.take_coming() == {1: "r:b"}
    assert seats.coming == {}


# --- the game's flow ---------------------------------------------------------------------------

def test_the_flow_waits_for_people_even_dropped_and_the_computer_fills_empty_seats() -> None:
    seats = Seats(grace=10.0)
    flow = TableFlow(Game.new(5), seats, level="easy", make_bot=easy)
    pass_ = Intent("pass", tuple(flow.game.hand(0)[:3]))
    assert flow.stage() == "lobby" and not flow.due() and flow.waiting_for() == []
    assert flow.refusal(0, pass_) == "The game hasn't started yet."
    seats.sit("g1", 1)
    flow.started = True
    assert flow.stage() == "pass" and flow.refusal(0, pass_) is None
    assert flow.waiting_for() == [0, 1] and flow.due()
    seats.drop("g1", 3.0, started=True)
    assert flow.waiting_for() == [0, 1], "a dropped person's seat is waited for in its grace"
    assert flow.computer_turn() is None, "computers pass, they have no card to search for"
    assert flow.refusal(0, Intent("ready")) == "The table isn't waiting for that."
