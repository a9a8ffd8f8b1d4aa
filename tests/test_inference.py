"""Inference from play: sampled deals weighed by the others' plays (hearts.bots.inference)."""

from __future__ import annotations

import random

import pytest

from hearts import Game
from hearts.bots.hard import HardBot
from hearts.bots.inference import MISMATCH, PlayModel
from hearts.bots.sampling import DealSampler
from hearts.cards import Card, parse_cards
from hearts.rules import QS_MASK

# South holds every club, so the others discard from the first trick on; with no pass
# (hand 4) the deal is known to the test, not to South.
HANDS = [
    "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
    "2H 3H 4H 5H QS 2D 3D 4D 5D 6D 2S 3S 4S",
    "6H 7H 8H 9H TH 7D 8D 9D TD JD 5S 6S 7S",
    "JH QH KH AH QD KD AD 8S 9S TS JS KS AS",
]


def _game_after(cards: str) -> Game:
    game = Game.from_deal([parse_cards(h) for h in HANDS], history=[(7, 6, 7, 6)] * 3)
    for token in cards.split():
        game.play(Card.parse(token))
    return game


def test_no_plays_by_others_weigh_nothing() -> None:
    view = _game_after("").view(0)
    assert PlayModel(view).events == []


def test_a_small_heart_discarded_makes_the_queen_unlikely_in_that_hand() -> None:
    # Trick 1: 2♣, then three discards (no points allowed); trick 2: 3♣ led, West throws
    # the 2♥ while (in the real deal) holding the Q♠, the card the model would dump.
    game = _game_after("2C 2D 7D QD 3C 2H")
    view = game.view(0)
    model = PlayModel(view)
    sampler = DealSampler(view)
    rng = random.Random(4)
    with_queen: list[float] = []
    without: list[float] = []
    for _ in range(400):
        hands = sampler.sample(rng)
        weight = model.weight(hands)
        assert 0.0 < weight <= 1.0
        (with_queen if hands[1] & QS_MASK else without).append(weight)
    assert with_queen and without
    # Holding the Q♠, the model discards it: the 2♥ is the wrong kind of play.
    assert max(with_queen) <= MISMATCH
    assert sum(with_queen) / len(with_queen) < sum(without) / len(without)


def test_the_hard_player_weighs_only_what_its_view_shows() -> None:
    rng = random.Random(6)
    game = Game.new(6)
    for seat in range(4):
        game.choose_pass(seat, game.hand(seat)[-3:])
    for _ in range(17):
        game.play(rng.choice(game.legal_plays()))
    player = game.to_play
    assert player is not None
    seat = player
    view = game.view(seat)
    a = HardBot(2, budget_ms=None, iterations=200, inference=True).play_values(view)
    b = HardBot(2, budget_ms=None, iterations=200, inference=True).play_values(view)
    assert a == b
    off = HardBot(2, budget_ms=None, iterations=200).play_values(view)  # the default
    assert [card for card, _ in off] == [card for card, _ in a]
    assert off != a  # the weights moved the values
    assert all(isinstance(card, Card) for card, _ in a)


@pytest.mark.parametrize(("seed", "plays"), [(2, 3), (4, 17), (6, 30)])
def test_with_inference_the_choice_is_the_same_however_the_hidden_cards_lie(
        seed: int, plays: int) -> None:
    from tests.positions import twin_games

    game, twin = twin_games(seed, plays)
    me = game.to_play
    assert me is not None
    view, twin_view = game.view(me), twin.view(me)
    assert view == twin_view
    bot = HardBot(seed, budget_ms=None, iterations=300, inference=True)
    assert bot.play_values(view) == bot.play_values(twin_view)
