"""The hard computer player: Monte Carlo search over deals consistent with its view.

For each decision it deals the unseen cards many times, consistently with what the view
shows (``hearts.bots.sampling``), plays every candidate card on each deal and finishes
the hand with a fast policy (``hearts.bots.playout``), then plays the card with the best
average outcome. Every candidate is tried on the same deals (common random numbers), so
the comparison between cards is sharp even with few deals.

The outcome of a hand is scored as ``own score - mean of the others' scores`` with the
moon applied (shooting scores 0 for the shooter and 26 for everyone else): it minimises
the points taken, values stopping another player's moon and taking the moon itself.
Under the house rules the playouts follow the game's ``Rules`` (legality, the J♦ taken
off its taker's score); a moon scored "shooter −26" (or the shooter's choice) is valued
like "others +26": the two differ by 26 for every seat, which changes no one's standing.

Inference from play (``hearts.bots.inference``): each sampled deal is weighted by how
likely it makes the other seats' plays so far under a softened model of them, so deals
where a seat would have played quite differently count less. The pass (``pass_values``)
is searched too: every three of the six most dangerous cards, tried on the same deals of
the unseen cards, the others passing by the heuristic and the hand played out by the fast
policy. Both are off by default: the arena has not shown either to gain (issue 29,
duplicate deals against the frozen ``hard-today`` at 500 playouts a decision, seed 1):
inference alone -0.07 points per hand, 95% CI [-0.45, +0.31], 200 deals; the searched
pass alone -0.09, CI [-0.49, +0.32], 200 deals. ``HardBot(..., inference=True)`` /
``pass_search=True`` turn them on; ``tools/arena.py --candidate hard:500:pass``
(or ``:infer``, ``:pass+infer``) measures them.

Two more options, off too (no gain shown; the figures are in ``docs/players.md``):
``policy`` turns on optional rules of the playout policy (bits of
``hearts.bots.playout.POLICY_OPTIONS``; ``MOON`` among them: a seat alone with all the
points so far runs for the moon in the playouts and the others stop it; the scoring below
already counts a moon), ``halving`` splits the playouts between the cards
by successive halving (the same count in log2(cards) rounds, the worse half dropped after
each) instead of evenly.

Determinism: the random numbers come from ``random.Random`` seeded with the bot's seed and
the whole view, and the work is a fixed number of playouts (``iterations``). So for a
given seed and view the choice is always the same, on CPython and Pyodide, however the
hidden cards really lie. ``budget_ms`` is only a safety cap: if a slow machine reaches
it first, the search stops early and the choice may then depend on timing.

Budget: the default is ``DEFAULT_ITERATIONS`` playouts per decision with a
``DEFAULT_BUDGET_MS`` safety cap, one setting for tests, the arena and the page alike.
On this 2-core machine (with other jobs running) that measured 53 ms mean / 109 ms p95
per decision on CPython 3.11 and 139 ms / 293 ms in Pyodide under Node, which is slower
than Pyodide in Chromium (``python tools/bench_hard.py --pyodide``): inside 300 ms
(CPython) and 500 ms p95 (Pyodide). Going from 1,200 to 3,000
playouts gained about 0.1 point per hand in the arena; beyond that flat Monte Carlo
gains little, the playout policy matters more. ``HardBot(seed, iterations=...)`` and
``budget_ms=...`` change it.

Browser use: ``choose_play_steps(view)`` is a generator that yields every ``chunk_ms`` of
work, so a page can give the event loop control back (``await asyncio.sleep(0)``)
between chunks; its return value (``StopIteration.value``) is the card.
``choose_play(view)`` simply runs it to the end.
"""

from __future__ import annotations

import random
from collections.abc import Generator
from itertools import combinations
from time import perf_counter
from typing import Final

