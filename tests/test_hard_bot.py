"""The hard computer player: honest (sees only its view), legal, deterministic, robust."""

from __future__ import annotations

import random

import pytest

from hearts import Card, Game, PlayerView
from hearts.bots.hard import HardBot, choose_pass_heuristic
from hearts.bots.playout import choose, playout, rules_flags
from hearts.cards import parse_cards
from hearts.game import deal
from hearts.rules import Rules
from tests.positions import play_card_by_card, random_positions, twin_games, view_to_play

FAST = 120  # playouts per decision in most tests: quick, still a real search


def fast_bot(seed: int = 1) -> HardBot:
    return HardBot(seed, budget_ms=None, iterations=FAST)


# --- the playout engine agrees with the rules engine -------------------------------------


def test_playout_matches_the_hand_state_step_by_step() -> None:
    rules = Rules()
    flags = rules_flags(rules)
    for seed in range(60):
        hands = deal(seed, 1)
        state = play_card_by_card(hands, rules, lambda turn: choose(
            turn.state.hands[turn.state.to_play], len(turn.state.trick), turn.led, turn.top,
            turn.state.tricks_done == 0, turn.state.broken, turn.qs_out, flags, turn.played))
        fast = playout(hands[:], [], hands.index(next(h for h in hands if h & 1)), False, 0,
                       [0, 0, 0, 0], flags)
        assert fast == state.points
        assert sum(fast) == 26


def test_playout_from_mid_trick_positions_is_legal_and_complete() -> None:
    flags = rules_flags(Rules())
    for game in random_positions(3, 60):
        state = game._state
        trick = state.trick[:]
        points = playout(state.hands[:], trick, state.leader, state.broken, state.tricks_done,
                         state.points[:], flags)
        assert sum(points) == 26


# --- honesty ------------------------------------------------------------------------------


@pytest.mark.parametrize(("seed", "plays"), [(1, 0), (2, 3), (3, 9), (4, 17), (5, 26), (6, 30)])
def test_choice_is_the_same_however_the_hidden_cards_lie(seed: int, plays: int) -> None:
    game, twin = twin_games(seed, plays)
    me = game.to_play
    assert me is not None and twin.to_play == me
    assert any(game.hand(s) != twin.hand(s) for s in range(4)), "hidden hands must differ"
    view, twin_view = game.view(me), twin.view(me)
    assert view == twin_view
    bot = HardBot(seed, budget_ms=None, iterations=300)
    assert bot.choose_play(view) == HardBot(seed, budget_ms=None, iterations=300).choose_play(
        twin_view)
    assert bot.play_values(view) == bot.play_values(twin_view)


# --- legality, determinism, corner cases --------------------------------------------------


def test_plays_are_legal_in_random_positions() -> None:
    bot = fast_bot()
    for game in random_positions(7, 80):
        view = view_to_play(game)
        assert bot.choose_play(view) in view.legal_plays


def test_same_seed_and_view_give_the_same_card() -> None:
    for game in random_positions(8, 15):
        view = view_to_play(game)
        assert fast_bot(5).choose_play(view) == fast_bot(5).choose_play(view)


def test_a_bot_has_no_memory_between_decisions() -> None:
    games = random_positions(9, 6)
    bot = fast_bot(3)
    first = [bot.choose_play(view_to_play(g)) for g in games]
    again = [bot.choose_play(view_to_play(g)) for g in reversed(games)]
    assert first == list(reversed(again))


def test_one_legal_card_is_returned_without_searching(monkeypatch: pytest.MonkeyPatch) -> None:
    import hearts.bots.hard as hard

    def no_search(view: PlayerView) -> None:
        raise AssertionError("searched with a single legal card")

    monkeypatch.setattr(hard, "DealSampler", no_search)
    game = Game.new(2)
    for seat in range(4):
        game.choose_pass(seat, game.hand(seat)[:3])
    view = view_to_play(game)  # the first lead: the 2♣ only
    assert view.legal_plays == (Card.parse("2C"),)
    assert HardBot(0, budget_ms=None, iterations=10**9).choose_play(view) == Card.parse("2C")


def test_first_trick_and_last_trick() -> None:
    bot = fast_bot()
    rng = random.Random(4)
    game = Game.new(12)
    for seat in range(4):
        game.choose_pass(seat, game.hand(seat)[-3:])
    game.play(Card.parse("2C"))
    for _ in range(3):  # the rest of the first trick, by the hard bot
        view = view_to_play(game)
        card = bot.choose_play(view)
        assert card in view.legal_plays
        game.play(card)
    while len(game.tricks) < 12:
        game.play(rng.choice(game.legal_plays()))
    for _ in range(4):  # the last trick: one card each
        view = view_to_play(game)
        assert len(view.legal_plays) == 1
        assert bot.choose_play(view) == view.legal_plays[0]
        game.play(view.legal_plays[0])


