"""The rules of docs/rules.md, each shown on a scripted deal written in card notation."""

import pytest

from hearts import Card, Game, IllegalMoveError, Phase, Rules
from hearts.events import HeartsBroken, MoonShot
from tests.scripted import NO_PASS_HISTORY, game_from, play_all

# A no-pass hand (the 4th) where West holds the 2♣.
CLUBS_TO_WEST = {
    "S": "=AC 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH",
    "W": "=2C 3C 4C 5C 2D 3D 4D 5D 6D 7D 8D 9D TD",
    "N": "=6C 7C 8C 9C JD QD KD AD 2S 3S 4S 5S 6S",
}


def legal(game: Game) -> str:
    return " ".join(str(c) for c in game.legal_plays())


def test_the_holder_of_the_two_of_clubs_leads_it() -> None:
    game = game_from(CLUBS_TO_WEST, history=NO_PASS_HISTORY)
    assert game.phase is Phase.PLAY
    assert game.to_play == 1
    assert legal(game) == "2C"
    assert game.why_illegal("3C") == "The 2 of clubs must lead the first trick."
    with pytest.raises(IllegalMoveError, match="3C"):
        game.play("3C")


def test_must_follow_the_led_suit() -> None:
    game = game_from(CLUBS_TO_WEST, history=NO_PASS_HISTORY)
    game.play("2C")
    assert game.to_play == 2
    assert legal(game) == "6C 7C 8C 9C"
    assert game.why_illegal("QD") == "You must follow clubs."


def test_no_hearts_or_queen_of_spades_on_the_first_trick() -> None:
    game = game_from({"W": "=2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
                      "N": "=2D 3D 4D 2H 3H QS 2S 3S 4S 5S 6S 7S 8S"},
                     history=NO_PASS_HISTORY)
    game.play("2C")
    assert legal(game) == "2D 3D 4D 2S 3S 4S 5S 6S 7S 8S"
    assert game.why_illegal("2H") == "No hearts on the first trick."
    assert game.why_illegal("QS") == "The Queen of spades can't be played on the first trick."


def test_first_trick_with_only_hearts_and_the_queen_any_of_them_is_legal() -> None:
    game = game_from({"S": "=QS 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH",
                      "W": "=2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC"},
                     history=NO_PASS_HISTORY)
    play_all(game, "2C")
    while game.to_play != 0:
        game.play(game.legal_plays()[0])
    assert len(game.legal_plays()) == 13
    assert game.why_illegal("QS") is None
    game.play("QS")  # allowed: nothing else in hand
    assert game.hand_points == (0, 13, 0, 0)  # West's clubs took the trick and the Q♠
    assert not game.hearts_broken  # the Q♠ does not break hearts


def test_hearts_cannot_be_led_before_they_are_broken_and_the_queen_does_not_break_them() -> None:
    game = game_from({
        "S": "=2C 3D 4D 5D 6D 7D 8D 9D 2H 3H 4H 5H 6H",
        "W": "=3C AC 2D TD JD QD KD AD 7H 8H 9H TH JH",
        "N": "=4C 5C 6C 7C 8C 9C TC JC QC KC QH KH AH",
    }, history=NO_PASS_HISTORY)  # East holds the 13 spades
    play_all(game, "2C AC 4C 2S")  # West wins the first trick
    play_all(game, "2D 5C QS 3D")  # East discards the Q♠; South's 3♦ wins
    assert game.hand_points == (13, 0, 0, 0)
    assert not game.hearts_broken
    assert game.to_play == 0
    assert game.why_illegal("2H") == "Hearts haven't been broken yet, so you can't lead one."
    assert "2H" not in legal(game)


def test_a_heart_discarded_in_one_trick_lets_hearts_be_led_from_the_next() -> None:
    game = game_from({
        "S": "=2C 3D 4D 5D 6D 7D 8D 9D 2H 3H 4H 5H 6H",
        "W": "=3C AC 2D TD JD QD KD AD 7H 8H 9H TH JH",
        "N": "=4C 5C 6C 7C 8C 9C TC JC QC KC QH KH AH",
    }, history=NO_PASS_HISTORY)
    play_all(game, "2C AC 4C 2S 2D 5C QS 3D")
    play_all(game, "4D TD")
    game.play("QH")  # North, void in diamonds, discards a heart: hearts are broken
    assert game.hearts_broken
    assert HeartsBroken(2, Card.parse("QH")) in game.events
    game.play("3S")
    assert game.to_play == 1  # West's 10♦ won
    assert game.why_illegal("7H") is None
    game.play("7H")