from hearts.bots.inference import PlayModel
from hearts.bots.moon import better_moon_scoring
from hearts.bots.playout import VOID_LEAD, playout, rules_flags, voids_of
from hearts.bots.sampling import DealSampler
from hearts.cards import SUIT_MASKS, Card, cards_of_mask, format_cards, mask_of
from hearts.rules import JD_BONUS, JD_MASK, QS_MASK, MoonScoring
from hearts.steps import run
from hearts.view import Phase, PlayerView

__all__ = [
    "DEFAULT_BUDGET_MS",
    "DEFAULT_ITERATIONS",
    "HardBot",
]

DEFAULT_ITERATIONS: Final = 3000
"""Playouts per decision, shared by the candidate cards (see the module docstring)."""
DEFAULT_BUDGET_MS: Final = 1000.0
"""Safety cap on one decision's search time; normally the iterations finish well before."""
DEFAULT_OTHERS_WEIGHT: Final = 0.0
"""How much the others' mean hand score counts against this seat's own (0: own only)."""
MIN_SAMPLES: Final = 24
"""Deals per decision at least, however many candidate cards there are."""
PASS_SHORTLIST: Final = 6
"""The pass search tries every three of this many most dangerous cards (20 sets)."""
PASS_PLAYOUTS: Final = 1500
"""Playouts per pass decision at ``DEFAULT_ITERATIONS`` (in proportion for others), shared
by the candidate sets (whole hands: each costs about twice a play decision's average)."""
PASS_MIN_SAMPLES: Final = 8
"""Deals per pass decision at least."""