def test_equivalent_cards_are_not_searched_twice() -> None:
    # South holds 3D 4D 5D with 2D played: one of them is as good as another.
    game = Game.from_deal([parse_cards("2C 3D 4D 5D 6H 7H 8H 9H TH JH QH KH AH"),
                           parse_cards("AC 2D 6D 7D 8D 9D TD JD QD KD AD 2H 3H"),
                           parse_cards("4C 4H 5H 2S 3S 4S 5S 6S 7S 8S 9S TS JS"),
                           parse_cards("3C 5C 6C 7C 8C 9C TC JC QC KC QS KS AS")],
                          history=[(0, 0, 13, 13)] * 3)
    for card in ("2C", "AC", "4C", "3C", "2D", "2S", "5C"):
        game.play(card)
    view = game.view(0)
    assert view.legal_plays == tuple(parse_cards("3D 4D 5D"))
    values = fast_bot().play_values(view)
    assert len({value for _, value in values}) == 1


def test_cooperative_steps_give_the_same_card() -> None:
    for game in random_positions(10, 5):
        view = view_to_play(game)
        bot = HardBot(2, budget_ms=None, iterations=400, chunk_ms=0.0)
        steps = bot.choose_play_steps(view)
        yields = 0
        while True:
            try:
                next(steps)
                yields += 1
            except StopIteration as done:
                card = done.value
                break
        assert card == bot.choose_play(view)
        if len(view.legal_plays) > 1:
            assert yields > 0


def test_time_budget_alone_still_returns_a_legal_card() -> None:
    bot = HardBot(1, budget_ms=20.0, iterations=None)
    for game in random_positions(11, 5):
        view = view_to_play(game)
        assert bot.choose_play(view) in view.legal_plays


def test_passes_are_three_cards_of_the_hand() -> None:
    bot = fast_bot()
    for seed in range(40):
        game = Game.new(seed)
        for seat in range(4):
            chosen = bot.choose_pass(game.view(seat))
            assert len(set(chosen)) == 3
            assert set(chosen) <= set(game.hand(seat))


def test_pass_gets_rid_of_an_unguarded_queen_of_spades() -> None:
    hand = parse_cards("2C 3C 9C 4D 8D JD 2H 5H 9H QS AS 3S KD")
    chosen = choose_pass_heuristic(hand)
    assert Card.parse("QS") in chosen and Card.parse("AS") in chosen


def test_bad_settings_are_refused() -> None:
    with pytest.raises(ValueError):
        HardBot(1, budget_ms=None, iterations=None)
    with pytest.raises(ValueError):
        HardBot(1, iterations=0)
    with pytest.raises(ValueError):
        HardBot(1, budget_ms=-5.0)


@pytest.mark.slow
def test_hard_takes_fewer_points_than_normal() -> None:
    """A short arena run (the full measure is ``python tools/arena.py``, see docs/players.md)."""
    from tools.arena import mean_ci, play_deal

    results = [play_deal("hard", "normal", 1, number) for number in range(1, 81)]
    mean, low, high = mean_ci([r.difference for r in results])
    assert high < 0, f"hard vs normal: {mean:+.2f} points per hand [{low:+.2f}, {high:+.2f}]"


def test_the_pass_is_searched_among_the_most_dangerous_cards() -> None:
    from hearts.bots.hard import PASS_SHORTLIST, _pass_scores

    game = Game.new(12)
    view = game.view(1)
    searching = HardBot(4, budget_ms=None, iterations=FAST, pass_search=True)
    values = searching.pass_values(view)
    assert len(values) == 20  # every three of the six most dangerous cards
    scores = _pass_scores(list(view.hand), False)
    shortlist = set(sorted(view.hand, key=lambda c: (-scores[c], -c.index))[:PASS_SHORTLIST])
    assert all(set(trio) <= shortlist for trio, _ in values)
    chosen = searching.choose_pass(view)
    assert chosen == min(values, key=lambda item: item[1])[0]
    again = HardBot(4, budget_ms=None, iterations=FAST, pass_search=True).choose_pass(view)
    assert chosen == again  # same seed and view, same pass
    assert HardBot(4).choose_pass(view) == choose_pass_heuristic(view.hand)  # the default


def test_the_pass_keeps_the_jack_of_diamonds_when_it_counts() -> None:
    rules = Rules(jd_bonus=True)
    jd = Card.parse("JD")
    for seed in range(30):
        game = Game.new(seed, rules)
        for seat in range(4):
            if jd in game.hand(seat):
                bot = HardBot(seed, budget_ms=None, iterations=FAST, pass_search=True)
                assert jd not in bot.choose_pass(game.view(seat))


def test_the_pass_search_yields_in_slices_and_gives_the_same_cards() -> None:
    view = Game.new(21).view(2)
    bot = HardBot(3, budget_ms=None, iterations=FAST, chunk_ms=0.0, pass_iterations=400,
                  pass_search=True)
    steps = bot.choose_pass_steps(view)
    slices = 0
    while True:
        try:
            next(steps)
            slices += 1
        except StopIteration as stop:
            chosen = stop.value
            break
    assert slices > 1
    assert chosen == HardBot(3, budget_ms=None, iterations=FAST, pass_iterations=400,
                             pass_search=True).choose_pass(view)
