"""A hand every card of which was played: its rules of play checked from the plays alone.

Every card played came with its proof, checked on arrival by every page: it is the card
of a slot its seat was dealt or passed (``Transcript.add_play``). Once the 52 are in, a
seat's hand when play began is exactly the 13 cards it played, so whether each card
followed suit, kept points off the first trick and led a heart only once hearts were
broken can be checked without a single key. So the hand's points are decided by the cards
played: what a page sends or withholds after its last card (a digest, an echo, its keys,
its evidence) can name it, never undo the hand (``docs/protocol.md``, "A hand stopped after
the deal"). No I/O.
"""

from __future__ import annotations

from collections.abc import Sequence

from hearts.cards import SUIT_MASKS, Card
from hearts.handstate import HandState
from hearts.rules import NUM_SEATS, Rules, hand_scores, legal_mask
from web.p2p.fair.public import PublicHand, Score
from web.p2p.fair.transcript import Cheat, Fault, Play, Transcript

__all__ = ["CHARGE", "charged", "first_to_leave", "left", "left_points", "played_fault",
           "played_scores", "to_move", "withheld"]

CHARGE = 26
"""What a page named in a hand dealt takes: every point of the hand (``charged``)."""


def played_fault(plays: Sequence[Play], rules: Rules) -> Fault | None:
    """The first rule of play broken among 52 ``plays`` (None: none), each seat's hand
    being the cards it played."""
    if len(plays) != 52:
        raise ValueError("only a hand whose 52 cards were played is checked from its plays")
    hands = [0] * NUM_SEATS
    for play in plays:
        hands[play.seat] |= play.card.mask
    state = HandState(hands, rules)
    for play in plays:
        card = play.card
        if play.seat != state.to_play:
            return Fault(play.seat, Cheat.OUT_OF_TURN, card)
        hand = state.hands[play.seat]
        if not legal_mask(hand, state.led_suit, state.tricks_done == 0, state.broken,
                          rules) & card.mask:
            return Fault(play.seat, _why(hand, state, card), card,
                         state.led_suit if state.led_suit >= 0 else None)
        state.apply(card.index)
    return None


def _why(hand: int, state: HandState, card: Card) -> Cheat:
    if state.led_suit >= 0:
        return Cheat.REVOKE if hand & SUIT_MASKS[state.led_suit] else Cheat.FIRST_TRICK
    return Cheat.NOT_2C if state.tricks_done == 0 else Cheat.UNBROKEN


def played_scores(plays: Sequence[Play], rules: Rules) -> Score:
    """The hand's points as played (the moon shot as the rules say)."""
    return PublicHand(tuple(plays)).scores(rules)


def charged(seat: int) -> Score:
    """The hand as charged to ``seat``: all its points to it, none to the others. It is at
    least what ``seat`` would have taken had it been played out (26 at most, a moon shot
    included), and no other seat takes more than it would have: so stopping a hand never
    pays."""
    a, b, c, d = (CHARGE if s == seat else 0 for s in range(NUM_SEATS))
    return a, b, c, d


def left(plays: Sequence[Play], seat: int, held: Sequence[int], rules: Rules) -> Score:
    """A hand the page at ``seat`` left after the deal, before its last card, scored as far
    as it went (``left_points``): each seat keeps the points of the tricks finished when
    that page played its last card (of ``seat`` or of the other seats it ``held``: a
    computer it played), and ``seat`` takes every point not yet taken. Cut at the page's
    last card, the count is the same at every page, the one that left included: no trick
    after it can finish without that page."""
    mine = {seat, *held}
    last = max((i for i, p in enumerate(plays) if p.seat in mine), default=-1)
    return left_points(PublicHand(tuple(plays[:last + 1])).points(), seat, rules)


def left_points(taken: Score, seat: int, rules: Rules) -> Score:
    """The hand's scores from the points of the tricks ``taken`` when ``seat`` left it:
    each keeps its own, and ``seat`` takes the rest; but one player takes all 26 only by
    shooting the moon (``hearts.rules.possible_hand_scores``), so where the rest would make
    them all ``seat``'s, it takes 25 and the next player 1. A moon already shot (one seat
    took all 26) counts as played. So against any play-out of the tricks taken without a
    moon, ``seat`` scores at least what it would have and every other seat at most (the
    next player aside, by that one point); and leaving never makes a moon."""
    if CHARGE in taken:
        return hand_scores(taken, rules)[0]
    bill = [t + (CHARGE - sum(taken) if s == seat else 0) for s, t in enumerate(taken)]
    if bill[seat] == CHARGE:
        bill[seat] -= 1
        bill[(seat + 1) % NUM_SEATS] += 1
    a, b, c, d = bill
    return a, b, c, d


def to_move(plays: Sequence[Play]) -> int:
    """The seat to move after ``plays``, as every page sees it from the plays alone (South
    before the first card: who holds the 2♣ is no page's to know)."""
    hand = PublicHand(tuple(plays))
    if len(plays) % 4:
        return (plays[-1].seat + 1) % NUM_SEATS
    tricks = hand.tricks()
    winner = tricks[-1].winner if tricks else None
    return 0 if winner is None else winner


def first_to_leave(gone: Sequence[int], plays: Sequence[Play]) -> int:
    """Of the seats whose pages left at once, the one charged: the first in play order
    from the seat to move."""
    start = to_move(plays)
    return min(gone, key=lambda s: (s - start) % NUM_SEATS)


def withheld(t: Transcript, shown: bool) -> Fault | None:
    """The page that keeps a hand, every card of it played, from its check, once the table
    has waited beyond any turn: the first without its digest (a page that lacked a card
    asked for it and was sent it: ``relay``), or, the four digests agreeing and ``shown``
    (relayed to every page), the first without its keys. Never a page that said it closed
    (it caught a cheat only it was sent, say)."""
    if not t.finished or t.complaint is not None:
        return None
    missing = [s for s in range(NUM_SEATS) if s not in t.digests and s not in t.closers]
    if missing:
        return Fault(missing[0], Cheat.NO_DIGEST)
    if t.agreed and shown:
        return next((Fault(s, Cheat.NO_KEYS) for s in range(NUM_SEATS)
                     if s not in t.reveals and s not in t.closers), None)
    return None
