"""The coach: a review of one hand, decision by decision, from the seat's own views.

For each play of the seat, the hard player (``HardBot.play_values_steps``) evaluates
every legal card from the view the seat had then (``SeatHand.decisions``): its expected
points for the hand with the card played and with its best card. The difference is the
play's *cost*; a play costing at least ``threshold`` points is flagged, with a reason
taken from what then happened in the hand (``Reason``). The pass is judged the cheap
way: the seat's three cards and the hard player's own choice are each played out from
the deal on the same sampled deals (``pass_deals`` of them), under the hand's rules (the
J♦ −10 included), and the difference in the seat's expected points is the pass's cost.
A hand's *points lost to mistakes* is the sum of the flagged costs.

One scale of words for one size of gap: the figures are shown to a tenth of a point, so
each expected value is rounded to a tenth and the cost is the gap between the two figures
as shown (3.7 against 2.7 is a cost of 1.0, whatever the digits after). ``gap`` sorts a
cost into ``EVEN`` (no gap), ``CLOSE`` (under half the threshold), ``WORSE`` (the rest
below it) and ``COSTLY`` (the threshold or more: a mistake, flagged); the page has one
phrase for each.

One voice with the hint: the hard player here is ``hearts.bots.hint.advisor()`` (the same
seed and playouts), and the hint is its choice from the same view, so following the hint
never costs anything here.

Honest by construction: everything starts from a ``SeatHand``, which holds only what
the seat saw, and the evaluations sample the hidden cards from each view. Deterministic:
the searches run a fixed number of playouts (no time cap) from fixed seeds, so the same
hand gives the same review on CPython and Pyodide, however fast the machine.

Cooperative: ``review_steps`` is a generator yielding a ``Progress`` about every
``chunk_ms`` of work, so a page can give the browser control back between slices;
``review`` runs it to the end. The sentences are the page's (``web.words``): a
``Reason`` is data.
"""

from __future__ import annotations

import random
from collections.abc import Generator
from dataclasses import dataclass
from time import perf_counter
from typing import Final

from hearts.bots.hard import HardBot, choose_pass_heuristic
from hearts.bots.hint import ADVISOR_PLAYOUTS, ADVISOR_SEED
from hearts.bots.playout import playout, rules_flags
from hearts.bots.sampling import DealSampler
from hearts.cards import Card, cards_of_mask, format_cards, mask_of
from hearts.rules import JD_BONUS, QUEEN_OF_SPADES, TWO_CLUBS_MASK, pass_target
from hearts.seathand import Decision, Replay, SeatHand
from hearts.steps import run
from hearts.view import PlayerView

__all__ = [
    "COACH_ITERATIONS",
    "COACH_SEED",
    "FLAG_POINTS",
    "PASS_DEALS",
    "Coach",
    "HandReview",
    "PassReview",
    "PlayReview",
    "Progress",
    "Reason",
    "gap",
]

COACH_SEED: Final = ADVISOR_SEED
"""The seed of every evaluation: a hand always gets the same review (the hint's too)."""
COACH_ITERATIONS: Final = ADVISOR_PLAYOUTS
"""Playouts per play reviewed. Measured with ``python tools/bench_coach.py --pyodide`` on
this 2-core machine (busy): a whole hand's review took 0.86 s on CPython 3.11 (88 ms per
evaluated play) and 3.2 s in Pyodide under Node (slower than in Chromium), the longest
slice between two yields 17 ms and 23 ms. The flagged plays of eight hands were the same
with another seed, and all but one borderline play (cost 1.05) the same with 6,000."""
PASS_DEALS: Final = 300
"""Sampled deals on which the two passes are compared."""
FLAG_POINTS: Final = 1.0
"""A decision costing at least this many expected points is flagged as a mistake."""

# The sizes of a gap between the seat's choice and the hard player's (``gap``).
EVEN: Final = "even"
"""No gap, as shown: the choice was as good as the best."""
CLOSE: Final = "close"
"""Less than half the threshold: nearly as good."""
WORSE: Final = "worse"
"""Half the threshold or more, but less than it: a little worse."""
COSTLY: Final = "costly"
"""The threshold or more: a mistake, flagged."""

# The kinds of reason, each true of the hand when it is given.
QUEEN_DROPPED: Final = "queen_dropped"
"""The seat's card won a trick on which another seat dropped the Q♠ (``seat``)."""
OWN_QUEEN: Final = "own_queen"
"""The seat played the Q♠ and won the trick with it."""
TOOK_POINTS: Final = "took_points"
"""The seat's card won the trick and its ``points``."""
DUCK: Final = "duck"
"""The seat played last and won the trick; ``best`` would have let ``seat`` win it."""
COULD_DROP: Final = "could_drop"
"""The seat discarded; ``best``, a point card, could have gone on ``seat``'s trick."""
KEPT_CARD: Final = "kept_card"
"""The best card was kept and later won trick ``trick`` with ``points`` in it."""
EXPECTED: Final = "expected"
"""Nothing above applies: the hard player simply expected fewer points with ``best``."""


