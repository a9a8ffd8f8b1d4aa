"""The arena's statistics and duplicate-deal bookkeeping."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from hearts.rules import PassDirection
from tools.arena import (
    DealResult,
    GameResult,
    deal_game,
    main,
    mean_ci,
    percentile,
    play_deal,
    play_game,
    summarize,
    t_quantile,
    wilson_interval,
)


@pytest.mark.parametrize(("df", "expected"), [
    (1, 12.706), (2, 4.303), (3, 3.182), (5, 2.571), (10, 2.228), (30, 2.042),
    (100, 1.984), (10_000, 1.960),
])
def test_t_quantile_matches_the_table(df: int, expected: float) -> None:
    assert t_quantile(0.975, df) == pytest.approx(expected, abs=2e-3)


def test_t_quantile_is_symmetric() -> None:
    assert t_quantile(0.025, 7) == pytest.approx(-t_quantile(0.975, 7))
    assert t_quantile(0.5, 12) == pytest.approx(0.0, abs=1e-12)


def test_mean_ci_uses_the_t_interval() -> None:
    mean, low, high = mean_ci([1.0, 2.0, 3.0, 4.0, 5.0])
    half = 2.776 * math.sqrt(2.5 / 5)  # t(0.975, 4) * s / sqrt(n)
    assert mean == 3.0
    assert low == pytest.approx(3.0 - half, abs=2e-3)
    assert high == pytest.approx(3.0 + half, abs=2e-3)


def test_mean_ci_edge_cases() -> None:
    assert mean_ci([2.0, 2.0, 2.0]) == (2.0, 2.0, 2.0)
    mean, low, high = mean_ci([4.0])
    assert mean == 4.0 and low == -math.inf and high == math.inf
    with pytest.raises(ValueError):
        mean_ci([])


def test_wilson_interval_known_values() -> None:
    low, high = wilson_interval(5, 10)
    assert low == pytest.approx(0.2366, abs=1e-4) and high == pytest.approx(0.7634, abs=1e-4)
    low, high = wilson_interval(0, 10)
    assert low == 0.0 and high == pytest.approx(0.2775, abs=1e-4)
    assert wilson_interval(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError):
        wilson_interval(3, 2)


def test_percentile_interpolates() -> None:
    assert percentile([1.0, 2.0, 3.0, 4.0], 95) == pytest.approx(3.85)
    assert percentile([5.0], 95) == 5.0
    assert percentile([3.0, 1.0, 2.0], 50) == 2.0
    assert percentile([1.0, 2.0], 0) == 1.0 and percentile([1.0, 2.0], 100) == 2.0
    with pytest.raises(ValueError):
        percentile([], 50)


def _deal(number: int, baseline: tuple[int, int, int, int],
          candidate: tuple[int, int, int, int], moons: int = 0) -> DealResult:
    return DealResult(number, baseline, candidate, moons, 0, (0.5, 1.5), (2.0,), (0.1,))


def test_deal_sample_is_the_mean_difference_over_the_four_seats() -> None:
    result = _deal(1, (10, 6, 0, 10), (6, 6, 4, 2))
    assert result.difference == pytest.approx((-4 + 0 + 4 - 8) / 4)


def test_summarize_reports_difference_wins_moons_and_timing() -> None:
    deals = [_deal(1, (10, 6, 0, 10), (6, 6, 4, 2), moons=1),
             _deal(2, (13, 13, 0, 0), (13, 9, 0, 0))]
    games = [GameResult(0, 0, True, 12), GameResult(1, 1, False, 15)]
    summary = summarize("normal", "basic", deals, games)
    assert summary.deals == 2
    assert summary.difference[0] == pytest.approx((-2.0 + -1.0) / 2)
    assert summary.mean_candidate == pytest.approx((18 + 22) / 8)
    assert summary.mean_baseline == pytest.approx(26 / 4)
    assert (summary.games, summary.wins) == (2, 1)
    assert summary.candidate_moon_rate == pytest.approx(1 / 8)
    assert summary.play_ms[0] == pytest.approx(1.0)
    assert summary.pass_ms == pytest.approx(2.0)
    text = "\n".join(summary.lines)
    assert "candidate - baseline" in text and "95% CI" in text and "games to 100" in text
    with pytest.raises(ValueError):
        summarize("normal", "basic", [], [])


def test_deals_cycle_the_pass_directions() -> None:
    directions = [deal_game(5, n).pass_direction for n in range(1, 6)]
    assert directions == [PassDirection.LEFT, PassDirection.RIGHT, PassDirection.ACROSS,
                          PassDirection.NONE, PassDirection.LEFT]


def test_a_player_against_itself_scores_zero_difference() -> None:
    # Duplicate play: the same bots on the same cards give the same scores.
    for number in range(1, 5):
        result = play_deal("basic", "basic", 3, number)
        assert result.candidate == result.baseline
        assert result.difference == 0
        assert len(result.play_ms) == 4 * 13


def test_play_game_finishes_a_game_to_100() -> None:
    result = play_game("normal", "basic", 1, 2)
    assert result.seat == 2 and result.hands >= 4


def test_main_prints_the_report(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--deals", "3", "--games", "1", "--jobs", "1", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "normal (candidate) vs basic (baseline): 3 duplicate deals" in out
    assert "ms per decision" in out


def test_main_rejects_an_unknown_level(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--candidate", "genius", "--deals", "3"])
    assert "genius" in capsys.readouterr().err


def test_the_arenas_doctests_pass() -> None:
    """tools/ is outside the doctest paths; the arena's examples are checked here."""
    import doctest

    import tools.arena

    assert doctest.testmod(tools.arena).failed == 0


