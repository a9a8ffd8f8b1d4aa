"""A fast playout policy: finish a hand from any position with simple, sound card play.

The hard player plays thousands of sampled deals to the end; this module is its inner
loop, so it works on ``int`` masks and plain locals only (no objects, no allocation per
card beyond the trick list). The policy, used for every seat:

- lead the lowest card (never the Q♠, K♠ or A♠ while the queen is out, if avoidable);
- follow with the highest card that still loses the trick; if every card would win,
  the last player takes it with its highest card (keeping the Q♠), others with their
  lowest;
- when void: dump the Q♠, then the A♠/K♠ while the queen is out, then the highest
  heart, then the highest card.

Optional rules, flag bits beside the rules' (``POLICY_OPTIONS``; off in the hard player,
the arena has not shown them to gain): ``WIN_LAST``, ``FLUSH``, ``UNDER_Q``, ``VOID_LEAD``,
``MOON`` (the run at the moon and its stop: ``runner_of``, ``choose_moon``).

Card indices are ``suit * 13 + rank - 2`` (clubs 0..12, diamonds 13..25, hearts 26..38,
spades 39..51), as in ``hearts.cards``.
"""

from __future__ import annotations

from typing import Final

from hearts.cards import FULL_DECK_MASK, HEARTS_MASK, SUIT_MASKS, above_mask
from hearts.rules import JACK_OF_DIAMONDS, QUEEN_OF_SPADES, Rules

__all__ = ["FLUSH", "MOON", "MOON_RUN", "POLICY_OPTIONS", "UNDER_Q", "VOID_LEAD", "WIN_LAST",
           "choose", "choose_moon", "moon_role", "playout", "rules_flags", "runner_of",
           "voids_of"]

# The shared masks under short module-global names (one dictionary lookup each in the loop).
_SUIT: Final = SUIT_MASKS
_ALL: Final = FULL_DECK_MASK
_NOT_HEARTS: Final = FULL_DECK_MASK & ~HEARTS_MASK
_QS_I: Final = QUEEN_OF_SPADES.index
_QS: Final = QUEEN_OF_SPADES.mask
_HIGH_SPADES: Final = above_mask(_QS_I)  # K♠, A♠
_DANGER: Final = _QS | _HIGH_SPADES
_NOT_POINTS: Final = _NOT_HEARTS & ~_QS
_JD_I: Final = JACK_OF_DIAMONDS.index
_JD: Final = JACK_OF_DIAMONDS.mask

# Flag bits for the rules the playout needs.
NO_POINTS_FIRST: Final = 1
MUST_BREAK: Final = 2
QS_BREAKS: Final = 4
# Optional policy rules (issue 29 screens), as flag bits beside the rules'.
WIN_LAST: Final = 8
"""Last to a pointless trick of clubs, diamonds or spades: win it with the highest card."""
FLUSH: Final = 16
"""Holding no spade from the Q♠ up while the Q♠ is out: lead low spades sooner."""
UNDER_Q: Final = 32
"""Following spades, unable to duck, not last, the Q♠ out: the highest spade under it."""
VOID_LEAD: Final = 64
"""Leading: avoid a suit another seat has shown it lacks (it may throw points on it)."""
MOON: Final = 128
"""One seat has every point taken so far, ``MOON_RUN`` or more: it runs for the moon
(takes what it can, feeds no points to others), the others stop it (take a point trick,
lead the top heart, feed it no points): ``choose_moon``."""
MOON_RUN: Final = 16
"""Points one seat must hold alone (all that were taken) for ``MOON``'s run and stop."""
POLICY_OPTIONS: Final = {"win": WIN_LAST, "flush": FLUSH, "underq": UNDER_Q, "void": VOID_LEAD,
                         "moon": MOON}
"""The optional rules by name (``HardBot(policy=...)``, the arena's ``hard:N:win+...``)."""


def rules_flags(rules: Rules) -> int:
    """The rules as the flag bits ``playout`` and ``choose`` take."""
    return ((NO_POINTS_FIRST if rules.no_points_on_first_trick else 0)
            | (MUST_BREAK if rules.must_break_hearts else 0)
            | (QS_BREAKS if rules.qs_breaks_hearts else 0))