@dataclass(frozen=True, slots=True)
class Reason:
    """Why a flagged play cost points: a kind (above) and its facts."""

    kind: str
    card: Card
    """The card the seat played."""
    best: Card
    led: bool
    """The seat led the trick (else it followed or discarded)."""
    cost: float
    seat: int | None = None
    points: int = 0
    trick: int = 0


@dataclass(frozen=True, slots=True)
class PlayReview:
    """One play: the card, the hard player's best card and their expected points."""

    trick: int
    card: Card
    best: Card
    value: float
    """Expected points for the hand with ``card`` (the hard player's evaluation)."""
    best_value: float
    cost: float
    """``value - best_value``: expected points lost by not playing ``best``."""
    forced: bool
    """The only legal card (nothing to evaluate)."""
    flagged: bool
    reason: Reason | None
    """Set when flagged."""
    gap: str = EVEN
    """The size of ``cost`` (``gap``): flagged exactly when ``COSTLY``."""


@dataclass(frozen=True, slots=True)
class PassReview:
    """The pass: the seat's three cards against the hard player's three."""

    passed: tuple[Card, ...]
    suggested: tuple[Card, ...]
    value: float
    """Expected points for the hand after passing ``passed`` (0 when the same cards)."""
    best_value: float
    cost: float
    flagged: bool
    gap: str = EVEN
    """The size of ``cost`` (``gap``): flagged exactly when ``COSTLY``."""

    @property
    def same(self) -> bool:
        return set(self.passed) == set(self.suggested)


@dataclass(frozen=True, slots=True)
class HandReview:
    """A hand reviewed for one seat."""

    seat: int
    hand_number: int
    passing: PassReview | None
    plays: tuple[PlayReview, ...]
    lost: float
    """Points lost to mistakes: the sum of the flagged costs (the pass's included)."""
    complete: bool
    """The whole hand (else the hand so far)."""

    @property
    def flagged(self) -> tuple[PlayReview, ...]:
        return tuple(p for p in self.plays if p.flagged)


@dataclass(frozen=True, slots=True)
class Progress:
    """Where a review is: ``trick`` is the trick of the play being evaluated (0: the pass),
    ``done`` of ``total`` decisions are finished."""

    trick: int
    done: int
    total: int


class Coach:
    """Reviews hands with the hard player (see the module docstring)."""

    def __init__(self, seed: int = COACH_SEED, iterations: int = COACH_ITERATIONS, *,
                 pass_deals: int = PASS_DEALS, threshold: float = FLAG_POINTS,
                 chunk_ms: float = 10.0) -> None:
        if iterations < 1 or pass_deals < 1:
            raise ValueError("the coach needs at least one playout and one deal")
        self.seed = seed
        self.pass_deals = pass_deals
        self.threshold = threshold
        self.chunk_ms = chunk_ms
        self.bot = HardBot(seed, budget_ms=None, iterations=iterations, chunk_ms=chunk_ms)

    def review(self, hand: SeatHand) -> HandReview:
        """The whole review at once (``review_steps`` run to the end)."""
        return run(self.review_steps(hand))

    def review_steps(self, hand: SeatHand) -> Generator[Progress, None, HandReview]:
        """The review, yielding a ``Progress`` between slices of work.

        Raises ValueError if ``hand`` can't be replayed (an impossible record).
        """
        replay = hand.decisions()
        total = len(replay.decisions) + (1 if replay.pass_view is not None else 0)
        done = 0
        passing: PassReview | None = None
        if replay.pass_view is not None:
            assert hand.passed is not None
            yield Progress(0, done, total)
            passing = yield from self._pass_steps(replay.pass_view, hand.passed, total)
            done += 1
        plays: list[PlayReview] = []
        for decision in replay.decisions:
            yield Progress(decision.trick, done, total)
            plays.append((yield from self._play_steps(decision, replay, done, total)))
            done += 1
        lost = sum(p.cost for p in plays if p.flagged)
        if passing is not None and passing.flagged:
            lost += passing.cost
        return HandReview(hand.seat, hand.hand_number, passing, tuple(plays), lost,
                          hand.complete)

    # --- one play ------------------------------------------------------------------------

    def _play_steps(self, decision: Decision, replay: Replay, done: int, total: int
                    ) -> Generator[Progress, None, PlayReview]:
        view, card = decision.view, decision.card
        if len(view.legal_plays) == 1:
            return PlayReview(decision.trick, card, card, 0.0, 0.0, 0.0, True, False, None)
        search = self.bot.play_values_steps(view, always=True)  # equivalent cards too
        while True:
            try:
                next(search)
            except StopIteration as stop:
                values: list[tuple[Card, float]] = stop.value
                break
            yield Progress(decision.trick, done, total)
        value = dict(values)[card]
        best, best_value = min(values, key=lambda item: item[1])
        if best_value >= value:  # equal: the card played is as good as any
            best, best_value = card, value
        value, best_value = _tenth(value), _tenth(best_value)
        cost = _tenth(value - best_value)
        size = gap(cost, self.threshold)
        flagged = size == COSTLY
        reason = _reason(decision, best, cost, replay) if flagged else None
        return PlayReview(decision.trick, card, best, value, best_value, cost, False,
                          flagged, reason, size)

    # --- the pass ------------------------------------------------------------------------

    def _pass_steps(self, view: PlayerView, passed: tuple[Card, ...], total: int
                    ) -> Generator[Progress, None, PassReview]:
        jd = view.rules.jd_bonus
        suggested = tuple(sorted(self.bot.choose_pass(view)))  # the hint's three too
        if set(suggested) == set(passed):
            return PassReview(passed, suggested, 0.0, 0.0, 0.0, False)
        me = view.seat
        direction = view.pass_direction
        sampler = DealSampler(view)
        rng = random.Random(f"coach-pass/{self.seed}/{view.hand_number}/{me}/"
                            f"{format_cards(view.hand)}")
        flags = rules_flags(view.rules)
        moon = view.rules.shoot_the_moon
        options = (mask_of(passed), mask_of(suggested))
        totals = [0.0, 0.0]
        chunk = self.chunk_ms / 1000.0
        next_yield = perf_counter() + chunk
        for _ in range(self.pass_deals):
            dealt = sampler.sample(rng)
            passes = [mask_of(choose_pass_heuristic(cards_of_mask(dealt[s]), keep_jd=jd))
                      if s != me else 0 for s in range(4)]
            for k, mine in enumerate(options):
                passes[me] = mine
                hands = dealt[:]
                for seat in range(4):
                    hands[seat] &= ~passes[seat]
                for seat in range(4):
                    hands[pass_target(seat, direction)] |= passes[seat]
                leader = next(s for s in range(4) if hands[s] & TWO_CLUBS_MASK)
                jd_box = [-1] if jd else None
                points = playout(hands, [], leader, False, 0, [0, 0, 0, 0], flags, 0, jd_box)
                own = points[me]
                if moon and 26 in points:
                    own = 0 if own == 26 else 26
                if jd_box is not None and jd_box[0] == me:  # the J♦ counts −10
                    own -= JD_BONUS
                totals[k] += own
            if perf_counter() >= next_yield:
                yield Progress(0, 0, total)
                next_yield = perf_counter() + chunk
        value = _tenth(totals[0] / self.pass_deals)
        best_value = _tenth(totals[1] / self.pass_deals)
        cost = max(0.0, _tenth(value - best_value))
        size = gap(cost, self.threshold)
        return PassReview(passed, suggested, value, best_value, cost, size == COSTLY, size)