def test_make_player_knows_levels_baselines_and_playout_counts() -> None:
    from hearts.bots.hard import HardBot
    from tools.arena import make_player
    from tools.baselines.hard_today.hard import HardBot as TodayBot

    assert isinstance(make_player("hard-today", 3), TodayBot)
    cheap = make_player("hard:200:infer", 3)
    assert isinstance(cheap, HardBot)
    assert (cheap.iterations, cheap.pass_search, cheap.inference) == (200, False, True)
    both = make_player("hard:200:pass+infer", 3)
    assert isinstance(both, HardBot) and both.pass_search and both.inference
    plain = make_player("hard", 3)
    assert isinstance(plain, HardBot) and not plain.pass_search and not plain.inference
    today = make_player("hard-today:50", 3)
    assert isinstance(today, TodayBot) and today.iterations == 50 and today.budget_ms is None
    tuned = make_player("hard:90:win+flush+underq+halve", 3)
    assert isinstance(tuned, HardBot) and tuned.halving and tuned.policy == 8 | 16 | 32
    moon = make_player("hard:90:moon", 3)
    assert isinstance(moon, HardBot) and moon.policy == 128 and not moon.halving
    for bad in ("hard:0", "hard:x", "normal:100", "hard-today:50:pass", "hard:9:fast",
                "hard:9:pass+fast"):
        with pytest.raises(ValueError):
            make_player(bad, 0)


def test_remembered_answers_change_nothing() -> None:
    """A remembering baseline gives exactly the scores a fresh player would."""
    from hearts.bots import make
    from tools.arena import bot_seed, play_hand

    for number in (1, 4):
        result = play_deal("normal", "basic", 2, number)
        for seat in range(4):
            bots = [make("basic", bot_seed(2, number, s)) for s in range(4)]
            bots[seat] = make("normal", bot_seed(2, number, seat))
            assert play_hand(deal_game(2, number), bots)[seat] == result.candidate[seat]


def test_main_plays_the_jack_of_diamonds_rule(capsys: pytest.CaptureFixture[str]) -> None:
    from hearts.rules import Rules

    assert deal_game(1, 1, Rules(jd_bonus=True)).rules.jd_bonus
    assert main(["--deals", "2", "--games", "0", "--jobs", "1", "--rules", "jd",
                 "--first-deal", "5"]) == 0
    assert "deals 5-6, rules jd" in capsys.readouterr().out


def test_a_logged_run_can_be_summarized_later(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    from tools.arena import deal_from_json, deal_to_json

    result = play_deal("normal", "basic", 1, 2)
    assert deal_from_json(deal_to_json(result)) == result
    with pytest.raises(ValueError):
        deal_from_json('{"deal_number": 3}')
    log = tmp_path / "run.jsonl"
    assert main(["--deals", "3", "--games", "0", "--jobs", "1", "--log", str(log)]) == 0
    played = capsys.readouterr().out
    assert len(log.read_text().splitlines()) == 3
    assert main(["--summarize", str(log), str(log)]) == 0  # a deal met twice counts once
    again = capsys.readouterr().out
    assert "3 duplicate deals" in again
    difference = [line for line in played.splitlines() if "candidate - baseline" in line]
    assert difference and difference[0] in again
    bad = tmp_path / "bad.jsonl"
    bad.write_text("not json\n")
    assert main(["--summarize", str(bad)]) == 2


def test_the_policy_alone_plays_whole_hands_and_duels() -> None:
    from hearts.cards import mask_of
    from tools.arena import policy_bits, policy_duel, policy_hand

    game = deal_game(3, 4)  # no pass
    hands = [mask_of(game.hand(seat)) for seat in range(4)]
    scores = policy_hand(hands, [0, 0, 0, 0])
    assert sum(scores) in (26, 78)
    same = policy_duel("win", 12, 3)
    assert same[1] <= same[0] <= same[2]
    assert policy_bits("win+void") == 8 | 64
    with pytest.raises(ValueError):
        policy_bits("win+fly")


def test_a_moon_is_counted_with_the_jack_of_diamonds_too() -> None:
    from tools.arena import _shooter

    assert _shooter([0, 26, 26, 26]) == 0
    assert _shooter([26, -10, 26, 26]) == 1  # the shooter took the J♦
    assert _shooter([16, 26, 0, 26]) == 2  # another seat took it
    assert _shooter([13, 13, 0, 0]) == _shooter([16, 0, 10, -10]) == -1


def test_the_policy_alone_runs_and_stops_moons_as_the_playout_does() -> None:
    from hearts.bots.playout import MOON, playout
    from hearts.cards import mask_of
    from tools.arena import policy_hand

    for number in range(1, 60):
        game = deal_game(5, number * 4)  # no pass
        hands = [mask_of(game.hand(seat)) for seat in range(4)]
        leader = next(s for s in range(4) if hands[s] & 1)
        points = playout(hands[:], [], leader, False, 0, [0, 0, 0, 0], MOON)
        if 26 in points:
            points = [0 if p == 26 else 26 for p in points]
        assert policy_hand(hands, [MOON] * 4) == points


def test_main_runs_a_policy_duel(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--policy-duel", "flush", "--deals", "8"]) == 0
    assert "playout policy with flush minus plain: 8 deals" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["--policy-duel", "nothing", "--deals", "8"])
