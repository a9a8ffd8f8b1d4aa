"""Matches between computer players: ``python tools/arena.py --help``.

**Duplicate deals.** Deal ``i`` (``i = 1 … --deals``) is ``hearts.game.deal(seed, i)``,
played as hand number ``i`` of a game, so its pass direction follows the game's cycle:
deal 1 passes left, 2 right, 3 across, 4 has no pass, 5 left again, and so on. Each deal
is played five times: first with the baseline in all four seats, then with the candidate
in each seat in turn against three baselines. The candidate's score in a seat is
compared with the baseline's score in the same seat on the same cards; the mean of the
four differences is one sample per deal, so luck of the cards cancels out. Scores are
hand scores with the moon applied (a shooter scores 0 and the others 26).

**Games to 100.** ``--games`` whole games (seeds derived from ``--seed``) with the
candidate in seat ``g % 4`` of game ``g`` against three baselines: its win rate (25% is
par).

**Timing.** Milliseconds per decision of the candidate (``choose_play``; passes are
reported apart), measured around the call only.

Each bot is ``hearts.bots.make(level, seed)`` (or a frozen past player of
``tools.baselines``, e.g. ``hard-today``) with a seed derived from ``--seed``, the deal and
the seat, the same for the baseline and the candidate in that seat.

**Reuse.** Every player is deterministic per seed and view, so within a deal a baseline
seat that meets a view it has already answered (the candidate has not yet changed
anything) gives the remembered answer instead of searching again: the same cards, less
time. ``--rules jd`` plays every deal with the J♦ taking 10 off its taker's score.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import multiprocessing
import os
import sys
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

# Run as a script (``python tools/arena.py``) from anywhere: the repository root holds hearts/.
_REPO = str(Path(__file__).resolve().parent.parent)
if _REPO not in sys.path:
    sys.path.insert(0, _REPO)

from hearts.bots import LEVELS, Bot, make  # noqa: E402
from hearts.bots.playout import POLICY_OPTIONS  # noqa: E402
from hearts.cards import Card, cards_of_mask  # noqa: E402
from hearts.game import Game, deal  # noqa: E402
from hearts.rules import MoonScoring, Rules  # noqa: E402
from hearts.view import Phase, PlayerView  # noqa: E402
from tools.baselines import BASELINES, make_baseline  # noqa: E402

__all__ = [
    "RULE_SETS",
    "DealResult",
    "GameResult",
    "Summary",
    "main",
    "make_player",
    "mean_ci",
    "percentile",
    "play_deal",
    "play_game",
    "policy_duel",
    "summarize",
    "t_quantile",
    "wilson_interval",
]

# Earlier-hand scores that only set the hand number (and so the pass direction).
_FILLER_ROWS = ((7, 6, 7, 6), (6, 7, 6, 7), (7, 7, 6, 6))
_JD_FILLER_ROWS = ((7, 6, 7, -4), (6, 7, -4, 7), (-4, 7, 6, 7))  # the J♦ is always taken


# --- statistics ---------------------------------------------------------------------------


def _normal_quantile(p: float) -> float:
    """The standard normal quantile (Acklam's rational approximation, |error| < 1.2e-9)."""
    if not 0.0 < p < 1.0:
        raise ValueError(f"p must be strictly between 0 and 1, not {p!r}")
    a = (-3.969683028665376e01, 2.209460984245205e02, -2.759285104469687e02,
         1.383577518672690e02, -3.066479806614716e01, 2.506628277459239e00)
    b = (-5.447609879822406e01, 1.615858368580409e02, -1.556989798598866e02,
         6.680131188771972e01, -1.328068155288572e01)
    c = (-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e00,
         -2.549732539343734e00, 4.374664141464968e00, 2.938163982698783e00)
    d = (7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e00,
         3.754408661907416e00)
    low = 0.02425
    if p < low:
        q = math.sqrt(-2 * math.log(p))
        return (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) / \
            ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1)
    if p > 1 - low:
        return -_normal_quantile(1 - p)
    q = p - 0.5
    r = q * q
    return (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q / \
        (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1)


def _beta_cf(a: float, b: float, x: float) -> float:
    """Continued fraction of the regularized incomplete beta function (Lentz's method)."""
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 300):
        for numerator in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                          -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1.0 + numerator * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + numerator / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1.0) < 1e-15:
            break
    return h


