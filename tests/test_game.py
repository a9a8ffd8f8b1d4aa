"""The game: simultaneous passing, the pass cycle, events, the match to 100."""

import random

import pytest

from hearts import Game, IllegalMoveError, PassDirection, Phase, parse_cards
from hearts.events import (
    CardPlayed,
    GameOver,
    HandDealt,
    HandScored,
    PassChosen,
    PassesExchanged,
    TrickWon,
)
from hearts.game import deal


def test_pass_directions_cycle_left_right_across_none() -> None:
    expected = ["L", "R", "A", "N", "L", "R", "A", "N"]
    assert [PassDirection.for_hand(n).letter for n in range(1, 9)] == expected


def test_a_new_game_starts_with_passing_to_the_left() -> None:
    game = Game.new(seed=11)
    assert game.phase is Phase.PASS
    assert game.pass_direction is PassDirection.LEFT
    assert game.to_play is None
    assert game.legal_plays() == []
    assert game.events == [HandDealt(1, PassDirection.LEFT)]
    assert sorted(c for s in range(4) for c in game.hand(s)) == sorted(
        parse_cards(" ".join(str(c) for s in range(4) for c in game.hand(s))))
    assert len({c for s in range(4) for c in game.hand(s)}) == 52


def test_the_same_seed_deals_the_same_cards() -> None:
    assert [Game.new(seed=5).hand(s) for s in range(4)] == [
        Game.new(seed=5).hand(s) for s in range(4)]
    assert deal(5, 1) != deal(5, 2)


def test_passing_is_simultaneous_and_in_any_order() -> None:
    game = Game.new(seed=2)
    dealt = [game.hand(s) for s in range(4)]
    chosen = {s: dealt[s][-3:] for s in range(4)}
    for seat in (2, 0, 3):
        game.choose_pass(seat, chosen[seat])
        assert game.phase is Phase.PASS
        assert [game.hand(s) for s in range(4)] == dealt  # nobody has received anything
        assert game.view(seat).received is None
    assert [game.pass_chosen(s) for s in range(4)] == [True, False, True, True]
    game.choose_pass(1, chosen[1])
    assert game.phase is Phase.PLAY
    assert PassesExchanged(PassDirection.LEFT) in game.events
    assert [e for e in game.events if isinstance(e, PassChosen)] == [
        PassChosen(2), PassChosen(0), PassChosen(3), PassChosen(1)]
    for seat in range(4):
        giver = (seat - 1) % 4  # passing left: South gives to West, so West gets South's
        assert set(chosen[giver]) <= set(game.hand(seat))
        assert not set(chosen[seat]) & set(game.hand(seat))  # never gets its own back
        assert game.view(seat).received == tuple(sorted(chosen[giver]))
        assert game.view(seat).passed == tuple(sorted(chosen[seat]))


@pytest.mark.parametrize(("hand_number", "receiver_of_south"), [(1, 1), (2, 3), (3, 2)])
def test_where_south_passes(hand_number: int, receiver_of_south: int) -> None:
    history = [(13, 13, 0, 0)] * (hand_number - 1)
    game = Game(seed=9, history=history)
    chosen = {s: game.hand(s)[:3] for s in range(4)}
    for seat in range(4):
        game.choose_pass(seat, chosen[seat])
    assert set(chosen[0]) <= set(game.hand(receiver_of_south))
    assert game.view(0).pass_to == receiver_of_south


def test_after_passing_the_holder_of_the_two_of_clubs_leads() -> None:
    game = Game.new(seed=4)
    for seat in range(4):
        game.choose_pass(seat, game.hand(seat)[-3:])
    holder = next(s for s in range(4) if parse_cards("2C")[0] in game.hand(s))
    assert game.to_play == holder
    assert [str(c) for c in game.legal_plays()] == ["2C"]


