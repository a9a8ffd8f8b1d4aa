"""The hard player's optional search settings (issue 29 screens): the playout policy's
extra rules and successive halving. Each keeps the player honest, legal, deterministic."""

from __future__ import annotations

import pytest

import hearts.bots.hard as hard
from hearts.bots.hard import HardBot
from hearts.bots.playout import (
    FLUSH,
    MOON,
    MOON_RUN,
    POLICY_OPTIONS,
    UNDER_Q,
    VOID_LEAD,
    WIN_LAST,
    choose,
    choose_moon,
    moon_role,
    playout,
    rules_flags,
    runner_of,
    voids_of,
)
from hearts.cards import SUIT_MASKS, Card, mask_of, parse_cards
from hearts.game import deal
from hearts.rules import Rules
from tests.positions import (
    PlayoutTurn,
    play_card_by_card,
    random_positions,
    twin_games,
    view_to_play,
)
from tools.baselines.hard_today.hard import HardBot as TodayBot


def _mask(text: str) -> int:
    return mask_of(parse_cards(text))


def _index(text: str) -> int:
    return Card.parse(text).index


# --- the policy's extra rules ---------------------------------------------------------------


def test_win_last_takes_a_clean_trick_with_the_highest_card() -> None:
    hand = _mask("3D 9D KD 4C")
    played = _mask("2C 5C 6C 7C")
    args = (hand, 3, 1, _index("TD"), False, True, True, 0, played)
    assert choose(*args) == _index("9D")  # default: the highest card that ducks
    assert choose(*args[:-2], WIN_LAST, played, 0) == _index("KD")
    assert choose(*args[:-2], WIN_LAST, played, 1) == _index("9D")  # a point on it: duck


def test_win_last_keeps_the_queen_and_ignores_hearts() -> None:
    spades = _mask("4S QS AS 2D")
    assert choose(spades, 3, 3, _index("8S"), False, True, True, WIN_LAST, 0, 0) == \
        _index("AS")
    hearts = _mask("4H 9H KH 2D")
    assert choose(hearts, 3, 2, _index("TH"), False, True, True, WIN_LAST, 0, 0) == \
        _index("9H")


def test_flush_leads_a_low_spade_sooner() -> None:
    hand = _mask("5S 5D 9C")
    played = _mask("2C 3C 4C 5C 2D 3D 2S")  # 1 of 10 diamonds out is lower, 2 of 11 spades
    plain = choose(hand, 0, 0, 0, False, True, True, 0, played)
    assert plain == _index("5D")
    assert choose(hand, 0, 0, 0, False, True, True, FLUSH, played) == _index("5S")
    high = hand | _mask("KS")  # a high spade of ours: no flushing
    assert choose(high, 0, 0, 0, False, True, True, FLUSH, played) == _index("5D")


def test_under_q_plays_the_highest_spade_below_the_queen() -> None:
    hand = _mask("3S 7S JS 2D")
    args = (hand, 1, 3, _index("2S"), False, True, True)
    assert choose(*args, 0, 0) == _index("3S")
    assert choose(*args, UNDER_Q, 0) == _index("JS")
    assert choose(*args[:-1], False, UNDER_Q, 0) == _index("3S")  # the Q♠ is gone


def test_void_lead_avoids_a_suit_another_seat_lacks() -> None:
    hand = _mask("5D 5C")
    played = _mask("2C 3C 4C 2D 3D 4D")  # each card has every other one of its suit above
    assert choose(hand, 0, 0, 0, False, True, True, 0, played) == _index("5C")
    clubs_void = voids_of([0, 0, SUIT_MASKS[0], 0])
    assert clubs_void == 1 << 2
    assert choose(hand, 0, 0, 0, False, True, True, VOID_LEAD, played, 0, clubs_void) == \
        _index("5D")
    assert choose(hand, 0, 0, 0, False, True, True, 0, played, 0, clubs_void) == _index("5C")