def _t_cdf(t: float, df: int) -> float:
    """Student's t distribution function, via the regularized incomplete beta function."""
    x = df / (df + t * t)
    a, b = df / 2, 0.5
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
                     + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1) / (a + b + 2):
        tail = front * _beta_cf(a, b, x) / a
    else:
        tail = 1.0 - front * _beta_cf(b, a, 1.0 - x) / b
    return 1.0 - tail / 2 if t >= 0 else tail / 2


def t_quantile(p: float, df: int) -> float:
    """Student's t quantile for ``df`` degrees of freedom (bisection on the exact CDF).

    >>> round(t_quantile(0.975, 10), 3)
    2.228
    """
    if df < 1:
        raise ValueError(f"degrees of freedom must be at least 1, not {df!r}")
    if not 0.0 < p < 1.0:
        raise ValueError(f"p must be strictly between 0 and 1, not {p!r}")
    if p < 0.5:
        return -t_quantile(1.0 - p, df)
    if p == 0.5:
        return 0.0
    low, high = 0.0, 1.0
    while _t_cdf(high, df) < p:
        high *= 2.0
    for _ in range(200):
        mid = (low + high) / 2
        if _t_cdf(mid, df) < p:
            low = mid
        else:
            high = mid
        if high - low < 1e-12:
            break
    return (low + high) / 2


def mean_ci(samples: Sequence[float], confidence: float = 0.95) -> tuple[float, float, float]:
    """The mean of ``samples`` and its two-sided t confidence interval ``(mean, low, high)``.

    With one sample the interval is infinite. Raises ValueError with no samples.

    >>> [round(x, 3) for x in mean_ci([1.0, 2.0, 3.0])]
    [2.0, -0.484, 4.484]
    """
    n = len(samples)
    if n == 0:
        raise ValueError("no samples")
    mean = math.fsum(samples) / n
    if n == 1:
        return mean, -math.inf, math.inf
    var = math.fsum((x - mean) ** 2 for x in samples) / (n - 1)
    half = t_quantile(0.5 + confidence / 2, n - 1) * math.sqrt(var / n)
    return mean, mean - half, mean + half


def wilson_interval(successes: int, trials: int, confidence: float = 0.95
                    ) -> tuple[float, float]:
    """Wilson score interval for a proportion; ``(0.0, 1.0)`` when there are no trials."""
    if not 0 <= successes <= trials:
        raise ValueError(f"need 0 <= successes <= trials, not {successes}/{trials}")
    if trials == 0:
        return 0.0, 1.0
    z = _normal_quantile(0.5 + confidence / 2)
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (0–100) with linear interpolation; ValueError when empty."""
    if not values:
        raise ValueError("no values")
    if not 0 <= q <= 100:
        raise ValueError(f"q must be from 0 to 100, not {q!r}")
    ordered = sorted(values)
    pos = (len(ordered) - 1) * q / 100
    low = math.floor(pos)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (pos - low)


# --- playing ------------------------------------------------------------------------------

RULE_SETS = {"standard": Rules(), "jd": Rules(jd_bonus=True)}
"""The house rules ``--rules`` offers: the standard game, and the J♦ worth −10."""


def make_player(level: str, seed: int) -> Bot:
    """A player of ``hearts.bots.make``'s levels or a frozen one of ``tools.baselines``.

    ``hard:N`` and ``hard-today:N`` are those players with ``N`` playouts per decision
    instead of the default: a cheaper proxy for screening ideas, never the final figure.
    (The pass search keeps its default playouts.) They have no time cap: on a loaded
    machine the default 1 s cap would cut some searches short and make runs depend on
    the load.
    ``hard:N:pass``, ``hard:N:infer`` and ``hard:N:pass+infer`` turn on the hard player's
    pass search and/or its inference from play (both off by default).
    """
    name, _, rest = level.partition(":")
    count, _, option = rest.partition(":")
    if rest:
        options = set(option.split("+")) if option else set()
        if (name not in ("hard", "hard-today") or not count.isdigit() or int(count) < 1
                or not options <= {"pass", "infer", "halve", *POLICY_OPTIONS}
                or (options and name != "hard")):
            raise ValueError(f"{level!r}: only hard:N[:pass|:infer|:pass+infer] and "
                             "hard-today:N take a playout count N >= 1")
        if name == "hard":
            from hearts.bots.hard import PASS_PLAYOUTS, HardBot
            # The pass search keeps its full strength: only the plays are cheaper.
            rules = "+".join(sorted(options & set(POLICY_OPTIONS)))
            policy = policy_bits(rules) if rules else 0
            return HardBot(seed, None, int(count), pass_search="pass" in options,
                           inference="infer" in options, pass_iterations=PASS_PLAYOUTS,
                           policy=policy, halving="halve" in options)
        from tools.baselines.hard_today.hard import HardBot as TodayBot
        return TodayBot(seed, None, int(count))
    if level in BASELINES:
        return make_baseline(level, seed)
    return make(level, seed)


class _Remembering:
    """A player that answers a view it has already seen with the same choice (exact: the
    player is deterministic per seed and view), so a deal's replays cost less."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.plays: dict[PlayerView, Card] = {}
        self.passes: dict[PlayerView, list[Card]] = {}

    def choose_pass(self, view: PlayerView) -> list[Card]:
        if view not in self.passes:
            self.passes[view] = self.bot.choose_pass(view)
        return list(self.passes[view])

    def choose_play(self, view: PlayerView) -> Card:
        if view not in self.plays:
            self.plays[view] = self.bot.choose_play(view)
        return self.plays[view]

    def choose_moon(self, view: PlayerView) -> MoonScoring:
        return self.bot.choose_moon(view)


