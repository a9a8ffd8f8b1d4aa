"""One way of running the computers for every table (``web.players.Computers``)."""

from __future__ import annotations

import asyncio

from hearts import Card, Game, Phase
from hearts.bots.hard import HardBot
from tests.solo_page import no_wait
from tests.test_house_rules import CHOOSES, moon_game
from web.p2p.flow import TableFlow
from web.p2p.seats import Seats
from web.players import Computers, Move, Searching, choose_play, due, make
from web.seats.solo import LocalSeat
from web.storage import MemoryStorage, Records, Storage


def test_the_solo_game_and_a_hosted_table_seat_the_same_computers() -> None:
    """The same game at either table meets the same players: a hosted game carried on
    alone (``LocalSeat.adopt``) goes on as it would have."""
    memory = MemoryStorage()
    records = Records(Storage(lambda: memory), lambda text: None)
    records.settings.level = "easy"
    solo = LocalSeat(records, speed=lambda: "instant", sleep=no_wait, seed=77)
    hosted = TableFlow(Game.new(77), Seats(5.0), level="easy")
    game = Game.new(77)
    for seat in (1, 2, 3):
        view = game.view(seat)
        assert solo.bots[seat].choose_pass(view) == hosted.computers[seat].choose_pass(view)
    other = Computers("easy", 78)
    assert any(other[s].choose_pass(game.view(s)) != hosted.computers[s].choose_pass(
        game.view(s)) for s in (1, 2, 3)), "another seed, other players"


def test_passes_are_chosen_only_for_the_seats_named_and_only_once() -> None:
    game = Game.new(5)
    computers = Computers("easy", 5)
    computers.pass_for(game, (1, 2))
    assert [game.pass_chosen(s) for s in range(4)] == [False, True, True, False]
    computers.pass_for(game, (1, 2, 3))  # 1 and 2 keep theirs, 3 chooses
    assert [game.pass_chosen(s) for s in range(4)] == [False, True, True, True]


def test_the_computers_thinking_counts_toward_the_pause_before_its_card() -> None:
    now = [10.0]
    slept: list[float] = []

    def clock() -> float:
        return now[0]

    async def sleep(seconds: float) -> None:
        slept.append(seconds)
        now[0] += seconds

    game = Game.new(3)
    Computers("easy", 3).pass_for(game, range(4))
    seat = game.to_play
    assert seat is not None
    computers = Computers("easy", 3)
    card = asyncio.run(computers.play(game.view(seat), seat, pause=1.0, since=9.75,
                                      clock=clock, sleep=sleep))
    assert isinstance(card, Card) and card in game.view(seat).legal_plays
    assert slept == [0.75], "a quarter second went by before: the rest of the pause"
    slept.clear()
    asyncio.run(computers.play(game.view(seat), seat, pause=1.0, since=5.0, clock=clock,
                               sleep=sleep))
    assert slept == [], "the pause is over already: no wait"


def test_a_searching_player_is_driven_in_slices_and_plays_the_card_it_would_at_once() -> None:
    """The hard player's search gives the page back control between slices (other tasks
    run meanwhile) and ends on the very card its one-go ``choose_play`` picks."""
    game = Game.new(4)
    Computers("easy", 4).pass_for(game, range(4))
    game.play(game.legal_plays()[0])
    seat = game.to_play
    assert seat is not None
    view = game.view(seat)

    def hard() -> HardBot:
        return HardBot(seed=9, budget_ms=None, iterations=120, chunk_ms=0.0)

    async def run() -> tuple[Card, int]:
        ticks = 0
        done = False

        async def count() -> None:
            nonlocal ticks
            while not done:
                ticks += 1
                await asyncio.sleep(0)

        counter = asyncio.create_task(count())
        card = await choose_play(hard(), view)
        done = True
        await counter
        return card, ticks

    card, ticks = asyncio.run(run())
    assert isinstance(hard(), Searching) and not isinstance(make("easy", 1), Searching)
    assert card == hard().choose_play(view)
    assert ticks > 1, "the other task ran between slices"



def test_the_move_due_from_the_computers_is_theirs_alone() -> None:
    """``due`` names what the game waits for from the seats a table gives the computers:
    every pass still to choose at once, then a card or a moon's choice for one seat."""
    game = Game.new(6)
    computers = Computers("easy", 6)

    def not_south(seat: int) -> bool:
        return seat != 0

    assert due(game, not_south) == Move("pass", (1, 2, 3))
    computers.pass_for(game, (2,))
    assert due(game, not_south) == Move("pass", (1, 3)), "a pass is chosen once"
    assert due(game, lambda seat: False) is None, "no seat is the computers'"
    computers.make(game, Move("pass", (1, 3)))
    assert due(game, not_south) is None, "the table waits for South's pass"
    game.choose_pass(0, game.hand(0)[:3])
    seat = game.to_play
    assert seat is not None and due(game, lambda s: True) == Move("play", (seat,))
    assert due(game, lambda s: s != seat) is None
    moon = moon_game(CHOOSES)
    assert moon.phase is Phase.MOON and moon.moon_chooser == 0
    assert due(moon, lambda s: True) == Move("moon", (0,)) and due(moon, not_south) is None
    computers.make(moon, Move("moon", (0,)))
    assert moon.phase is not Phase.MOON, "the computer chose how its moon scores"


def test_a_card_searched_for_while_the_table_moved_on_is_chosen_again() -> None:
    game = Game.new(8)
    computers = Computers("easy", 8)
    computers.pass_for(game, range(4))
    seat = game.to_play
    assert seat is not None
    stale = next(c for c in game.hand(seat) if game.why_illegal(c, seat) is not None)
    chosen = computers[seat].choose_play(game.view(seat))
    computers.make(game, Move("play", (seat,)), stale)
    assert game.plays == [(seat, chosen)]
