"""The house rules of docs/rules.md (the fields of ``Rules`` beyond the defaults), each
shown on a scripted deal or a played game, and the computers playing under all of them."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest

from hearts import Card, Game, IllegalMoveError, Phase, Rules, UndoError
from hearts.bots import make
from hearts.bots.hard import HardBot
from hearts.bots.moon import better_moon_scoring
from hearts.events import HandScored, MoonShot
from hearts.rules import (
    MoonScoring,
    PassCycle,
    PassDirection,
    hand_scores,
    possible_hand_scores,
)
from tests.scripted import game_from, play_all

JD_RULES = Rules(jd_bonus=True)
CHOOSES = Rules(moon_scoring=MoonScoring.SHOOTER_CHOOSES)
MINUS = MoonScoring.SHOOTER_MINUS_26
PLUS = MoonScoring.OTHERS_PLUS_26

# Three finished hands (so the next is the 4th, without passing), possible under any rules
# here: with the J♦ counting, South took it each time.
PLAIN_HISTORY = [(13, 13, 0, 0), (0, 13, 13, 0), (0, 0, 13, 13)]
JD_HISTORY = [(3, 13, 0, 0), (-10, 13, 13, 0), (-10, 0, 13, 13)]


def moon_game(rules: Rules, history: list[tuple[int, int, int, int]] | None = None) -> Game:
    """The 4th hand, where South holds the top cards of every suit and takes every trick."""
    if history is None:
        history = JD_HISTORY if rules.jd_bonus else PLAIN_HISTORY
    dealt = game_from({"S": "=AC KC QC JC AD KD QD AH KH QH JH AS KS", "W": "2C"},
                      history=PLAIN_HISTORY)
    game = Game.from_deal([dealt.hand(s) for s in range(4)], history=history, rules=rules)
    south = iter(["AC", "KC", "QC", "JC", "AD", "KD", "QD", "AS", "KS", "AH", "KH", "QH", "JH"])
    while game.hand_number == 4 and game.phase is Phase.PLAY:
        game.play(next(south) if game.to_play == 0 else game.legal_plays()[0])
    return game


def east_last_to_the_jack(rules: Rules) -> Game:
    """The first trick of the 4th hand: South leads the 2♣, West (void) drops the J♦,
    North plays the 5♣; East, last, holds the A♣ (takes the trick) and the 3♣ (ducks)."""
    hands = {"W": "=JD 9D TD QD KD AD 2H 3H 4H 5H 6H 7H 8H",
             "N": "=5C 7C 9C JC KC 2S 3S 4S 5S 6S 7S 8S 9S",
             "E": "=AC 3C 2D 3D 4D 5D 6D 7D 8D TS JS KS AS"}
    base = game_from(hands, history=PLAIN_HISTORY)
    history = JD_HISTORY if rules.jd_bonus else PLAIN_HISTORY
    game = Game.from_deal([base.hand(s) for s in range(4)], history=history, rules=rules)
    play_all(game, "2C JD 5C")
    assert game.to_play == 3
    return game


def play_out(game: Game, rng: random.Random) -> Game:
    """Random legal moves (the shooter's choice included) to the end of the game."""
    while game.phase is not Phase.GAME_OVER:
        if game.phase is Phase.PASS:
            for seat in range(4):
                game.choose_pass(seat, rng.sample(game.hand(seat), 3))
        elif game.phase is Phase.MOON:
            assert game.moon_chooser is not None
            game.choose_moon(game.moon_chooser, rng.choice((PLUS, MINUS)))
        else:
            game.play(rng.choice(game.legal_plays()))
    return game


def random_rules(rng: random.Random) -> Rules:
    return Rules(end_score=rng.choice((50, 100, 150)), qs_breaks_hearts=rng.random() < 0.5,
                 no_points_on_first_trick=rng.random() < 0.5,
                 must_break_hearts=rng.random() < 0.5, shoot_the_moon=rng.random() < 0.8,
                 jd_bonus=rng.random() < 0.5, moon_scoring=rng.choice(list(MoonScoring)),
                 pass_cycle=rng.choice(list(PassCycle)))


# --- the J♦ -----------------------------------------------------------------------------


def test_the_jack_of_diamonds_takes_ten_off_its_takers_hand_score() -> None:
    game = east_last_to_the_jack(JD_RULES)
    game.play("AC")  # East wins the trick holding the J♦
    assert game.tricks[0].winner == 3
    rng = random.Random(1)
    while game.hand_number == 4:
        game.play(rng.choice(game.legal_plays()))
    last = [e for e in game.events if isinstance(e, HandScored)][-1]
    assert sum(last.points_taken) == 26  # the penalty points are still 26
    if last.moon_shooter is None:
        a, b, c, d = last.points_taken
        assert last.scores == (a, b, c, d - 10)


def test_without_the_jack_rule_the_jack_of_diamonds_counts_nothing() -> None:
    assert hand_scores([3, 13, 0, 10], Rules(), jd_taker=1)[0] == (3, 13, 0, 10)
    assert hand_scores([3, 13, 0, 10], JD_RULES, jd_taker=1)[0] == (3, 3, 0, 10)
    with pytest.raises(ValueError, match="J♦ is needed"):
        hand_scores([3, 13, 0, 10], JD_RULES)


def test_the_jack_of_diamonds_is_no_part_of_the_moon() -> None:
    """The shooter takes every heart and the Q♠; the J♦ then comes off its taker."""
    game = moon_game(JD_RULES)
    assert game.hand_history[-1] == (-10, 26, 26, 26)  # South took the J♦ too
    assert hand_scores([26, 0, 0, 0], JD_RULES, jd_taker=2)[0] == (0, 26, 16, 26)


# --- the moon ----------------------------------------------------------------------------


def test_with_shooter_minus_26_the_shooter_loses_26_and_the_others_score_nothing() -> None:
    game = moon_game(Rules(moon_scoring=MINUS))
    assert game.hand_history[-1] == (-26, 0, 0, 0)
    assert MoonShot(0) in game.events
    assert game.scores == (-13, 26, 26, 13)  # after (13, 26, 26, 13) in three hands


def test_shooter_minus_26_and_the_jack_add_up() -> None:
    assert moon_game(Rules(moon_scoring=MINUS, jd_bonus=True)).hand_history[-1] == \
        (-36, 0, 0, 0)


def test_when_the_shooter_chooses_the_hand_waits_for_the_choice() -> None:
    game = moon_game(CHOOSES)
    assert game.phase is Phase.MOON and game.moon_chooser == 0
    assert game.to_play is None and game.legal_plays() == []
    assert game.hand_history == PLAIN_HISTORY  # not scored yet
    assert game.view(1).moon_chooser == 0
    assert game.why_illegal("2C") == ("The hand is over: the moon's shooter is choosing "
                                      "how it scores.")
    with pytest.raises(IllegalMoveError, match="Only South, who shot the moon"):
        game.choose_moon(1, MINUS)
    with pytest.raises(IllegalMoveError, match="Choose either 26 for each other player"):
        game.choose_moon(0, "shooter_chooses")
    with pytest.raises(UndoError, match="the hand is over"):
        game.pop()
    game.choose_moon(0, MINUS)
    assert game.hand_history[-1] == (-26, 0, 0, 0)
    assert game.phase is Phase.PASS and game.hand_number == 5
    with pytest.raises(IllegalMoveError, match="There is no moon to score now"):
        game.choose_moon(0, PLUS)


def test_the_shooter_may_choose_26_for_each_other_player() -> None:
    game = moon_game(CHOOSES)
    game.choose_moon(0, "others_plus_26")
    assert game.hand_history[-1] == (0, 26, 26, 26)


def test_without_the_moon_rule_there_is_no_choice_to_make() -> None:
    game = moon_game(Rules(shoot_the_moon=False, moon_scoring=MoonScoring.SHOOTER_CHOOSES))
    assert game.phase is Phase.PASS
    assert game.hand_history[-1] == (26, 0, 0, 0)


def test_a_game_saved_while_the_choice_is_pending_loads_back_to_the_same_point() -> None:
    game = moon_game(CHOOSES)
    for loaded in (Game.from_json(game.to_json()), Game.from_text(game.to_text(), CHOOSES)):
        assert loaded.phase is Phase.MOON and loaded.moon_chooser == 0
        assert loaded.to_json() == game.to_json()
        loaded.choose_moon(0, MINUS)
        assert loaded.hand_history[-1] == (-26, 0, 0, 0)


def test_a_game_ended_by_a_chosen_moon_saves_the_choice() -> None:
    rules = Rules(end_score=50, moon_scoring=MoonScoring.SHOOTER_CHOOSES)
    game = moon_game(rules)
    game.choose_moon(0, PLUS)  # 13, 52, 52, 39: past 50, South lowest: South wins
    assert game.phase is Phase.GAME_OVER and game.winner == 0
    assert json.loads(game.to_json())["moon"] == "others_plus_26"
    for loaded in (Game.from_json(game.to_json()), Game.from_text(game.to_text(), rules)):
        assert loaded.phase is Phase.GAME_OVER and loaded.scores == game.scores
        assert loaded.to_json() == game.to_json()


# --- the computer's choice ---------------------------------------------------------------


def test_a_computer_shooter_takes_the_choice_that_wins_the_game() -> None:
    game = moon_game(Rules(end_score=50, moon_scoring=MoonScoring.SHOOTER_CHOOSES))
    assert better_moon_scoring(game.view(0)) is PLUS  # 13, 52, 52, 39: South wins


def test_a_computer_shooter_never_ends_the_game_losing_it() -> None:
    game = moon_game(Rules(end_score=50, moon_scoring=MoonScoring.SHOOTER_CHOOSES),
                     history=[(13, 0, 0, 13), (13, 0, 13, 0), (13, 0, 0, 13)])
    assert game.scores == (39, 0, 13, 26)
    # +26 would end it at 39, 26, 39, 52 with West the winner; −26 plays on.
    assert better_moon_scoring(game.view(0)) is MINUS


def test_a_computer_shooter_behind_keeps_the_game_going() -> None:
    game = moon_game(CHOOSES, history=[(13, 13, 0, 0), (13, 0, 13, 0), (13, 0, 0, 13)])
    assert game.scores == (39, 13, 13, 13)  # not ahead: take 26 off its own score
    assert better_moon_scoring(game.view(0)) is MINUS


def test_a_computer_shooter_ahead_gives_the_others_26() -> None:
    game = moon_game(CHOOSES, history=[(0, 13, 13, 0), (0, 0, 13, 13), (0, 13, 0, 13)])
    assert game.scores == (0, 26, 26, 26)  # ahead: bring the end nearer
    assert better_moon_scoring(game.view(0)) is PLUS


def test_only_the_shooter_has_a_moon_choice() -> None:
    with pytest.raises(ValueError, match="no moon to score"):
        better_moon_scoring(moon_game(CHOOSES).view(1))


# --- the pass cycle ----------------------------------------------------------------------


def test_the_default_cycle_has_a_hand_without_passing() -> None:
    assert [Rules().pass_direction(n) for n in range(1, 6)] == [
        PassDirection.LEFT, PassDirection.RIGHT, PassDirection.ACROSS, PassDirection.NONE,
        PassDirection.LEFT]


def test_without_the_hold_hand_every_hand_passes() -> None:
    rules = Rules(pass_cycle=PassCycle.NO_HOLD)
    assert [rules.pass_direction(n) for n in range(1, 6)] == [
        PassDirection.LEFT, PassDirection.RIGHT, PassDirection.ACROSS, PassDirection.LEFT,
        PassDirection.RIGHT]
    game = Game.from_deal([g.hand(s) for g in [Game.new(seed=3)] for s in range(4)],
                          history=PLAIN_HISTORY, rules=rules)
    assert game.hand_number == 4 and game.phase is Phase.PASS
    assert game.pass_direction is PassDirection.LEFT


# --- checking ------------------------------------------------------------------------------


def test_bad_rule_values_are_refused_with_the_choices() -> None:
    with pytest.raises(ValueError, match="moon_scoring must be one of others_plus_26"):
        Rules(moon_scoring="everyone_wins")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="pass_cycle must be one of"):
        Rules(pass_cycle=3)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="jd_bonus must be true or false"):
        Rules(jd_bonus="yes")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="end_score"):
        Rules(end_score=True)