def bot_seed(seed: int, deal_number: int, seat: int) -> int:
    """The seed of the bot in ``seat`` for a deal (the same for baseline and candidate)."""
    return ((seed * 1_000_003 + deal_number) * 4 + seat) % 2**53


def _pass(bot: Bot, view: PlayerView, times: list[float] | None) -> list[Card]:
    if times is None:
        return bot.choose_pass(view)
    start = time.perf_counter()
    cards = bot.choose_pass(view)
    times.append((time.perf_counter() - start) * 1000.0)
    return cards


def _play(bot: Bot, view: PlayerView, times: list[float] | None) -> Card:
    if times is None:
        return bot.choose_play(view)
    start = time.perf_counter()
    card = bot.choose_play(view)
    times.append((time.perf_counter() - start) * 1000.0)
    return card


def play_hand(game: Game, bots: Sequence[Bot], timed_seat: int = -1,
              play_times: list[float] | None = None,
              pass_times: list[float] | None = None) -> tuple[int, int, int, int]:
    """Play ``game``'s current hand to its end with ``bots[seat]``; return its hand scores.

    Passes are chosen from views taken before anyone has chosen (passing is
    simultaneous). An illegal choice raises the engine's IllegalMoveError.
    """
    start = len(game.hand_history)
    if game.phase is Phase.PASS:
        views = [game.view(seat) for seat in range(4)]
        chosen = [_pass(bots[seat], views[seat], pass_times if seat == timed_seat else None)
                  for seat in range(4)]
        for seat in range(4):
            game.choose_pass(seat, chosen[seat])
    while len(game.hand_history) == start:
        to_play = game.to_play
        assert to_play is not None
        times = play_times if to_play == timed_seat else None
        game.play(_play(bots[to_play], game.view(to_play), times))
    return game.hand_history[start]


def _shooter(scores: Sequence[int]) -> int:
    """The seat that shot the moon, from the hand's scores (-1: none). The others score 26
    (16 for one of them with the J♦ −10), the shooter 0 (−10 with the J♦): no hand
    without a moon gives three seats 16 or more."""
    if sum(1 for score in scores if score >= 16) == 3:
        return min(range(4), key=lambda seat: scores[seat])
    return -1


@dataclass(frozen=True)
class DealResult:
    """One duplicate deal: the baseline's four scores and the candidate's score per seat."""

    deal_number: int
    baseline: tuple[int, int, int, int]
    candidate: tuple[int, int, int, int]
    """``candidate[s]``: the candidate's score when it sat in seat ``s``."""
    candidate_moons: int
    baseline_moons: int
    play_ms: tuple[float, ...]
    pass_ms: tuple[float, ...]
    baseline_play_ms: tuple[float, ...] = ()

    @property
    def difference(self) -> float:
        """Mean over the four seats of candidate minus baseline in that seat."""
        return sum(c - b for c, b in zip(self.candidate, self.baseline, strict=True)) / 4


