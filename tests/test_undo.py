"""Taking back cards: ``Game.plays`` is the hand's play stack, ``Game.pop`` undoes the top."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hearts import Card, Game, Phase, UndoError
from hearts.events import HeartsBroken, TrickWon
from tests.scripted import NO_PASS_HISTORY, game_from, play_all


def snapshot(game: Game) -> tuple[object, ...]:
    """Everything a table or a save can read of the game."""
    return (game.to_json(), game.to_text(), list(game.events), game.tricks, game.current_trick,
            game.hearts_broken, game.hand_points, game.to_play, game.legal_plays(),
            [game.view(seat) for seat in range(4)])


def test_the_play_stack_names_each_card_and_who_played_it() -> None:
    game = game_from({"S": "2C3C", "W": "4C9C", "N": "6CKC", "E": "5C8C"}, history=NO_PASS_HISTORY)
    assert game.plays == []
    play_all(game, "2C4C6C5C KC")  # North wins the first trick with the 6♣ and leads the K♣
    assert [(seat, str(card)) for seat, card in game.plays] == [
        (0, "2C"), (1, "4C"), (2, "6C"), (3, "5C"), (2, "KC")]


def test_taking_back_a_card_returns_it_to_the_hand_and_the_turn_to_its_player() -> None:
    game = game_from({"S": "2C3C", "W": "4C5C"}, history=NO_PASS_HISTORY)
    play_all(game, "2C4C")
    assert game.pop() == (1, Card.parse("4C"))
    assert game.to_play == 1 and Card.parse("4C") in game.hand(1)
    assert [str(c) for c in game.current_trick.cards] == ["2C"]  # type: ignore[union-attr]


def test_taking_back_the_first_heart_unbreaks_hearts() -> None:
    game = game_from({"S": "2C", "W": "=3C4C5C6C7C8C9CTCJCQCKCAC2D",
                      "N": "=2H3H4H5H6H7H8H9HTHJHQHKHAH"}, history=NO_PASS_HISTORY)
    play_all(game, "2C3C")
    before = snapshot(game)
    game.play("2H")  # North holds only hearts: one is legal even now, and breaks hearts
    assert game.hearts_broken and isinstance(game.events[-1], HeartsBroken)
    game.pop()
    assert not game.hearts_broken
    assert snapshot(game) == before


def test_taking_back_the_card_that_won_a_trick_reopens_the_trick() -> None:
    game = game_from({"S": "2C", "W": "3C", "N": "4C", "E": "5C"}, history=NO_PASS_HISTORY)
    play_all(game, "2C3C4C")
    before = snapshot(game)
    game.play("5C")
    assert isinstance(game.events[-1], TrickWon) and len(game.tricks) == 1
    assert game.pop() == (3, Card.parse("5C"))
    assert game.tricks == [] and game.to_play == 3
    assert snapshot(game) == before


def test_nothing_to_take_back_before_the_first_card_nor_while_passing() -> None:
    game = Game.new(seed=3)
    with pytest.raises(UndoError, match="none has been played"):
        game.pop()
    for seat in range(4):
        game.choose_pass(seat, game.hand(seat)[:3])
    with pytest.raises(UndoError, match="none has been played"):
        game.pop()


def test_a_finished_hand_is_not_taken_back() -> None:
    game = Game.new(seed=4)
    rng = random.Random(4)
    for seat in range(4):
        game.choose_pass(seat, game.hand(seat)[:3])
    for _ in range(52):
        game.play(rng.choice(game.legal_plays()))
    assert game.hand_number == 2 and game.plays == []
    before = snapshot(game)
    with pytest.raises(UndoError):
        game.pop()
    assert snapshot(game) == before  # a refused undo changes nothing


def test_nothing_is_taken_back_once_the_game_is_over() -> None:
    game = Game.new(seed=5)
    rng = random.Random(5)
    while game.phase is not Phase.GAME_OVER:
        if game.phase is Phase.PASS:
            for seat in range(4):
                game.choose_pass(seat, game.hand(seat)[:3])
        else:
            game.play(rng.choice(game.legal_plays()))
    assert game.plays == []
    with pytest.raises(UndoError, match="game is over"):
        game.pop()


def test_a_copy_without_events_can_still_take_back() -> None:
    game = game_from({"S": "2C", "W": "3C"}, history=NO_PASS_HISTORY)
    play_all(game, "2C3C")
    other = game.copy()
    other.pop()
    assert other.events == [] and other.to_play == 1
    assert [str(c) for _, c in game.plays] == ["2C", "3C"]  # the original is untouched


def pass_if_passing(game: Game, rng: random.Random) -> None:
    if game.phase is Phase.PASS:
        for seat in range(4):
            game.choose_pass(seat, rng.sample(game.hand(seat), 3))


def played_into_a_hand(seed: int, rng: random.Random) -> Game:
    """A random game zero to two hands in, at the first trick of a hand."""
    game = Game.new(seed=seed)
    for _ in range(rng.randrange(3)):
        pass_if_passing(game, rng)
        hand = game.hand_number
        while game.hand_number == hand and game.phase is Phase.PLAY:
            game.play(rng.choice(game.legal_plays()))
    pass_if_passing(game, rng)
    return game


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32), st.randoms(use_true_random=False), st.integers(1, 51))
def test_playing_k_cards_then_popping_k_gives_back_the_very_same_game(
        seed: int, rng: random.Random, k: int) -> None:
    game = played_into_a_hand(seed, rng)
    if game.phase is not Phase.PLAY:
        return
    hand = game.hand_number
    snapshots = [snapshot(game)]
    stack = []
    for _ in range(k):
        seat, card = game.to_play, rng.choice(game.legal_plays())
        game.play(card)
        stack.append((seat, card))
        snapshots.append(snapshot(game))
    assert game.plays == stack
    while stack:
        assert game.pop() == stack.pop()
        assert snapshot(game) == snapshots[len(stack)]
        assert game.hand_number == hand  # never crosses into another hand
    with pytest.raises(UndoError):
        game.pop()