def test_the_scores_a_hand_can_have_depend_on_the_rules() -> None:
    assert possible_hand_scores((3, 13, 0, 10), Rules())
    assert not possible_hand_scores((3, 13, 0, 10), JD_RULES)  # someone took the J♦
    assert possible_hand_scores((3, 3, 0, 10), JD_RULES)
    assert possible_hand_scores((-26, 0, 0, 0), Rules(moon_scoring=MINUS))
    assert not possible_hand_scores((-26, 0, 0, 0), Rules())
    assert possible_hand_scores((0, 26, 26, 26), CHOOSES)
    assert possible_hand_scores((-26, 0, 0, 0), CHOOSES)
    assert possible_hand_scores((-36, 0, 0, 0), Rules(moon_scoring=MINUS, jd_bonus=True))
    with pytest.raises(ValueError, match="impossible scores"):
        Game.from_deal([Game.new(seed=1).hand(s) for s in range(4)],
                       history=[(13, 13, 0, 0)], rules=JD_RULES)


def test_random_games_under_random_rules_keep_every_invariant() -> None:
    rng = random.Random(17)
    for number in range(40):
        rules = random_rules(rng)
        game = play_out(Game.new(seed=number, rules=rules), rng)
        scored = [e for e in game.events if isinstance(e, HandScored)]
        assert len(scored) == len(game.hand_history)
        for event in scored:
            assert sum(event.points_taken) == 26
            assert possible_hand_scores(event.scores, rules)
        assert max(game.scores) >= rules.end_score
        assert sorted(game.scores).count(min(game.scores)) == 1
        assert Game.from_json(game.to_json()).to_json() == game.to_json()


