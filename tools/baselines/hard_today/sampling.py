"""Deal the cards a seat cannot see, consistently with everything its view shows.

``DealSampler(view)`` works out once, from the view alone, where each unseen card may
be: not in a seat that has shown a void in its suit, the cards this seat passed in the
receiver's hand (unless played), the 2♣ with the first leader, only hearts in a hand
that led a heart before hearts were broken, only point cards in a hand that discarded
a point card on the first trick. ``sample(rng)`` then deals the unseen cards so that
every seat gets exactly its number of cards.

Sampling is exactly uniform over the deals that satisfy those constraints: cards are
grouped by the set of seats that may hold them (with three other seats there are only
three two-seat groups and one three-seat group), the split of each group between seats
is drawn with weight equal to the number of deals it allows (exact integers, so the
same on CPython and Pyodide), and then the cards of each group are shuffled.

Nothing here raises for a view the game produced: if the inferences ever conflicted
(which a legal game cannot do), they are dropped one kind at a time, down to hand sizes.
"""

from __future__ import annotations

import random
from bisect import bisect_right
from math import comb, factorial

from hearts.cards import FULL_DECK_MASK, HEARTS_MASK, bits_of_mask, mask_of
from hearts.rules import POINT_CARDS_MASK, QS_MASK, TWO_CLUBS_MASK
from hearts.view import Phase, PlayerView

__all__ = ["DealSampler"]