def choose(hand: int, n: int, led: int, top: int, first: bool, broken: bool,
           qs_out: bool, flags: int, played: int, points: int = 0, voids: int = 0) -> int:
    """The policy's card (an index) for a seat holding ``hand``.

    ``n`` cards are already in the trick; ``led`` is the led suit and ``top`` the index of
    the highest card of that suit so far (both ignored when leading). ``qs_out`` means the
    Q♠ has not been played yet; ``played`` is the mask of every card played this hand;
    ``points`` the hearts and Q♠ points in the trick so far; ``voids`` the voids shown
    (bit ``suit * 4 + seat``).
    """
    if n == 0:
        if first:
            legal = hand & 1 or hand  # the 2♣ leads the first trick
        elif flags & MUST_BREAK and not broken:
            legal = hand & _NOT_HEARTS or hand
        else:
            legal = hand
        if qs_out:
            legal = legal & ~_DANGER or legal
        # Lead the card least likely to win: fewest unseen cards of its suit below it, as
        # a share of the unseen cards of the suit; a suit nobody else holds is the worst.
        out = ~played & ~hand
        best = -1
        best_score = 99.0
        flush = flags & FLUSH and qs_out and not hand & _DANGER
        shown = voids if flags & VOID_LEAD else 0
        for base in (0, 13, 26, 39):
            part = (legal >> base) & 0x1FFF
            if part:
                low = part & -part
                others = (out >> base) & 0x1FFF
                score = ((others & (low - 1)).bit_count() / others.bit_count() if others
                         else 2.0)
                if flush and base == 39:
                    score *= 0.5  # draw the Q♠ out: our spades are all lower
                if shown >> (base * 4 // 13) & 15:
                    score += 0.5  # someone can throw points on it
                if score < best_score:
                    best_score = score
                    best = base + low.bit_length() - 1
        return best
    follow = hand & _SUIT[led]
    if follow:
        if n == 3 and flags & WIN_LAST and not points and led != 2:
            keep = follow & ~_QS or follow
            return keep.bit_length() - 1  # a clean trick: shed the highest card on it
        below = follow & ((1 << top) - 1)
        if below:
            return below.bit_length() - 1  # the highest card that still ducks
        keep = follow & ~_QS or follow
        if n == 3:
            return keep.bit_length() - 1  # taking it anyway: shed the highest
        if flags & UNDER_Q and led == 3 and qs_out:
            under = keep & (_QS - 1)
            if under:
                return under.bit_length() - 1  # the highest spade the Q♠ can't land on
        return (keep & -keep).bit_length() - 1
    legal = (hand & _NOT_POINTS or hand) if first and flags & NO_POINTS_FIRST else hand
    if legal & _QS:
        return _QS_I
    if qs_out and legal & _HIGH_SPADES:
        return (legal & _HIGH_SPADES).bit_length() - 1
    # Shed the card most likely to win a trick later (most unseen cards below it, few
    # above); hearts count extra as they carry a point.
    out = ~played & ~hand
    best = -1
    best_score = -1.0
    for base in (0, 13, 26, 39):
        part = (legal >> base) & 0x1FFF
        if part:
            r = part.bit_length()
            others = (out >> base) & 0x1FFF
            below = (others & ((1 << (r - 1)) - 1)).bit_count()
            score = (below + 1) / (others.bit_count() + 1)
            if base == 26:
                score += 0.5
            if score > best_score:
                best_score = score
                best = base + r - 1
    return best


def runner_of(points: list[int]) -> int:
    """The seat running for the moon (``MOON``): the one that has taken every point so far,
    ``MOON_RUN`` or more with some still out; -1 if none."""
    total = points[0] + points[1] + points[2] + points[3]
    if MOON_RUN <= total < 26:
        for seat in range(4):
            if points[seat] == total:
                return seat
    return -1


def moon_role(runner: int, seat: int, leader: int, n: int, top_at: int) -> int:
    """``choose_moon``'s ``role`` for ``seat`` when ``runner`` runs (``runner_of``): 1 the
    runner itself, 2 a seat that must stop it (the runner wins the trick so far or is still
    to play to it), 0 none (a point on this trick goes to another seat anyway)."""
    if seat == runner:
        return 1
    if n == 0 or (leader + top_at) & 3 == runner or (runner - leader) & 3 > n:
        return 2
    return 0


def choose_moon(hand: int, n: int, led: int, top: int, first: bool, broken: bool,
                qs_out: bool, flags: int, played: int, points: int, voids: int,
                role: int) -> int:
    """``choose`` for a seat with a ``role`` in a run at the moon (``moon_role``).

    The runner (1) wins every trick it can (the lowest winning card when last, else its
    highest), leads a card no unseen card beats (the top heart first) and, void, sheds a
    card without points. A stopper (2) leads the top heart if it holds it (a point trick
    of its own), wins a trick with points with its highest card (the Q♠ kept) and, void,
    sheds no point on the runner. Otherwise the plain policy's card.
    """
    if role and not first:
        if n == 0:
            legal = hand & _NOT_HEARTS or hand if flags & MUST_BREAK and not broken else hand
            out = _ALL & ~played & ~hand
            hearts = legal & HEARTS_MASK
            if hearts and hearts.bit_length() > (out & HEARTS_MASK).bit_length():
                return hearts.bit_length() - 1  # the top heart: a point trick that's ours
            if role == 1:
                for suit in (3, 1, 0):
                    part = legal & _SUIT[suit]
                    if part and part.bit_length() > (out & _SUIT[suit]).bit_length():
                        return part.bit_length() - 1  # a card nobody can beat
        else:
            follow = hand & _SUIT[led]
            if follow:
                if role == 1 or points or led == 2:
                    keep = follow if role == 1 else follow & ~_QS or follow
                    winners = keep >> (top + 1)
                    if winners:
                        if n == 3:
                            return top + 1 + (winners & -winners).bit_length() - 1
                        return keep.bit_length() - 1
            else:
                clean = hand & _NOT_POINTS
                if clean:
                    if role == 1:
                        # The card least likely to win a trick later: the lowest of a suit.
                        best = -1
                        best_score = 99.0
                        out = ~played & ~hand
                        for base in (0, 13, 39):
                            part = (clean >> base) & 0x1FFF
                            if part:
                                low = part & -part
                                others = (out >> base) & 0x1FFF
                                score = ((others & (low - 1)).bit_count() + 1) / (
                                    others.bit_count() + 1)
                                if score < best_score:
                                    best_score = score
                                    best = base + low.bit_length() - 1
                        return best
                    hand = clean  # no point for the runner: shed as usual among the rest
    return choose(hand, n, led, top, first, broken, qs_out, flags, played, points, voids)


def voids_of(seat_voids: tuple[int, int, int, int] | list[int]) -> int:
    """The voids of ``PlayerView.voids()`` (suit masks per seat) as ``playout`` takes them."""
    bits = 0
    for seat, mask in enumerate(seat_voids):
        for suit in range(4):
            if mask & _SUIT[suit]:
                bits |= 1 << (suit * 4 + seat)
    return bits


def playout(hands: list[int], trick: list[int], leader: int, broken: bool,
            tricks_done: int, points: list[int], flags: int, first_card: int = -1,
            jd_taker: list[int] | None = None, voids: int = 0) -> list[int]:
    """Play the hand to its end with the policy; return ``points`` (updated in place).

    ``hands`` (masks, mutated), the cards of the trick in progress (not changed) led by
    ``leader``, whether hearts are broken, completed tricks and points taken so far.
    ``first_card``, if given, is played by the seat to play instead of the policy's card
    (it must be legal; nothing is checked). ``jd_taker``, if given, gets in its first
    item the seat that wins the J♦ if it is played from here on (the points stay the
    hearts and the Q♠ only, so a moon is still 26 of them). ``voids``: the voids shown
    so far (``voids_of``), for the policy's ``VOID_LEAD`` rule.
    """
    held = hands[0] | hands[1] | hands[2] | hands[3]
    played = _ALL & ~held
    qs_out = bool(held & _QS)
    n = len(trick)
    led = top = top_at = 0
    trick_points = 0
    # Whether the J♦ is still to be won: checked once per trick, not per card.
    jd_open = jd_taker is not None and not (played & _JD and _JD_I not in trick)
    if n:
        led = trick[0] // 13
        top = trick[0]
        for at in range(1, n):
            card = trick[at]
            if card // 13 == led and card > top:
                top, top_at = card, at
        for card in trick:
            if 26 <= card <= 38:
                trick_points += 1
            elif card == _QS_I:
                trick_points += 13
    seat = (leader + n) & 3
    moon = flags & MOON
    runner = runner_of(points) if moon else -1
    while tricks_done < 13:
        hand = hands[seat]
        if first_card >= 0:
            card = first_card
            first_card = -1
        elif runner >= 0:
            # moon_role, inline
            if seat == runner:
                role = 1
            elif n == 0 or (leader + top_at) & 3 == runner or (runner - leader) & 3 > n:
                role = 2
            else:
                role = 0
            if role:
                card = choose_moon(hand, n, led, top, tricks_done == 0, broken, qs_out,
                                   flags, played, trick_points, voids, role)
            else:
                card = choose(hand, n, led, top, tricks_done == 0, broken, qs_out, flags,
                              played, trick_points, voids)
        else:
            card = choose(hand, n, led, top, tricks_done == 0, broken, qs_out, flags, played,
                          trick_points, voids)
        hands[seat] = hand ^ (1 << card)
        played |= 1 << card
        if n == 0:
            led = card // 13
            top = card
            top_at = 0
        elif card // 13 != led:
            voids |= 1 << (led * 4 + seat)
        elif card > top:
            top = card
            top_at = n
        if 26 <= card <= 38:
            trick_points += 1
            broken = True
        elif card == _QS_I:
            trick_points += 13
            qs_out = False
            if flags & QS_BREAKS:
                broken = True
        if n == 3:
            winner = (leader + top_at) & 3
            if trick_points:
                points[winner] += trick_points
                trick_points = 0
                if moon:  # runner_of, inline: only this trick's winner can be alone
                    taken = points[winner]
                    runner = (winner if MOON_RUN <= taken < 26 and taken == points[0]
                              + points[1] + points[2] + points[3] else -1)
            if jd_open and played & _JD:  # the J♦ was in this very trick
                assert jd_taker is not None
                jd_taker[0] = winner
                jd_open = False
            tricks_done += 1
            leader = seat = winner
            n = 0
        else:
            n += 1
            seat = (seat + 1) & 3
    return points