# --- the computers under every combination -----------------------------------------------


def computers_game(rules: Rules, levels: list[str], seed: int) -> Game:
    bots = [HardBot(seed + s, iterations=40) if level == "hard" else make(level, seed + s)
            for s, level in enumerate(levels)]
    game = Game.new(seed=seed, rules=rules)
    while game.phase is not Phase.GAME_OVER:
        if game.phase is Phase.PASS:
            for seat in range(4):
                game.choose_pass(seat, bots[seat].choose_pass(game.view(seat)))
        elif game.phase is Phase.MOON:
            player = game.moon_chooser
            assert player is not None
            seat = player
            game.choose_moon(seat, bots[seat].choose_moon(game.view(seat)))
        else:
            player = game.to_play
            assert player is not None
            seat = player
            game.play(bots[seat].choose_play(game.view(seat)))  # illegal would raise
    return game


def assert_won(game: Game, rules: Rules) -> None:
    """The game ended as its rules say: someone reached the end score, the winner alone has
    the lowest total, and the totals are the sums of the hands' scores."""
    assert game.phase is Phase.GAME_OVER and game.rules == rules
    totals = game.scores
    assert max(totals) >= rules.end_score
    assert game.winner is not None and [s for s in range(4) if totals[s] == min(totals)] == [
        game.winner]
    assert tuple(sum(hand[s] for hand in game.hand_history) for s in range(4)) == tuple(totals)


