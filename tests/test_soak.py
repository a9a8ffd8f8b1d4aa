"""Long play: whole games between computer players, every move checked against the rules."""

import pytest

from hearts import Game, Phase
from hearts.bots import make
from hearts.events import HandScored

LEVEL_MIX = ("normal", "easy", "normal", "basic")


def play_whole_game(seed: int, levels: tuple[str, ...] = LEVEL_MIX) -> Game:
    """A game to 100 between bots; asserts every decision is legal and every hand adds up."""
    game = Game.new(seed=seed)
    bots = [make(level, seed=seed * 4 + seat) for seat, level in enumerate(levels)]
    while game.phase is not Phase.GAME_OVER:
        if game.phase is Phase.PASS:
            for seat in range(4):
                view = game.view(seat)
                chosen = bots[seat].choose_pass(view)
                assert len(set(chosen)) == 3 and set(chosen) <= set(view.hand)
                game.choose_pass(seat, chosen)
        else:
            player = game.to_play
            assert player is not None
            seat = player
            card = bots[seat].choose_play(game.view(seat))
            assert game.why_illegal(card) is None, (card, game.to_text())
            game.play(card)
    for event in game.events:
        if isinstance(event, HandScored):
            assert sum(event.points_taken) == 26
            assert sum(event.scores) in (26, 78)
            assert (sum(event.scores) == 78) == (event.moon_shooter is not None)
    assert game.winner is not None and max(game.scores) >= 100
    return game


@pytest.mark.parametrize("seed", range(3))
def test_bots_play_whole_games_by_the_rules(seed: int) -> None:
    play_whole_game(seed)


@pytest.mark.slow
def test_soak_one_hundred_games() -> None:
    hands = 0
    for seed in range(100, 200):
        game = play_whole_game(seed)
        hands += len(game.hand_history)
    print(f"soak: 100 games, {hands} hands, no exception, every move legal")
