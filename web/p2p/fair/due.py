"""What one page owes the fair deal's protocol now: the next message it must send, if any.

A pure function of the public record and the page's ``Party``: the three opening rounds
(the shuffle and the lock, due in seat order, are ``shuffle_due`` and ``lock_due``: the page
makes them in slices), the blind and unblind of a pass (``blind_due``, ``unblind_due``: the
page makes these in slices too), the digest and the keys at the hand's end
— the keys only once the four digests agree (``docs/protocol.md``, the message table). The
page's own moves — its pass, its cards — are its person's, not here.
"""

from __future__ import annotations

from hearts.rules import NUM_SEATS, PassDirection, pass_target
from web.p2p.fair.party import Party
from web.p2p.fair.transcript import Transcript

__all__ = ["blind_due", "digest_due", "due_step", "lock_due", "open_due", "open_round",
           "shuffle_due", "unblind_due"]

Step = tuple[str, dict[str, object]]
"""A message's type and fields (``wire.message``)."""


def open_round(t: Transcript, seat: int) -> int | None:
    """The opening round ``seat`` owes now (None: none)."""
    return next((r for r in (1, 2, 3) if t.opened_round(r - 1) and (r, seat) not in t.opened),
                None)


def shuffle_due(t: Transcript, seat: int) -> bool:
    """Whether ``seat`` owes its shuffle now (stage 1, in seat order). Apart from
    ``due_step``: the page makes it in slices (``Party.shuffle_steps``)."""
    return len(t.shuffles) == seat


def lock_due(t: Transcript, seat: int) -> bool:
    """Whether ``seat`` owes its lock now (stage 2, in seat order). Apart from
    ``due_step``, like the shuffle (``Party.lock_steps``)."""
    return len(t.shuffles) == NUM_SEATS and len(t.locks) == seat


def open_due(t: Transcript, seat: int) -> int | None:
    """The opening round ``seat`` owes now, if it may open (never on an unproven shuffle).
    Apart from ``due_step``, like the shuffle (``Party.open_steps``)."""
    round_ = open_round(t, seat)
    return round_ if round_ is not None and t.shuffles_proven and not t.over else None


def unblind_due(t: Transcript, seat: int) -> bool:
    """Whether ``seat`` owes its unblind now (its three full-size powers: the page may make
    it in slices, ``Party.unblind_steps``)."""
    return (t.direction is not PassDirection.NONE and not t.over and seat in t.pass_slots
            and pass_target(seat, t.direction) in t.blinded and seat not in t.unblinded)


def blind_due(t: Transcript, seat: int) -> bool:
    """Whether ``seat`` owes its blind now (some one and a half full-size powers: the page
    may make it in slices, ``Party.blind_steps``)."""
    return (t.direction is not PassDirection.NONE and not t.over
            and t.passer_to(seat) in t.pass_slots and seat not in t.blinded)


def digest_due(t: Transcript, seat: int) -> bool:
    """Whether ``seat`` owes its digest of the record now: the hand is over (a deal
    stopped by a false proof too: the digest covers the four shuffles and proofs). The page
    may make it in slices first (``HandRecord.digest_steps``)."""
    return t.over and seat not in t.digests and (t.dealt or len(t.shuffle_proofs) == NUM_SEATS)


def due_step(t: Transcript, p: Party, opens: bool = True) -> Step | None:
    """The message the page of ``p`` must send now, if its turn in the protocol has come
    (``opens``: an opening round, the blind and the unblind too; else the page makes those
    in slices)."""
    me = p.seat
    round_ = open_due(t, me)
    if round_ is not None and opens:
        return "fair_open", {"round": round_, "values": p.open(round_)}
    if blind_due(t, me) and opens:
        values, proofs = p.blind()
        return "fair_blind", {"values": values, "proofs": proofs}
    if unblind_due(t, me) and opens:
        return "fair_unblind", {"values": p.unblind()}
    if digest_due(t, me):
        return "fair_digest", {"sha256": t.digest()}  # the table adds its echo
    if t.agreed and me not in t.reveals:
        keys = p.reveal()
        return "fair_keys", {"shuffle": keys.shuffle_key, "slots": keys.slot_keys,
                             "blinds": keys.blind_keys}
    return None