def test_a_leader_with_only_hearts_may_lead_one_before_they_are_broken() -> None:
    game = game_from(CLUBS_TO_WEST, history=NO_PASS_HISTORY)
    play_all(game, "2C 6C")
    game.play(game.legal_plays()[0])
    play_all(game, "AC")  # South wins the first trick and holds only hearts
    assert game.to_play == 0 and not game.hearts_broken
    assert legal(game) == "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH"
    game.play("KH")
    assert game.hearts_broken


def test_the_highest_card_of_the_led_suit_wins_not_the_highest_card() -> None:
    game = game_from({"S": "=AC 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
                      "W": CLUBS_TO_WEST["W"], "N": CLUBS_TO_WEST["N"]},
                     history=NO_PASS_HISTORY)  # East: 2♥, four clubs, eight spades
    play_all(game, "2C 6C TC AC")
    play_all(game, "3H 3C AD 2H")  # the A♦ is the highest card, but hearts were led
    assert game.tricks[-1].winner == 0
    assert game.hand_points == (2, 0, 0, 0)


def test_card_not_in_hand_and_not_your_turn_and_wrong_phase() -> None:
    game = Game.new(seed=3)
    assert game.why_illegal("2C") == "It's not time to play yet: first everyone passes three cards."
    with pytest.raises(IllegalMoveError):
        game.play("2C")
    game = game_from(CLUBS_TO_WEST, history=NO_PASS_HISTORY)
    assert game.why_illegal("AS") == "The Ace of spades is not in your hand."
    assert game.why_illegal("2C", seat=0) == "It's not your turn: West plays next."
    assert game.why_illegal("2C", seat=1) is None


def play_moon_deal(rules: Rules) -> Game:
    """South holds the top cards of every suit and takes all thirteen tricks."""
    game = game_from({"S": "=AC KC QC JC AD KD QD AH KH QH JH AS KS", "W": "2C"},
                     history=NO_PASS_HISTORY)
    game = Game.from_deal([game.hand(s) for s in range(4)], history=NO_PASS_HISTORY,
                          rules=rules)
    south = iter(["AC", "KC", "QC", "JC", "AD", "KD", "QD", "AS", "KS", "AH", "KH", "QH", "JH"])
    while game.hand_number == 4 and game.phase is Phase.PLAY:
        game.play(next(south) if game.to_play == 0 else game.legal_plays()[0])
    return game


def test_shooting_the_moon_scores_zero_for_the_shooter_and_26_for_the_others() -> None:
    game = play_moon_deal(Rules())
    assert game.hand_history[-1] == (0, 26, 26, 26)
    assert MoonShot(0) in game.events
    assert game.scores == (13, 52, 52, 39)  # after (13, 26, 26, 13) in three hands


def test_without_the_moon_rule_the_taker_scores_26() -> None:
    game = play_moon_deal(Rules(shoot_the_moon=False))
    assert game.hand_history[-1] == (26, 0, 0, 0)
    assert not any(isinstance(e, MoonShot) for e in game.events)


def test_with_queen_breaks_hearts_variant_the_queen_breaks_them() -> None:
    game = game_from({
        "S": "=2C 3D 4D 5D 6D 7D 8D 9D 2H 3H 4H 5H 6H",
        "W": "=3C AC 2D TD JD QD KD AD 7H 8H 9H TH JH",
        "N": "=4C 5C 6C 7C 8C 9C TC JC QC KC QH KH AH",
    }, history=NO_PASS_HISTORY)
    game = Game.from_deal([game.hand(s) for s in range(4)], history=NO_PASS_HISTORY,
                          rules=Rules(qs_breaks_hearts=True))
    play_all(game, "2C AC 4C 2S 2D 5C QS 3D")
    assert game.hearts_broken
    assert game.why_illegal("2H") is None
