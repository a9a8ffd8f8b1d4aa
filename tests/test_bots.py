"""The computer players (basic, easy, normal) and the hint, on scripted positions."""

from __future__ import annotations

import pytest

from hearts import Card, Game, Phase
from hearts.bots import LEVELS, Hint, hint, make
from hearts.bots.normal import decide_pass, decide_play
from hearts.view import PlayerView
from tests.scripted import NO_PASS_HISTORY, game_from, play_all
from tools.arena import play_hand

RULE_LEVELS = ("basic", "easy", "normal")


def C(text: str) -> Card:
    return Card.parse(text)


def view_to_play(game: Game) -> PlayerView:
    seat = game.to_play
    assert seat is not None
    return game.view(seat)


# --- scripted positions ------------------------------------------------------------------


def test_dumps_the_queen_of_spades_when_void_in_the_led_suit() -> None:
    game = game_from({
        "S": "2C 3D",
        "W": "=5C 7C 8C 9C QS 2S 3S 4S 2H 3H 4H 5H 6H",  # no diamonds
        "N": "AC KD",
        "E": "6C 2D",
    }, history=NO_PASS_HISTORY)
    play_all(game, "2C 5C AC 6C  KD 2D 3D")
    assert game.to_play == 1
    choice = decide_play(game.view(1))
    assert choice.card == C("QS")
    assert "Q♠" in choice.reason


def test_drops_the_queen_under_a_higher_spade() -> None:
    game = game_from({
        "S": "2C QS 5S 9S",
        "W": "3C",
        "N": "AC KS",
        "E": "4C 2S",
    }, history=NO_PASS_HISTORY)
    play_all(game, "2C 3C AC 4C  KS 2S")
    assert game.to_play == 0
    assert decide_play(game.view(0)).card == C("QS")


def test_ducks_under_the_winning_card_with_its_highest_ducker() -> None:
    game = game_from({
        "S": "AD 9D 3D 2S",
        "W": "2C",
        "N": "AC KD",
        "E": "3C 5D",
    }, history=NO_PASS_HISTORY)
    # West leads the 2♣, North wins with the A♣ and leads the K♦.
    play_all(game, "2C AC 3C 4C  KD 5D")
    assert game.to_play == 0
    choice = decide_play(game.view(0))
    assert choice.card == C("9D")
    assert choice.reason.startswith("Duck under the K♦")


def test_basic_ducks_with_its_lowest_ducker() -> None:
    game = game_from({
        "S": "AD 9D 3D 2S",
        "W": "2C",
        "N": "AC KD",
        "E": "3C 5D",
    }, history=NO_PASS_HISTORY)
    play_all(game, "2C AC 3C 4C  KD 5D")
    assert make("basic").choose_play(game.view(0)) == C("3D")


def test_wins_a_pointless_trick_when_playing_last() -> None:
    game = game_from({
        "S": "2C AD 9D 3D 2S",
        "W": "AC 7D",
        "N": "3C 8D",
        "E": "4C 6D",
    }, history=NO_PASS_HISTORY)
    play_all(game, "2C AC 3C 4C  7D 8D 6D")
    assert game.to_play == 0
    choice = decide_play(game.view(0))
    assert choice.card == C("AD")  # sheds the ace on a trick nobody put points on
    assert "no points" in choice.reason


MOON_DEAL = {
    "S": "=2C 5C 6C 7C 8C 2D 3D 4D 2S 4H 6H 8H KH",
    "W": "=3C 9C TC JC 5D 6D 7D 8D 9D TD 3S 7H 9H",
    "N": "=AC 4S 5S 6S 7S 8S 9S TS JS KS AS JH QH",
    "E": "=4C QC KC JD QD KD AD QS 2H 3H 5H TH AH",
}
# North wins every trick and collects the Q♠ and six hearts: 19 points, nobody else any.
MOON_SO_FAR = "2C 3C AC 4C  AS QS 2S 3S  KS AH 6H 7H  JS 2H 8H 9H"


def test_stops_a_moon_in_progress() -> None:
    game = game_from(MOON_DEAL, history=NO_PASS_HISTORY)
    play_all(game, MOON_SO_FAR)
    assert game.hand_points == (0, 0, 19, 0)
    play_all(game, "QH 3H")
    assert game.to_play == 0
    choice = decide_play(game.view(0))
    assert choice.card == C("KH")  # not the 4♥, which would let North keep running
    assert "moon" in choice.reason


def test_feeds_no_points_to_a_player_running_for_the_moon() -> None:
    game = game_from(MOON_DEAL, history=NO_PASS_HISTORY)
    play_all(game, MOON_SO_FAR)
    # North leads a spade: East and South have none, and North's card will win.
    play_all(game, "4S JD")
    choice = decide_play(game.view(0))
    assert choice.card.suit != 2  # no heart for North's collection
    assert "moon" in choice.reason


def test_without_a_moon_threat_it_throws_away_a_high_heart() -> None:
    game = game_from(MOON_DEAL, history=NO_PASS_HISTORY)
    play_all(game, "2C 3C AC 4C  AS QS 2S 3S")  # North has only the Q♠ so far
    play_all(game, "KS 5H")
    assert game.to_play == 0
    assert decide_play(game.view(0)).card == C("KH")


def test_passes_an_unguarded_queen_of_spades() -> None:
    game = game_from({"S": "QS 2S AH KD"})  # the rest of South's hand is clubs
    assert game.phase is Phase.PASS
    choice = decide_pass(game.view(0))
    assert C("QS") in choice.cards
    assert len(set(choice.cards)) == 3
    assert set(choice.cards) <= set(game.hand(0))