def deal_game(seed: int, deal_number: int, rules: Rules | None = None) -> Game:
    """The game whose current hand is deal ``deal_number`` (see the module docstring)."""
    hands = deal(seed, deal_number)
    rows = _JD_FILLER_ROWS if rules is not None and rules.jd_bonus else _FILLER_ROWS
    history = list(rows[: (deal_number - 1) % 4])
    return Game.from_deal([cards_of_mask(m) for m in hands], history=history, rules=rules)


def play_deal(candidate: str, baseline: str, seed: int, deal_number: int,
              rules: Rules | None = None) -> DealResult:
    """Play deal ``deal_number`` five times (baseline ×4, then the candidate in each seat)."""
    base_bots: list[Bot] = [_Remembering(make_player(baseline, bot_seed(seed, deal_number, s)))
                            for s in range(4)]
    base_times: list[float] = []
    base_scores = play_hand(deal_game(seed, deal_number, rules), base_bots, 0, base_times)
    cand_scores = [0, 0, 0, 0]
    cand_moons = 0
    base_moons = 0
    play_ms: list[float] = []
    pass_ms: list[float] = []
    for seat in range(4):
        bots = list(base_bots)
        bots[seat] = make_player(candidate, bot_seed(seed, deal_number, seat))
        scores = play_hand(deal_game(seed, deal_number, rules), bots, seat, play_ms, pass_ms)
        cand_scores[seat] = scores[seat]
        cand_moons += _shooter(scores) == seat
        base_moons += _shooter(base_scores) == seat
    a, b, c, d = cand_scores
    return DealResult(deal_number, base_scores, (a, b, c, d), cand_moons, base_moons,
                      tuple(play_ms), tuple(pass_ms), tuple(base_times))


@dataclass(frozen=True)
class GameResult:
    """One game to 100: where the candidate sat and whether it won."""

    game_number: int
    seat: int
    won: bool
    hands: int


def play_game(candidate: str, baseline: str, seed: int, game_number: int,
              rules: Rules | None = None) -> GameResult:
    """A whole game to 100, the candidate in seat ``game_number % 4``."""
    seat = game_number % 4
    game_seed = (seed * 7_919 + 1_000_000 + game_number) % 2**53
    bots = [make_player(baseline, bot_seed(game_seed, 0, s)) for s in range(4)]
    bots[seat] = make_player(candidate, bot_seed(game_seed, 0, seat))
    game = Game.new(seed=game_seed, rules=rules)
    while game.phase is not Phase.GAME_OVER:
        play_hand(game, bots)
    return GameResult(game_number, seat, game.winner == seat, len(game.hand_history))


# --- the playout policy alone ------------------------------------------------------------


def policy_bits(names: str) -> int:
    """The playout rule bits of ``POLICY_OPTIONS`` named in ``names`` (joined by ``+``)."""
    bits = 0
    for name in names.split("+"):
        if name not in POLICY_OPTIONS:
            raise ValueError(f"unknown playout rule {name!r}: choose from "
                             f"{', '.join(POLICY_OPTIONS)}")
        bits |= POLICY_OPTIONS[name]
    return bits


def policy_hand(hands: Sequence[int], seat_flags: Sequence[int]) -> list[int]:
    """One hand (13 cards each, after the pass) played by the fast playout policy alone,
    each seat with its own rule bits; the hand scores, the moon applied."""
    from hearts.bots.playout import MOON, choose, choose_moon, moon_role, runner_of
    held = list(hands)
    played = 0
    points = [0, 0, 0, 0]
    broken = False
    qs_out = True
    voids = 0
    leader = next(s for s in range(4) if held[s] & 1)
    for trick in range(13):
        led = top = top_at = trick_points = 0
        for n in range(4):
            seat = (leader + n) & 3
            if seat_flags[seat] & MOON and (runner := runner_of(points)) >= 0:
                card = choose_moon(held[seat], n, led, top, trick == 0, broken, qs_out,
                                   seat_flags[seat], played, trick_points, voids,
                                   moon_role(runner, seat, leader, n, top_at))
            else:
                card = choose(held[seat], n, led, top, trick == 0, broken, qs_out,
                              seat_flags[seat], played, trick_points, voids)
            held[seat] ^= 1 << card
            played |= 1 << card
            if n == 0:
                led, top = card // 13, card
            elif card // 13 != led:
                voids |= 1 << (led * 4 + seat)
            elif card > top:
                top, top_at = card, n
            if 26 <= card <= 38:
                trick_points += 1
                broken = True
            elif card == 49:  # the Q♠
                trick_points += 13
                qs_out = False
        leader = (leader + top_at) & 3
        points[leader] += trick_points
    if 26 in points:
        return [0 if p == 26 else 26 for p in points]
    return points