def _tenth(value: float) -> float:
    """``value`` as the page shows it: to a tenth of a point."""
    return round(value, 1) + 0.0  # (+ 0.0: never "-0.0")


def gap(cost: float, threshold: float = FLAG_POINTS) -> str:
    """The size of a cost (a tenth of a point at least apart, as shown): ``EVEN``, ``CLOSE``,
    ``WORSE`` or ``COSTLY`` (see the module docstring).

    >>> [gap(c) for c in (0.0, 0.4, 0.5, 0.9, 1.0, 2.5)]
    ['even', 'close', 'worse', 'worse', 'costly', 'costly']
    """
    if cost < 0.05:
        return EVEN
    if cost >= threshold - 1e-9:
        return COSTLY
    return CLOSE if cost < threshold / 2 else WORSE


def _reason(decision: Decision, best: Card, cost: float, replay: Replay) -> Reason:
    """The first reason that is true of what happened after the play."""
    view, card, number = decision.view, decision.card, decision.trick
    me = view.seat
    led = view.trick is None or not view.trick.cards
    tricks = replay.tricks
    won = tricks[number - 1] if number <= len(tricks) else None
    if won is not None:
        lead = won.cards[0].suit
        if won.seat == me:
            if card == QUEEN_OF_SPADES:
                return Reason(OWN_QUEEN, card, best, led, cost, points=won.points,
                              trick=number)
            if QUEEN_OF_SPADES in won.cards:
                at = won.cards.index(QUEEN_OF_SPADES)
                return Reason(QUEEN_DROPPED, card, best, led, cost,
                              seat=(won.leader + at) % 4, trick=number)
            if won.cards[3] == card and best.suit == lead:
                # Played last: the others' cards were down, so the lower card loses.
                top = max((c, k) for k, c in enumerate(won.cards[:3]) if c.suit == lead)
                if best < top[0]:
                    return Reason(DUCK, card, best, led, cost,
                                  seat=(won.leader + top[1]) % 4, points=won.points,
                                  trick=number)
            if won.points > 0:
                return Reason(TOOK_POINTS, card, best, led, cost, points=won.points,
                              trick=number)
        elif not led and card.suit != lead and best.suit != lead and best.points > 0:
            # Off suit, neither card could win: the trick's taker stays the same.
            return Reason(COULD_DROP, card, best, led, cost, seat=won.seat, trick=number)
    for later in tricks[number:]:
        if best in later.cards:
            if later.seat == me and later.points > 0:
                return Reason(KEPT_CARD, card, best, led, cost, points=later.points,
                              trick=later.trick_number)
            break
    return Reason(EXPECTED, card, best, led, cost)