def test_keeps_a_well_guarded_queen_of_spades() -> None:
    game = game_from({"S": "=QS 2S 3S 5S 7S 2C 3C 4C 5C 6C 7C 8C 9C"})
    assert C("QS") not in decide_pass(game.view(0)).cards


def test_passes_high_spades_when_spades_are_short() -> None:
    game = game_from({"S": "=AS KS 2C 3C 4C 5C 6C 7C 8C 2D 3D 4D 5D"})
    assert {C("AS"), C("KS")} <= set(decide_pass(game.view(0)).cards)


def test_goes_void_in_a_short_suit() -> None:
    game = game_from({"S": "=9D 4D 2C 3C 4C 5C 6C 2S 3S 4S 5S 2H 3H"})
    cards = set(decide_pass(game.view(0)).cards)
    assert {C("9D"), C("4D")} <= cards


# --- every level -------------------------------------------------------------------------


@pytest.mark.parametrize("level", RULE_LEVELS)
def test_never_plays_an_illegal_card(level: str) -> None:
    # play_hand plays through the checked Game.play: an illegal card raises.
    for seed in range(40):
        game = Game.new(seed=seed)
        bots = [make(level, seed * 4 + s) for s in range(4)]
        if seed % 2:
            bots[seed % 4] = make("normal", seed)
        for _ in range(1 + seed % 3):
            scores = play_hand(game, bots)
            assert sum(scores) in (26, 78)
            if game.phase is Phase.GAME_OVER:
                break


@pytest.mark.parametrize("level", RULE_LEVELS)
def test_bots_are_deterministic_per_seed(level: str) -> None:
    texts = []
    for _ in range(2):
        game = Game.new(seed=11)
        bots = [make(level, 100 + s) for s in range(4)]
        play_hand(game, bots)
        play_hand(game, bots)
        texts.append(game.to_text())
    assert texts[0] == texts[1]


@pytest.mark.parametrize("level", RULE_LEVELS)
def test_a_decision_depends_only_on_seed_and_view(level: str) -> None:
    game = Game.new(seed=4)
    views = [game.view(s) for s in range(4)]
    first = [make(level, 9).choose_pass(v) for v in views]
    # A bot that has already made other decisions still answers the same.
    busy = make(level, 9)
    for v in reversed(views):
        busy.choose_pass(v)
    assert [busy.choose_pass(v) for v in views] == first


def test_easy_makes_different_choices_with_different_seeds() -> None:
    seen = set()
    for seed in range(20):
        game = Game.new(seed=3)
        bots = [make("easy", seed * 4 + s) for s in range(4)]
        play_hand(game, bots)
        seen.add(game.hand_history[0])
    assert len(seen) > 1


def test_make_knows_the_levels() -> None:
    assert LEVELS[:3] == ("easy", "normal", "hard")
    game = Game.new(seed=9)
    for level in ("easy", "normal", "basic"):
        bot, twin = make(level, 1), make(level, 1)
        view = game.view(1)
        passed = bot.choose_pass(view)
        assert len(set(passed)) == 3 and set(passed) <= set(view.hand)
        assert twin.choose_pass(view) == passed  # the same seed and view, the same choice
    for seat in range(4):
        game.choose_pass(seat, make("easy", seat).choose_pass(game.view(seat)))
    player = game.to_play
    assert player is not None
    for level in ("easy", "normal", "basic"):
        assert make(level, 1).choose_play(game.view(player)) in game.legal_plays()
    with pytest.raises(ValueError, match="unknown level"):
        make("expert", 1)


# --- the hint ----------------------------------------------------------------------------


def _is_sentence(text: str) -> bool:
    return bool(text) and text[0].isupper() and text.endswith(".") and "\n" not in text


def test_hint_returns_legal_cards_and_a_reason() -> None:
    for seed in range(3):  # (a hard search a play: see tests/test_hint.py for the voice)
        game = Game.new(seed=seed)
        if game.phase is Phase.PASS:
            advice = hint(game.view(0))
            assert isinstance(advice, Hint)
            assert len(advice.cards) == 3 and len(set(advice.cards)) == 3
            assert set(advice.cards) <= set(game.hand(0))
            assert _is_sentence(advice.reason), advice.reason
        bots = [make("normal", s) for s in range(4)]
        if game.phase is Phase.PASS:
            for s in range(4):
                game.choose_pass(s, bots[s].choose_pass(game.view(s)))
        while game.hand_number == 1:
            view = view_to_play(game)
            advice = hint(view)
            assert len(advice.cards) == 1
            assert advice.cards[0] in view.legal_plays
            if advice.reason:  # the normal player's own sentence: it plays the same
                assert _is_sentence(advice.reason), advice.reason
                assert advice.cards[0] == bots[view.seat].choose_play(view)
            else:  # the hard player's figures against the next best card
                assert advice.other in view.legal_plays and advice.other != advice.cards[0]
                assert advice.expected is not None and advice.other_expected is not None
                assert advice.expected < advice.other_expected
            game.play(advice.cards[0])


def test_hint_refuses_when_there_is_nothing_to_advise() -> None:
    game = Game.new(seed=2)
    for s in range(4):
        game.choose_pass(s, game.hand(s)[:3])
    not_to_play = (game.to_play or 0) + 1
    with pytest.raises(ValueError):
        hint(game.view(not_to_play % 4))