def policy_duel(names: str, deals: int, seed: int = 1) -> tuple[float, float, float]:
    """Duplicate deals of the playout policy alone (standard rules, heuristic passes): the
    policy with the rules ``names`` in one seat against three without, minus the plain
    policy in that seat; ``mean_ci`` of the per-deal mean over the four seats. A cheap
    pre-screen of a playout rule: does it make the policy a better player by itself?"""
    from hearts.bots.hard import choose_pass_heuristic
    from hearts.cards import mask_of
    bits = policy_bits(names)
    diffs: list[float] = []
    for number in range(1, deals + 1):
        game = deal_game(seed, number)
        if game.phase is Phase.PASS:
            for seat in range(4):
                game.choose_pass(seat, choose_pass_heuristic(game.hand(seat)))
        hands = [mask_of(game.hand(seat)) for seat in range(4)]
        plain = policy_hand(hands, [0, 0, 0, 0])
        total = 0
        for seat in range(4):
            flags = [0, 0, 0, 0]
            flags[seat] = bits
            total += policy_hand(hands, flags)[seat] - plain[seat]
        diffs.append(total / 4)
    return mean_ci(diffs)


# --- summary ------------------------------------------------------------------------------


@dataclass
class Summary:
    """Everything the arena prints."""

    candidate: str
    baseline: str
    deals: int
    mean_candidate: float
    mean_baseline: float
    difference: tuple[float, float, float]
    games: int
    wins: int
    win_interval: tuple[float, float]
    candidate_moon_rate: float
    baseline_moon_rate: float
    play_ms: tuple[float, float]
    pass_ms: float
    baseline_play_ms: float
    lines: list[str] = field(default_factory=list)


def summarize(candidate: str, baseline: str, deals: Sequence[DealResult],
              games: Sequence[GameResult]) -> Summary:
    """Statistics over finished deals and games (see the module docstring)."""
    if not deals:
        raise ValueError("no deals to summarize")
    n = len(deals)
    diffs = [d.difference for d in deals]
    mean_cand = sum(sum(d.candidate) for d in deals) / (4 * n)
    mean_base = sum(sum(d.baseline) for d in deals) / (4 * n)
    play = [ms for d in deals for ms in d.play_ms]
    passes = [ms for d in deals for ms in d.pass_ms]
    base_play = [ms for d in deals for ms in d.baseline_play_ms]
    wins = sum(g.won for g in games)
    summary = Summary(
        candidate=candidate, baseline=baseline, deals=n,
        mean_candidate=mean_cand, mean_baseline=mean_base,
        difference=mean_ci(diffs),
        games=len(games), wins=wins, win_interval=wilson_interval(wins, len(games)),
        candidate_moon_rate=sum(d.candidate_moons for d in deals) / (4 * n),
        baseline_moon_rate=sum(d.baseline_moons for d in deals) / (4 * n),
        play_ms=(sum(play) / len(play), percentile(play, 95)) if play else (0.0, 0.0),
        pass_ms=sum(passes) / len(passes) if passes else 0.0,
        baseline_play_ms=sum(base_play) / len(base_play) if base_play else 0.0,
    )
    summary.lines = _report(summary)
    return summary


def _report(s: Summary) -> list[str]:
    mean, low, high = s.difference
    if high < 0:
        verdict = f"{s.candidate} takes fewer points than {s.baseline} (significant)"
    elif low > 0:
        verdict = f"{s.candidate} takes more points than {s.baseline} (significant)"
    else:
        verdict = "no significant difference"
    lines = [
        f"{s.candidate} (candidate) vs {s.baseline} (baseline): {s.deals} duplicate deals",
        f"  points per hand: candidate {s.mean_candidate:.2f}, baseline in the same seats "
        f"{s.mean_baseline:.2f}",
        f"  candidate - baseline: {mean:+.2f} points per hand, 95% CI [{low:+.2f}, {high:+.2f}]"
        f"  ({verdict})",
    ]
    if s.games:
        lo, hi = s.win_interval
        lines.append(f"  games to 100 won: {s.wins} of {s.games} ({100 * s.wins / s.games:.1f}%, "
                     f"95% CI {100 * lo:.1f}-{100 * hi:.1f}%; par is 25%)")
    lines.append(f"  moon shot: candidate in {100 * s.candidate_moon_rate:.1f}% of its hands, "
                 f"baseline in {100 * s.baseline_moon_rate:.1f}% (same seats and cards)")
    lines.append(f"  ms per decision (candidate plays): mean {s.play_ms[0]:.3f}, "
                 f"p95 {s.play_ms[1]:.3f}; passes mean {s.pass_ms:.3f}; "
                 f"baseline plays mean {s.baseline_play_ms:.3f}")
    return lines