@pytest.mark.parametrize("level", ["easy", "normal", "basic"])
def test_each_level_finishes_games_under_random_rules(level: str) -> None:
    rng = random.Random(level)
    for number in range(8):
        rules = random_rules(rng)
        game = computers_game(rules, [level] * 4, number)
        assert_won(game, rules)


def test_the_hard_player_finishes_games_under_random_rules() -> None:
    rng = random.Random(5)
    for number in range(2):
        rules = random_rules(rng)
        game = computers_game(replace(rules, end_score=50), ["hard", "normal", "hard", "easy"],
                              number)
        assert_won(game, replace(rules, end_score=50))


def test_the_hint_advises_legal_cards_under_random_rules() -> None:
    from hearts.bots import hint

    rng = random.Random(9)
    for number in range(10):
        game = Game.new(seed=number, rules=random_rules(rng))
        while game.phase is not Phase.GAME_OVER and game.hand_number < 3:
            if game.phase is Phase.PASS:
                advice = hint(game.view(0))
                game.choose_pass(0, advice.cards)
                for seat in (1, 2, 3):
                    game.choose_pass(seat, game.hand(seat)[:3])
            elif game.phase is Phase.MOON:
                assert game.moon_chooser is not None
                game.choose_moon(game.moon_chooser, PLUS)
            else:
                player = game.to_play
                assert player is not None
                seat = player
                card = hint(game.view(seat)).cards[0]
                assert game.why_illegal(card) is None
                game.play(card)