def test_the_runner_is_the_seat_with_every_point_taken() -> None:
    assert runner_of([0, MOON_RUN, 0, 0]) == 1
    assert runner_of([0, MOON_RUN - 1, 0, 0]) == -1  # too few to run
    assert runner_of([1, MOON_RUN, 0, 0]) == -1  # someone else has a point: no moon
    assert runner_of([0, 0, 26, 0]) == -1  # shot already: nothing left to fight for
    assert moon_role(1, 1, 0, 2, 0) == 1
    assert moon_role(1, 3, 0, 3, 1) == 2  # the runner wins the trick so far
    assert moon_role(1, 3, 0, 3, 0) == 0  # the runner played and lost it: no stopping
    assert moon_role(1, 0, 2, 1, 0) == 2  # the runner is still to play


def test_the_runner_takes_and_leads_what_nobody_can_beat() -> None:
    played = _mask("2C 3C 4C 5C AH KH 2H QS")
    # Following hearts, not last: its highest; last: the lowest that wins.
    hand = _mask("5H JH QH 9C")
    assert choose_moon(hand, 1, 2, _index("7H"), False, True, False, 0, played, 1, 0, 1) == \
        _index("QH")
    assert choose_moon(hand, 3, 2, _index("7H"), False, True, False, 0, played, 3, 0, 1) == \
        _index("JH")
    # Leading: the top heart (the A♥ and K♥ are gone).
    assert choose_moon(hand, 0, 0, 0, False, True, False, 0, played, 0, 0, 1) == _index("QH")
    # Void: a card without points, the least likely to win later.
    void = _mask("7H 9C 6D KD")
    assert choose_moon(void, 2, 3, _index("8S"), False, True, False, 0, played, 0, 0, 1) == \
        _index("6D")
    assert choose(void, 2, 3, _index("8S"), False, True, False, 0, played) == _index("7H")


def test_a_stopper_takes_a_point_trick_and_feeds_the_runner_nothing() -> None:
    played = _mask("2C 3C 4C 5C AH")
    hand = _mask("4H KH 9C")
    # A heart trick the runner may win: take it with the K♥ (plain: duck with the 4♥).
    assert choose(hand, 1, 2, _index("8H"), False, True, True, 0, played, 1) == _index("4H")
    assert choose_moon(hand, 1, 2, _index("8H"), False, True, True, 0, played, 1, 0, 2) == \
        _index("KH")
    # Leading: the top heart is ours, a point trick of our own.
    assert choose_moon(hand, 0, 0, 0, False, True, True, 0, played, 0, 0, 2) == _index("KH")
    # Void of diamonds: no heart and no Q♠ on the runner's trick.
    void = _mask("QS 4H 9C")
    assert choose(void, 1, 1, _index("8D"), False, True, True, 0, played) == _index("QS")
    assert choose_moon(void, 1, 1, _index("8D"), False, True, True, 0, played, 0, 0, 2) == \
        _index("9C")


def test_moon_values_a_stop_and_a_moon_like_the_hand_scores() -> None:
    from tests.scripted import NO_PASS_HISTORY, game_from, play_all
    from tests.test_bots import MOON_DEAL, MOON_SO_FAR

    game = game_from(MOON_DEAL, history=NO_PASS_HISTORY)
    play_all(game, MOON_SO_FAR + " QH 3H")  # North has all 19 points, leads the Q♥
    values = dict(HardBot(1, None, 600, policy=MOON).play_values(game.view(0)))
    assert values[Card.parse("KH")] < 6 < values[Card.parse("4H")]  # stop it: North shoots
    assert all(value >= 0 for value in values.values())
    # The playout scores a moon as the hand does: 26 for each other seat, 0 for the shooter.
    assert hard._outcome([26, 0, 0, 0], 0, True, None) == 0
    assert hard._outcome([0, 26, 0, 0], 0, True, None) == 26
    assert hard._outcome([0, 26, 0, 0], 0, False, None) == 0


@pytest.mark.parametrize("rules", [Rules(), Rules(qs_breaks_hearts=True),
                                   Rules(no_points_on_first_trick=False,
                                         must_break_hearts=False)])
