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
from hearts.rules import NUM_SEATS, Rules, legal_mask
from web.p2p.fair.public import PublicHand, Score
from web.p2p.fair.transcript import Cheat, Fault, Play, Transcript

__all__ = ["CHARGE", "charged", "played_fault", "played_scores", "withheld"]

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