def test_the_hard_player_values_taking_the_jack_of_diamonds_at_ten_points() -> None:
    """Taking the J♦ gains about 10 on ducking when it counts −10 (the deals sampled
    differ a little: the earlier hands' scores differ), and East then takes it."""
    bot = HardBot(1, iterations=900, budget_ms=None)
    plain = dict(bot.play_values(east_last_to_the_jack(Rules()).view(3)))
    game = east_last_to_the_jack(JD_RULES)
    bonus = dict(bot.play_values(game.view(3)))
    ace, three = Card.parse("AC"), Card.parse("3C")
    gain = (plain[ace] - plain[three]) - (bonus[ace] - bonus[three])
    assert gain == pytest.approx(10.0, abs=1.5)
    assert bonus[ace] < bonus[three]
    assert bot.choose_play(game.view(3)) == ace


def north_last_to_the_jack(rules: Rules) -> Game:
    """Trick 2 of the 4th hand: East leads the 5♦, South follows with the J♦, West (void)
    drops the 2♥; North, last, holds the Q♦ (takes the J♦ and a point) and the 3♦."""
    hands = {"W": "=3C 2H 3H 4H 5H 6H 2S 3S 4S 5S 6S 7S 8S",
             "S": "2C JD", "N": "4C QD 3D", "E": "AC 5D"}
    base = game_from(hands, history=PLAIN_HISTORY)
    history = JD_HISTORY if rules.jd_bonus else PLAIN_HISTORY
    game = Game.from_deal([base.hand(s) for s in range(4)], history=history, rules=rules)
    play_all(game, "2C 3C 4C AC 5D JD 2H")
    assert game.to_play == 2
    return game


def test_the_normal_player_and_the_hint_take_the_jack_when_it_is_worth_ten() -> None:
    from hearts.bots import hint

    jack = Card.parse("JD")
    plain = make("normal", 1).choose_play(north_last_to_the_jack(Rules()).view(2))
    assert plain.suit == jack.suit and plain.rank < jack.rank  # a point on it: duck
    advice = hint(north_last_to_the_jack(JD_RULES).view(2))
    assert advice.cards[0].rank > jack.rank
    assert "J♦" in advice.reason


def test_the_normal_player_never_throws_the_jack_away() -> None:
    rng = random.Random(4)
    thrown = 0
    for number in range(30):
        game = Game.new(seed=number, rules=JD_RULES)
        bots = [make("normal", s) for s in range(4)]
        while game.hand_number == 1:  # (under these rules a hand never waits in Phase.MOON)
            if game.phase is Phase.PASS:
                for seat in range(4):
                    game.choose_pass(seat, rng.sample(game.hand(seat), 3))
                continue
            player = game.to_play
            assert player is not None
            seat = player
            card = bots[seat].choose_play(game.view(seat))
            trick = game.current_trick
            if card.notation == "JD" and trick is not None and trick.cards[0].suit != 1:
                thrown += 1 if len(game.legal_plays()) > 1 else 0
            game.play(card)
    assert thrown == 0


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_the_computers_never_pass_the_jack_when_it_is_worth_ten(level: str) -> None:
    passed = {False: 0, True: 0}
    for rules in (Rules(), JD_RULES):
        for number in range(150):
            view = Game.new(seed=number, rules=rules).view(number % 4)
            if Card.parse("JD") in view.hand:
                passed[rules.jd_bonus] += Card.parse("JD") in make(level, 1).choose_pass(view)
    assert passed[True] == 0
    assert passed[False] > 0  # under the standard rules it is just a high diamond