# --- running ------------------------------------------------------------------------------


def _deal_task(args: tuple[str, str, int, int, str]) -> DealResult:
    candidate, baseline, seed, number, rules = args
    return play_deal(candidate, baseline, seed, number, RULE_SETS[rules])


def _game_task(args: tuple[str, str, int, int, str]) -> GameResult:
    candidate, baseline, seed, number, rules = args
    return play_game(candidate, baseline, seed, number, RULE_SETS[rules])


def _progress(done: int, total: int, started: float) -> None:
    width = 30
    filled = width * done // total
    elapsed = time.monotonic() - started
    eta = elapsed / done * (total - done) if done else 0.0
    sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} "
                     f"{elapsed:6.1f}s elapsed, ~{eta:5.1f}s left ")
    if done == total:
        sys.stderr.write("\n")
    sys.stderr.flush()


def deal_to_json(result: DealResult) -> str:
    """One finished deal as a line of JSON (``--log``)."""
    return json.dumps(dataclasses.asdict(result), separators=(",", ":"))


def deal_from_json(line: str) -> DealResult:
    """A deal written by ``deal_to_json``; ValueError for anything else."""
    try:
        data = json.loads(line)
        return DealResult(
            int(data["deal_number"]), _four(data["baseline"]), _four(data["candidate"]),
            int(data["candidate_moons"]), int(data["baseline_moons"]),
            tuple(float(x) for x in data["play_ms"]), tuple(float(x) for x in data["pass_ms"]),
            tuple(float(x) for x in data["baseline_play_ms"]))
    except (KeyError, TypeError, json.JSONDecodeError) as error:
        raise ValueError(f"not a deal line of the arena's log: {line[:60]!r}") from error


def _four(values: Sequence[int]) -> tuple[int, int, int, int]:
    a, b, c, d = (int(v) for v in values)
    return a, b, c, d


def run(candidate: str, baseline: str, deals: int, games: int, seed: int, jobs: int,
        progress: bool, rules: str = "standard", first_deal: int = 1,
        log: Path | None = None) -> Summary:
    """Play everything (in ``jobs`` processes) and summarize; ``log``: append each
    finished deal to that file as a line of JSON, so a long run stopped early still
    counts (``--summarize``)."""
    deal_args = [(candidate, baseline, seed, i, rules)
                 for i in range(first_deal, first_deal + deals)]
    game_args = [(candidate, baseline, seed, g, rules) for g in range(games)]
    total = len(deal_args) + len(game_args)
    started = time.monotonic()
    deal_results: list[DealResult] = []
    game_results: list[GameResult] = []

    def collect(results: Iterable[DealResult | GameResult]) -> None:
        for done, result in enumerate(results, start=1):
            if isinstance(result, DealResult):
                deal_results.append(result)
                if log is not None:
                    with log.open("a", encoding="utf-8") as out:
                        out.write(deal_to_json(result) + "\n")
            else:
                game_results.append(result)
            if progress:
                _progress(done, total, started)

    def chained(games_it: Iterable[GameResult], deals_it: Iterable[DealResult]
                ) -> Iterable[DealResult | GameResult]:
        yield from games_it
        yield from deals_it

    if jobs <= 1:
        collect(chained(map(_game_task, game_args), map(_deal_task, deal_args)))
    else:
        with multiprocessing.Pool(jobs) as pool:
            # Both kinds are queued at once (games first, they are longer), so no worker
            # sits idle between them.
            collect(chained(pool.imap_unordered(_game_task, game_args),
                            pool.imap_unordered(_deal_task, deal_args)))
    deal_results.sort(key=lambda d: d.deal_number)
    game_results.sort(key=lambda g: g.game_number)
    return summarize(candidate, baseline, deal_results, game_results)