def test_the_fourth_hand_has_no_passing() -> None:
    game = Game(seed=9, history=[(13, 13, 0, 0)] * 3)
    assert game.pass_direction is PassDirection.NONE
    assert game.phase is Phase.PLAY
    with pytest.raises(IllegalMoveError, match="no passing"):
        game.choose_pass(0, game.hand(0)[:3])
    assert game.view(0).received is None and game.view(0).pass_to is None


def test_a_seat_cannot_choose_twice_nor_pass_wrong_cards() -> None:
    game = Game.new(seed=6)
    hand = game.hand(0)
    other = next(c for c in game.hand(1))
    with pytest.raises(IllegalMoveError, match="three different"):
        game.choose_pass(0, hand[:2])
    with pytest.raises(IllegalMoveError, match="three different"):
        game.choose_pass(0, [hand[0], hand[0], hand[1]])
    with pytest.raises(IllegalMoveError, match=r"South can't pass .*is not in your hand"):
        game.choose_pass(0, [hand[0], hand[1], other])
    with pytest.raises(ValueError, match="seat"):
        game.choose_pass(4, hand[:3])
    game.choose_pass(0, hand[:3])
    with pytest.raises(IllegalMoveError, match="already chosen"):
        game.choose_pass(0, hand[3:6])
    assert game.view(0).passed == tuple(hand[:3])


def random_game(seed: int) -> Game:
    rng = random.Random(seed)
    game = Game.new(seed=seed)
    while game.phase is not Phase.GAME_OVER:
        if game.phase is Phase.PASS:
            for seat in range(4):
                game.choose_pass(seat, rng.sample(game.hand(seat), 3))
        else:
            game.play(rng.choice(game.legal_plays()))
    return game


def test_events_tell_the_story_of_a_hand_in_order() -> None:
    game = random_game(1)
    kinds = [type(e).__name__ for e in game.events[:20]]
    assert kinds[:6] == ["HandDealt", "PassChosen", "PassChosen", "PassChosen", "PassChosen",
                         "PassesExchanged"]
    plays = [e for e in game.events if isinstance(e, CardPlayed)]
    tricks = [e for e in game.events if isinstance(e, TrickWon)]
    hands = [e for e in game.events if isinstance(e, HandScored)]
    assert len(plays) == 52 * len(hands) and len(tricks) == 13 * len(hands)
    assert isinstance(game.events[-1], GameOver)
    assert [e.scores for e in hands] == game.hand_history


def test_the_game_ends_when_someone_reaches_100_and_the_lowest_total_wins() -> None:
    for seed in range(12):
        game = random_game(seed)
        assert max(game.scores) >= 100
        assert game.winner == game.scores.index(min(game.scores))
        assert game.scores.count(min(game.scores)) == 1
        for event in game.events:
            if isinstance(event, HandScored) and event is not game.events[-2]:
                over = max(event.totals) >= 100 and event.totals.count(min(event.totals)) == 1
                assert not over, "the game went on after it was over"


def test_a_shared_lowest_total_at_100_means_another_hand() -> None:
    game = random_game(88)  # found by search: after hand 11 South and West share 54
    tied = [e for e in game.events if isinstance(e, HandScored) and e.hand_number == 11]
    assert tied[0].totals == (54, 54, 100, 78)
    assert len(game.hand_history) == 12
    assert game.winner == 1 and game.scores == (72, 60, 102, 78)


def test_nothing_can_be_played_after_the_game_is_over() -> None:
    game = random_game(3)
    assert game.phase is Phase.GAME_OVER
    assert game.legal_plays() == [] and game.to_play is None
    assert game.why_illegal("2C") == "The game is over."
    with pytest.raises(IllegalMoveError):
        game.play(game.hand(0)[0] if game.hand(0) else "2C")
    with pytest.raises(IllegalMoveError):
        game.choose_pass(0, [])


def test_copy_is_independent() -> None:
    game = Game(seed=9, history=[(13, 13, 0, 0)] * 3)
    copy = game.copy()
    copy.play("2C")
    assert game.to_text() != copy.to_text()
    assert len(game.events) == 1 and copy.events[0].__class__ is CardPlayed