class DealSampler:
    """Deals consistent with one seat's view; build once per decision, sample many times."""

    __slots__ = ("_combos", "_cumulative", "_fixed", "_groups", "_total", "exact", "others",
                 "seat")

    def __init__(self, view: PlayerView) -> None:
        self.seat = view.seat
        me = view.seat
        self.others = tuple((me + k) & 3 for k in (1, 2, 3))
        my_hand = view.hand_mask
        playing = view.phase is Phase.PLAY
        played = view.played_mask if playing else 0
        # While passing, everyone holds the 13 dealt cards.
        sizes = list(view.hand_sizes) if playing else [13, 13, 13, 13]
        sizes[me] = my_hand.bit_count()
        fixed = [0, 0, 0, 0]
        fixed[me] = my_hand
        pass_to = view.pass_to
        if playing and view.passed and pass_to is not None:
            fixed[pass_to] |= mask_of(view.passed) & ~played & ~my_hand
        unknown = FULL_DECK_MASK & ~played & ~fixed[0] & ~fixed[1] & ~fixed[2] & ~fixed[3]
        voids, inferred = _constraints(view) if playing else ([0] * 4, [0] * 4)
        # Try the strongest consistent set of constraints first.
        attempts = (
            [FULL_DECK_MASK & ~voids[s] & ~inferred[s] for s in range(4)],
            [FULL_DECK_MASK & ~voids[s] for s in range(4)],
            [FULL_DECK_MASK] * 4,
        )
        for allowed in attempts:
            if self._prepare(sizes, fixed, unknown, allowed):
                self.exact = True
                return
        # Not reachable from a real game; keep going with a plain fill.
        self.exact = False
        self._fallback(sizes, fixed, unknown)

    # --- set-up ---------------------------------------------------------------------

    def _prepare(self, sizes: list[int], fixed_in: list[int], unknown: int,
                 allowed: list[int]) -> bool:
        o1, o2, o3 = self.others
        a1, a2, a3 = allowed[o1] & unknown, allowed[o2] & unknown, allowed[o3] & unknown
        if unknown & ~(a1 | a2 | a3):
            return False  # some card could be nowhere
        fixed = fixed_in[:]
        fixed[o1] |= a1 & ~a2 & ~a3
        fixed[o2] |= a2 & ~a1 & ~a3
        fixed[o3] |= a3 & ~a1 & ~a2
        g12 = a1 & a2 & ~a3
        g13 = a1 & a3 & ~a2
        g23 = a2 & a3 & ~a1
        gall = a1 & a2 & a3
        n1 = sizes[o1] - fixed[o1].bit_count()
        n2 = sizes[o2] - fixed[o2].bit_count()
        n3 = sizes[o3] - fixed[o3].bit_count()
        k12, k13, k23, kall = (g12.bit_count(), g13.bit_count(), g23.bit_count(),
                               gall.bit_count())
        if min(n1, n2, n3) < 0 or n1 + n2 + n3 != k12 + k13 + k23 + kall:
            return False
        combos: list[tuple[int, int, int, int, int, int]] = []
        cumulative: list[int] = []
        total = 0
        fall = factorial(kall)
        for x12 in range(k12 + 1):
            w12 = comb(k12, x12)
            for x13 in range(k13 + 1):
                r1 = n1 - x12 - x13
                if r1 < 0:
                    break
                w13 = w12 * comb(k13, x13)
                for x23 in range(k23 + 1):
                    r2 = n2 - (k12 - x12) - x23
                    if r2 < 0:
                        break
                    r3 = n3 - (k13 - x13) - (k23 - x23)
                    if r3 < 0:
                        continue
                    weight = w13 * comb(k23, x23) * fall // (
                        factorial(r1) * factorial(r2) * factorial(r3))
                    total += weight
                    combos.append((x12, x13, x23, r1, r2, r3))
                    cumulative.append(total)
        if not combos:
            return False
        self._fixed = fixed
        self._groups = (bits_of_mask(g12), bits_of_mask(g13), bits_of_mask(g23), bits_of_mask(gall))
        self._combos = combos
        self._cumulative = cumulative
        self._total = total
        return True

    def _fallback(self, sizes: list[int], fixed: list[int], unknown: int) -> None:
        # Hand sizes that don't add up: deal what there is, as evenly as the sizes allow.
        self._fixed = fixed[:]
        self._groups = ([], [], [], bits_of_mask(unknown))
        count = unknown.bit_count()
        needs = [max(0, sizes[o] - fixed[o].bit_count()) for o in self.others]
        shares = [0, 0, 0]
        for i in range(count):
            candidates = [k for k in range(3) if shares[k] < needs[k]] or [i % 3]
            shares[candidates[0]] += 1
        self._combos = [(0, 0, 0, shares[0], shares[1], shares[2])]
        self._cumulative = [1]
        self._total = 1

    # --- sampling -------------------------------------------------------------------

    def sample(self, rng: random.Random) -> list[int]:
        """Four hand masks: this seat's own hand and one consistent deal of the rest."""
        index = 0
        if len(self._combos) > 1:
            index = bisect_right(self._cumulative, rng.randrange(self._total))
        x12, x13, x23, r1, r2, r3 = self._combos[index]
        g12, g13, g23, gall = self._groups
        o1, o2, o3 = self.others
        hands = self._fixed[:]
        shuffle = rng.shuffle
        if g12:
            shuffle(g12)
            hands[o1] |= sum(g12[:x12])
            hands[o2] |= sum(g12[x12:])
        if g13:
            shuffle(g13)
            hands[o1] |= sum(g13[:x13])
            hands[o3] |= sum(g13[x13:])
        if g23:
            shuffle(g23)
            hands[o2] |= sum(g23[:x23])
            hands[o3] |= sum(g23[x23:])
        if gall:
            shuffle(gall)
            hands[o1] |= sum(gall[:r1])
            hands[o2] |= sum(gall[r1:r1 + r2])
            hands[o3] |= sum(gall[r1 + r2:r1 + r2 + r3])
        return hands


def _constraints(view: PlayerView) -> tuple[list[int], list[int]]:
    """Per seat: cards ruled out by shown voids (suit masks), and by other inferences."""
    voids = list(view.voids())
    inferred = [0, 0, 0, 0]
    rules = view.rules
    broken = False
    tricks = list(view.tricks)
    if view.trick is not None:
        tricks.append(view.trick)
    if not tricks and view.to_play is not None:
        # Nothing played yet: the seat to lead holds the 2♣.
        for s in range(4):
            if s != view.to_play:
                inferred[s] |= TWO_CLUBS_MASK
    for number, trick in enumerate(tricks):
        cards = trick.cards
        if not cards:
            continue
        lead = cards[0]
        leader = trick.leader
        if rules.must_break_hearts and not broken and lead.mask & HEARTS_MASK:
            inferred[leader] |= FULL_DECK_MASK & ~HEARTS_MASK  # it held only hearts
        for position, card in enumerate(cards):
            seat = (leader + position) & 3
            if (number == 0 and position and rules.no_points_on_first_trick
                    and card.suit != lead.suit and card.mask & POINT_CARDS_MASK):
                inferred[seat] |= FULL_DECK_MASK & ~POINT_CARDS_MASK  # only points left
            if card.mask & HEARTS_MASK or (rules.qs_breaks_hearts and card.mask & QS_MASK):
                broken = True
    return voids, inferred