def main(argv: Sequence[str] | None = None) -> int:
    """The command line; returns the exit status."""
    parser = argparse.ArgumentParser(
        prog="python tools/arena.py",
        description="Duplicate-deal matches between computer players. Each deal is played "
                    "with the baseline in all four seats, then with the candidate in each "
                    "seat against three baselines; the per-deal sample is the candidate's "
                    "score minus the baseline's in the same seat, averaged over the four "
                    "seats (negative = candidate takes fewer points = better). Deal i is "
                    "hearts.game.deal(seed, i) played as hand i (pass left, right, across, "
                    "none, ...).")
    levels = ", ".join(LEVELS + BASELINES)
    parser.add_argument("--candidate", default="normal", help="level under test "
                        f"({levels}; default normal)")
    parser.add_argument("--baseline", default="basic", help="level it plays against "
                        "(default basic)")
    parser.add_argument("--rules", choices=sorted(RULE_SETS), default="standard",
                        help="house rules of every deal and game (default standard; "
                        "jd: the J♦ takes 10 off its taker's score)")
    parser.add_argument("--first-deal", type=int, default=1,
                        help="number of the first deal (default 1), to split a long run")
    parser.add_argument("--deals", type=int, default=200, help="duplicate deals (default 200)")
    parser.add_argument("--games", type=int, default=40,
                        help="games to 100 for the win rate (default 40; 0 skips them)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the deals and bots "
                        "(default 1)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                        help="worker processes (default: the number of CPUs)")
    parser.add_argument("--log", type=Path, default=None,
                        help="append each finished deal to this file (JSON lines)")
    parser.add_argument("--summarize", type=Path, nargs="+", default=None, metavar="LOG",
                        help="play nothing: summarize the deals of these --log files "
                        "(a deal met twice counts once)")
    parser.add_argument("--no-progress", action="store_true",
                        help="no progress bar on stderr (it is shown for runs of 20+ tasks)")
    parser.add_argument("--policy-duel", metavar="RULES", default=None,
                        help="play nothing else: --deals duplicate deals of the playout "
                        "policy alone with these rules (e.g. win+void) in one seat against "
                        "the plain policy (points per hand, 95%% CI)")
    args = parser.parse_args(argv)
    if args.policy_duel is not None:
        try:
            mean, low, high = policy_duel(args.policy_duel, args.deals, args.seed)
        except ValueError as error:
            parser.error(str(error))
        print(f"playout policy with {args.policy_duel} minus plain: {args.deals} deals, "
              f"{mean:+.3f} points per hand, 95% CI [{low:+.3f}, {high:+.3f}]")
        return 0
    if args.summarize is not None:
        return _summarize_logs(args.candidate, args.baseline, args.summarize)
    if args.deals < 2:
        parser.error("--deals must be at least 2 (a confidence interval needs two samples)")
    if args.games < 0 or args.jobs < 1:
        parser.error("--games must be >= 0 and --jobs >= 1")
    for level in (args.candidate, args.baseline):
        try:
            make_player(level, 0)
        except (ValueError, ImportError) as error:
            parser.error(f"can't make a {level!r} player: {error}")
    progress = not args.no_progress and args.deals + args.games >= 20
    if args.first_deal < 1:
        parser.error("--first-deal must be at least 1")
    summary = run(args.candidate, args.baseline, args.deals, args.games, args.seed,
                  args.jobs, progress, args.rules, args.first_deal, args.log)
    print(f"seed {args.seed}, deals {args.first_deal}-{args.first_deal + args.deals - 1}, "
          f"rules {args.rules}, {args.jobs} job(s)")
    for line in summary.lines:
        print(line)
    return 0


def _summarize_logs(candidate: str, baseline: str, paths: Sequence[Path]) -> int:
    deals: dict[int, DealResult] = {}
    for path in paths:
        try:
            lines = path.read_text(encoding="utf-8").splitlines()
        except OSError as error:
            print(f"can't read {path}: {error}", file=sys.stderr)
            return 2
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            try:
                result = deal_from_json(line)
            except ValueError as error:
                print(f"{path}:{number}: {error}", file=sys.stderr)
                return 2
            deals.setdefault(result.deal_number, result)
    if len(deals) < 2:
        print("fewer than two deals in the logs: no confidence interval", file=sys.stderr)
        return 2
    ordered = [deals[k] for k in sorted(deals)]
    print(f"logs: {', '.join(str(p) for p in paths)}; deals {ordered[0].deal_number}-"
          f"{ordered[-1].deal_number}")
    for line in summarize(candidate, baseline, ordered, []).lines:
        print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