class HardBot:
    """Monte Carlo player. Deterministic per seed and view (see the module docstring).

    ``iterations``: playouts per decision (None: no fixed count, search until the
    budget). ``budget_ms``: time cap per decision (None: no cap). At least one is needed.
    ``pass_search`` / ``inference``: the searched pass and the inference from play (off,
    the default: the heuristic pass, uniform deals; see the module docstring).
    ``pass_iterations``: playouts per pass decision (default ``PASS_PLAYOUTS``, in
    proportion to ``iterations``). ``policy``: extra playout rule bits; ``halving``:
    successive halving of the playouts (both off; see the module docstring).
    """

    def __init__(self, seed: int = 0, budget_ms: float | None = DEFAULT_BUDGET_MS,
                 iterations: int | None = DEFAULT_ITERATIONS, *,
                 chunk_ms: float = 10.0, others_weight: float = DEFAULT_OTHERS_WEIGHT,
                 pass_search: bool = False, inference: bool = False,
                 pass_iterations: int | None = None, policy: int = 0,
                 halving: bool = False) -> None:
        if budget_ms is None and iterations is None:
            raise ValueError("HardBot needs an iteration count, a time budget, or both")
        if iterations is not None and iterations < 1:
            raise ValueError(f"iterations must be at least 1, not {iterations!r}")
        if budget_ms is not None and budget_ms <= 0:
            raise ValueError(f"budget_ms must be positive, not {budget_ms!r}")
        self.seed = seed
        self.budget_ms = budget_ms
        self.iterations = iterations
        self.chunk_ms = chunk_ms
        self.others_weight = others_weight
        self.pass_search = pass_search
        if pass_iterations is None:
            pass_iterations = (PASS_PLAYOUTS if iterations is None
                               else PASS_PLAYOUTS * iterations // DEFAULT_ITERATIONS)
        self.pass_iterations = pass_iterations
        self.inference = inference
        self.policy = policy
        self.halving = halving

    # --- passing ----------------------------------------------------------------------

    def choose_pass(self, view: PlayerView) -> list[Card]:
        """Three cards to pass, by search: see ``pass_values``."""
        return run(self.choose_pass_steps(view))

    def choose_pass_steps(self, view: PlayerView) -> Generator[None, None, list[Card]]:
        """Like ``choose_pass``, yielding between chunks of about ``chunk_ms`` of work."""
        if not self.pass_search:
            return choose_pass_heuristic(view.hand, keep_jd=view.rules.jd_bonus)
        values = yield from self.pass_values_steps(view)
        return min(values, key=lambda item: item[1])[0]

    def pass_values(self, view: PlayerView) -> list[tuple[list[Card], float]]:
        """Candidate passes with their expected outcome: see ``pass_values_steps``."""
        return run(self.pass_values_steps(view))

    def pass_values_steps(self, view: PlayerView
                          ) -> Generator[None, None, list[tuple[list[Card], float]]]:
        """Candidate passes with their expected outcome (lower is better).

        The candidates are the three-card sets drawn from the ``PASS_SHORTLIST`` cards the
        heuristic (``choose_pass_heuristic``) finds most dangerous. Each is tried on the
        same deals of the unseen cards (``PASS_PLAYOUTS`` playouts in all): the other
        seats pass by the heuristic, then the hand is played out by the fast policy and
        scored like a play (own points, the moon, the J♦).
        """
        hand = list(view.hand)
        keep_jd = view.rules.jd_bonus
        scores = _pass_scores(hand, keep_jd)
        shortlist = sorted(hand, key=lambda c: (-scores[c], -c.index))[:PASS_SHORTLIST]
        candidates = [sorted(trio) for trio in combinations(shortlist, 3)]
        pass_to = view.pass_to
        if pass_to is None or len(hand) != 13 or view.phase is not Phase.PASS:
            return [(choose_pass_heuristic(hand, keep_jd), 0.0)]
        me = view.seat
        direction = (pass_to - me) & 3
        rng = random.Random("pass/" + _view_key(self.seed, view))
        sampler = DealSampler(view)
        masks = [mask_of(trio) for trio in candidates]
        samples = max(PASS_MIN_SAMPLES, -(-self.pass_iterations // len(candidates)))
        flags = rules_flags(view.rules) | self.policy
        moon = view.rules.shoot_the_moon
        jd_box = [-1] if keep_jd else None
        totals = [0.0] * len(candidates)
        chunk = self.chunk_ms / 1000.0
        next_yield = perf_counter() + chunk
        for _ in range(samples):
            if perf_counter() >= next_yield:
                yield
                next_yield = perf_counter() + chunk
            dealt = sampler.sample(rng)
            given = [0, 0, 0, 0]
            for seat in range(4):
                if seat != me:
                    given[seat] = mask_of(choose_pass_heuristic(cards_of_mask(dealt[seat]),
                                                                keep_jd))
            for i, trio in enumerate(masks):
                given[me] = trio
                hands = [dealt[s] & ~given[s] | given[(s - direction) & 3] for s in range(4)]
                leader = next(s for s in range(4) if hands[s] & 1)
                if jd_box is not None:
                    jd_box[0] = -1
                pts = playout(hands, [], leader, False, 0, [0, 0, 0, 0], flags, -1, jd_box)
                totals[i] += _outcome(pts, me, moon, jd_box)
        return [(trio, total / samples) for trio, total in zip(candidates, totals, strict=True)]

    # --- the moon -----------------------------------------------------------------------

    def choose_moon(self, view: PlayerView) -> MoonScoring:
        """How its moon scores: see ``hearts.bots.moon.better_moon_scoring``."""
        return better_moon_scoring(view)

    # --- playing ----------------------------------------------------------------------

    def choose_play(self, view: PlayerView) -> Card:
        """The card with the best expected outcome over sampled deals."""
        return run(self.choose_play_steps(view))

    def choose_play_steps(self, view: PlayerView) -> Generator[None, None, Card]:
        """Like ``choose_play``, yielding between chunks of about ``chunk_ms`` of work."""
        values = yield from self._search(view)
        return min(values, key=lambda item: item[1])[0]

    def play_values(self, view: PlayerView) -> list[tuple[Card, float]]:
        """Each legal card with its expected outcome (lower is better), e.g. for a hint.

        The value is ``own score - mean of the others' scores`` for the hand, averaged
        over the sampled deals. Cards that are equivalent share one value.
        """
        return run(self._search(view))

    def play_values_steps(self, view: PlayerView, *, always: bool = False
                          ) -> Generator[None, None, list[tuple[Card, float]]]:
        """Like ``play_values``, yielding between chunks of about ``chunk_ms`` of work.

        A choice that makes no difference (one legal card, or only equivalent ones) gets
        the value 0 without a search, unless ``always`` (the coach shows the figure)."""
        return self._search(view, always)

    def _search(self, view: PlayerView, always: bool = False
                ) -> Generator[None, None, list[tuple[Card, float]]]:
        legal = view.legal_plays
        if not legal:
            raise ValueError(f"seat {view.seat} has no card to play in this view")
        if len(legal) == 1 and not always:
            return [(legal[0], 0.0)]
        groups = _equivalent_groups(view)
        if len(groups) == 1 and not always:
            return [(card, 0.0) for card in legal]
        start = perf_counter()
        deadline = start + self.budget_ms / 1000.0 if self.budget_ms is not None else None
        chunk = self.chunk_ms / 1000.0
        next_yield = start + chunk
        reps = [group[0].index for group in groups]
        count = len(reps)
        if self.iterations is not None:
            samples = max(MIN_SAMPLES, -(-self.iterations // count))
        else:
            samples = 1 << 30
        rng = random.Random(_view_key(self.seed, view))
        sampler = DealSampler(view)
        model = PlayModel(view) if self.inference else None
        if model is not None and not model.events:
            model = None
        me = view.seat
        trick_cards = [card.index for card in view.trick.cards] if view.trick else []
        leader = view.trick.leader if view.trick else me
        broken = view.hearts_broken
        done = len(view.tricks)
        base_points = list(view.hand_points)
        flags = rules_flags(view.rules) | self.policy
        voids = voids_of(view.voids()) if flags & VOID_LEAD else 0
        moon = view.rules.shoot_the_moon
        jd_start = view.jd_taker if view.jd_taker is not None else -1
        jd_box = [jd_start] if view.rules.jd_bonus else None  # the J♦'s taker, per playout
        w = self.others_weight / 3.0
        plain = [own - w * (26 - own) for own in range(27)]  # no moon: own points
        moon_mine = -w * 78.0  # this seat shot the moon: 0 for it, 26 for each other
        moon_theirs = 26.0 - w * 52.0  # another seat shot: 26 for this seat
        totals = [0.0] * count
        weights = [0.0] * count
        # Rounds of (candidates still in, deals): one round of every candidate (flat), or
        # successive halving: the same playouts in log2(count) rounds, the worse half of
        # the candidates dropped after each, so the close ones get more deals.
        alive = list(range(count))
        rounds = 1
        if self.halving and self.iterations is not None and count > 2:
            rounds = (count - 1).bit_length()
        per_round = -(-samples * count // rounds)
        stop = False
        for round_number in range(rounds):
            deals = samples if rounds == 1 else max(MIN_SAMPLES, -(-per_round // len(alive)))
            for _ in range(deals):
                hands = sampler.sample(rng)
                weight = model.weight(hands) if model is not None else 1.0
                for i in alive:
                    card = reps[i]
                    if jd_box is not None:
                        jd_box[0] = jd_start
                    pts = playout(hands[:], trick_cards, leader, broken, done, base_points[:],
                                  flags, card, jd_box, voids)
                    own = pts[me]
                    if moon and (pts[0] == 26 or pts[1] == 26 or pts[2] == 26
                                 or pts[3] == 26):
                        value = moon_mine if own == 26 else moon_theirs
                    else:
                        value = plain[own]
                    if jd_box is not None and jd_box[0] >= 0:
                        # The J♦ takes 10 off its taker: this seat, or one of the others.
                        value += -JD_BONUS if jd_box[0] == me else w * JD_BONUS
                    totals[i] += weight * value
                    weights[i] += weight
                now = perf_counter()
                if deadline is not None and now >= deadline:
                    stop = True
                    break
                if now >= next_yield:
                    yield
                    next_yield = perf_counter() + chunk
            if stop or round_number == rounds - 1:
                break
            alive.sort(key=lambda i: (totals[i] / weights[i], i))
            alive = sorted(alive[: (len(alive) + 1) // 2])
        values: list[tuple[Card, float]] = []
        for group, total, weight in zip(groups, totals, weights, strict=True):
            value = total / weight
            values.extend((card, value) for card in group)
        return values


def _view_key(seed: int, view: PlayerView) -> str:
    """Everything the decision depends on, as text (the random numbers are seeded by it)."""
    plays = "".join(f"{seat}{card}" for seat, card in view.plays())
    passed = format_cards(view.passed) if view.passed else "-"
    received = format_cards(view.received) if view.received else "-"
    scores = ".".join(str(s) for s in view.scores)
    return (f"hard/{seed}/{view.hand_number}/{view.seat}/{format_cards(view.hand)}/"
            f"{passed}/{received}/{plays}/{scores}")


def _equivalent_groups(view: PlayerView) -> list[list[Card]]:
    """Legal cards grouped when playing one or the other makes no difference.

    Two cards of a suit are equivalent when every card of that suit ranked between them
    is in this hand or already played (the Q♠ is always alone: it carries 13 points; so
    is the J♦ when it counts −10).
    """
    known = view.hand_mask | view.played_mask
    alone = QS_MASK | (JD_MASK if view.rules.jd_bonus else 0)
    groups: list[list[Card]] = []
    previous: Card | None = None
    for card in view.legal_plays:  # sorted by suit, then rank
        if (previous is not None and previous.suit == card.suit
                and not (card.mask | previous.mask) & alone):
            between = SUIT_MASKS[card.suit] & (card.mask - 1) & ~((previous.mask << 1) - 1)
            if not between & ~known:
                groups[-1].append(card)
                previous = card
                continue
        groups.append([card])
        previous = card
    return groups


def _outcome(pts: list[int], me: int, moon: bool, jd_box: list[int] | None) -> float:
    """A played-out hand's value for seat ``me`` (lower is better): its points, the moon
    as 0 for the shooter and 26 for the others, the J♦'s −10."""
    own = pts[me]
    if moon and (pts[0] == 26 or pts[1] == 26 or pts[2] == 26 or pts[3] == 26):
        value = 0.0 if own == 26 else 26.0
    else:
        value = float(own)
    if jd_box is not None and jd_box[0] == me:
        value -= JD_BONUS
    return value


def choose_pass_heuristic(hand: tuple[Card, ...] | list[Card], keep_jd: bool = False
                          ) -> list[Card]:
    """Three cards of a 13-card hand to pass, by a danger score (sorted by index);
    ``keep_jd``: never the J♦ (the house rule that makes it worth −10)."""
    scores = _pass_scores(hand, keep_jd)
    chosen = sorted(hand, key=lambda c: (-scores[c], -c.index))[:3]
    return sorted(chosen)


def _pass_scores(hand: tuple[Card, ...] | list[Card], keep_jd: bool) -> dict[Card, float]:
    """Each card's danger score for passing (higher: pass it sooner)."""
    by_suit = [[c for c in hand if c.suit == s] for s in range(4)]
    spades = by_suit[3]
    low_spades = sum(1 for c in spades if c.rank < 12)
    guarded = low_spades >= 4  # enough small spades to hold the Q♠ safely
    scores: dict[Card, float] = {}
    for card in hand:
        rank = int(card.rank)
        score = float(rank)
        if card.suit == 3:
            if card.rank == 12:
                score = 5.0 if guarded else 100.0
            elif card.rank > 12:
                score = 40.0 + rank if not guarded else float(rank)
            else:
                score = rank - 6.0  # low spades protect against the queen: keep
        elif card.suit == 2:
            score = rank + 3.0
        else:
            length = len(by_suit[card.suit])
            if length <= 3:
                score = rank + 9.0 - 2 * length  # voiding a short suit helps
        if card.index == 0:
            score = -100.0  # the 2♣ is harmless
        if keep_jd and card.mask == JD_MASK:
            score = -200.0
        scores[card] = score
    return scores

