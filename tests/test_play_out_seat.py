"""The game against the computers offers to play out the rest once it is decided, and
plays it out by itself under that setting."""

from __future__ import annotations

import asyncio
import random

from hearts import Game, Phase
from hearts.playout import certain_outcome, jd_taker_of, state_of
from tests.solo_page import local_seat, settle
from web import formats, words
from web.table.model import PageState, build


def settled_game(seed: int) -> Game:
    """The first game from ``seed`` on, played at random, that reaches a turn of South's
    (with two cards or more) where the rest is decided; at that turn."""
    for tried in range(seed, seed + 50):
        rng = random.Random(tried)
        game = Game.new(seed=tried)
        for seat in range(4):
            game.choose_pass(seat, game.hand(seat)[:3])
        while game.phase is Phase.PLAY and game.hand_number == 1:
            if game.to_play == 0 and len(game.hand(0)) > 1 \
                    and certain_outcome(state_of(game), jd_taker_of(game)) is not None:
                return game
            game.play(rng.choice(game.legal_plays()))
    raise AssertionError("no decided turn in 50 games")


def test_the_rest_is_played_out_on_request_to_the_points_foreseen() -> None:
    game = settled_game(3)
    foreseen = certain_outcome(state_of(game), jd_taker_of(game))
    assert foreseen is not None

    async def run() -> None:
        seat, _, _ = local_seat()
        seat.take_over(formats.Saved(Game.from_json(game.to_json())))
        snap = seat.snapshot()
        assert snap.can_play_out
        model = build(snap, PageState(ready=True))
        assert model.play_out and words.PLAY_OUT_NOTE in model.prompt
        seat.play_out()
        await settle(seat)
        summary = seat.saved.summary
        assert summary is not None and summary.taken == foreseen[0]
        assert not seat.snapshot().can_play_out and not seat.playing_out

    asyncio.run(run())


def test_nothing_is_offered_while_the_rest_is_open() -> None:
    async def run() -> None:
        seat, _, _ = local_seat(seed=4)
        game = seat.game
        for s in range(4):
            game.choose_pass(s, game.hand(s)[:3])
        seat.kick()
        await settle(seat)
        assert game.to_play == 0 and not seat.snapshot().can_play_out
        seat.play_out()  # refused: the hand isn't decided
        assert len(game.hand(0)) == 13

    asyncio.run(run())


def test_the_setting_plays_the_rest_out_by_itself() -> None:
    game = settled_game(3)
    rng = random.Random(0)

    async def run() -> None:
        seat, _, _ = local_seat()
        seat.records.settings.play_out = True
        # One turn earlier: South plays, and once it's South's turn again and decided,
        # the rest goes by itself.
        seat.take_over(formats.Saved(Game.from_json(game.to_json())))
        seat.play(rng.choice(seat.game.legal_plays()))
        await settle(seat)
        assert seat.saved.summary is not None

    asyncio.run(run())


def test_the_setting_is_kept() -> None:
    settings = formats.Settings(play_out=True)
    loaded, note = formats.load_settings(formats.dump_settings(settings))
    assert loaded.play_out and note is None
    assert not formats.load_settings(formats.dump_settings(formats.Settings()))[0].play_out