def test_moon_playouts_are_legal_and_match_the_hand_state(rules: Rules) -> None:
    flags = rules_flags(rules) | MOON
    runs = 0

    def pick(turn: PlayoutTurn) -> int:
        nonlocal runs
        state = turn.state
        n = len(state.trick)
        args = (state.hands[state.to_play], n, turn.led, turn.top, state.tricks_done == 0,
                state.broken, turn.qs_out, flags, turn.played, turn.points, 0)
        runner = runner_of(state.points)
        if runner < 0:
            return choose(*args)
        runs += 1
        return choose_moon(*args, moon_role(runner, state.to_play, state.leader, n,
                                            turn.top_at))

    for seed in range(200):
        hands = deal(seed, 1)
        state = play_card_by_card(hands, rules, pick)
        fast = playout(hands[:], [], hands.index(next(h for h in hands if h & 1)), False, 0,
                       [0, 0, 0, 0], flags)
        assert fast == state.points
    assert runs > 100


@pytest.mark.parametrize("name", sorted(POLICY_OPTIONS))
def test_playouts_with_each_rule_finish_the_hand(name: str) -> None:
    flags = POLICY_OPTIONS[name]
    for game in random_positions(21, 20):
        state = game._state
        hands = state.hands[:]
        points = playout(hands, state.trick[:], state.leader, state.broken,
                         state.tricks_done, state.points[:], flags)
        assert sum(points) == 26 and not any(hands)


def test_the_defaults_search_exactly_like_hard_today() -> None:
    for game in random_positions(24, 10):
        view = view_to_play(game)
        assert HardBot(6, None, 200).play_values(view) == TodayBot(6, None, 200).play_values(view)


# --- successive halving ---------------------------------------------------------------------


def test_halving_spends_about_the_same_playouts(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = [0]
    real = playout

    def counted(*args: object, **kwargs: object) -> list[int]:
        calls[0] += 1
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(hard, "playout", counted)
    checked = 0
    for game in random_positions(22, 40):
        view = view_to_play(game)
        count = len(hard._equivalent_groups(view))
        if count < 5:
            continue
        calls[0] = 0
        HardBot(1, None, 600).choose_play(view)
        flat = calls[0]
        calls[0] = 0
        HardBot(1, None, 600, halving=True).choose_play(view)
        assert 0.95 * flat <= calls[0] <= 1.1 * flat + 2 * hard.MIN_SAMPLES
        checked += 1
    assert checked >= 2


@pytest.mark.parametrize(("seed", "plays"), [(2, 3), (3, 9), (4, 17)])
def test_options_keep_the_choice_independent_of_hidden_cards(seed: int, plays: int) -> None:
    game, twin = twin_games(seed, plays)
    me = game.to_play
    assert me is not None
    view, twin_view = game.view(me), twin.view(me)
    for options in ({"halving": True}, {"policy": WIN_LAST | FLUSH | UNDER_Q | VOID_LEAD},
                    {"policy": MOON}):
        bot = HardBot(seed, None, 300, **options)
        assert bot.play_values(view) == bot.play_values(twin_view)


@pytest.mark.parametrize("policy", [WIN_LAST, MOON])
def test_options_are_legal_deterministic_and_sliced(policy: int) -> None:
    for game in random_positions(23, 8):
        view = view_to_play(game)
        bot = HardBot(4, None, 300, chunk_ms=0.0, halving=True, policy=policy)
        card = bot.choose_play(view)
        assert card in view.legal_plays
        assert HardBot(4, None, 300, halving=True, policy=policy).choose_play(view) == card
        steps = bot.choose_play_steps(view)
        try:
            while True:
                next(steps)
        except StopIteration as done:
            assert done.value == card


def test_the_regret_figure_compares_choices_on_the_same_positions() -> None:
    from tools.bench_hard import regret

    figures = regret(3, 60, 300, halving=True)
    assert set(figures) == {"plain_regret", "with_regret", "plain_best", "with_best"}
    assert all(value >= 0 for value in figures.values())
    assert figures["plain_best"] <= 1 and figures["with_best"] <= 1
