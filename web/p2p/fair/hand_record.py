"""A fair hand's public record: every message any page broadcast, and what follows from it.

Every page keeps one (``transcript.Transcript``: a record that takes each message only
through the checks made on its arrival) and feeds it the same messages, its own included.
This is the record as read: where the hand is, what each seat's step starts from, and the
digest the pages compare before they show their keys.

Slots: after the shuffle the deck's order is fixed; slot ``i`` (0..51) is dealt to seat
``i // 13``. Every value here is a number mod p (``group.Group``). Once opened, a dealt
card is public only under its owner's shuffling key ``e`` (committed to as ``g**e`` with
the shuffle), a passed card under a one-card key of its receiver.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Generator, Iterator
from dataclasses import astuple, dataclass

from hearts.cards import Card, Suit
from hearts.rules import NUM_SEATS, PassDirection
from hearts.steps import run
from web.p2p.fair.group import GROUP, Group
from web.p2p.fair.shuffle_proof import ShuffleProof
from web.p2p.fair.signing import Signed

__all__ = ["OPEN_ROUNDS", "HandRecord", "Play", "Reveal", "chain_seat", "slots_of"]

OPEN_ROUNDS = 3
"""Each seat's 13 cards are opened by the three other seats in turn (see ``chain_seat``)."""


@dataclass(frozen=True)
class Play:
    """A card played from a slot, and why everyone believes it: for a dealt card, a
    Chaum–Pedersen proof ``(t1, t2, z)`` that the slot holds it under the seat's shuffling
    key; for a card passed to the seat, its one-card key ``(k,)``."""

    seat: int
    slot: int
    card: Card
    proof: tuple[int, ...]


@dataclass(frozen=True)
class Reveal:
    """A page's keys, shown once the hand is over: everything the audit needs."""

    seat: int
    shuffle_key: int
    """The exponent it locked the whole deck with while shuffling (its own cards stay so)."""
    slot_keys: tuple[int, ...]
    """52 short keys, one per slot: on another seat's slot its lock is (shuffle·slot)⁻¹."""
    blind_keys: tuple[int, ...]
    """Its short keys of the three cards passed to it (empty in a hand without passing)."""


def slots_of(seat: int) -> range:
    """The slots dealt to ``seat``."""
    return range(13 * seat, 13 * seat + 13)


def chain_seat(owner: int, round_: int) -> int:
    """The seat that takes its key off ``owner``'s cards in opening round 1, 2 or 3."""
    return (owner + round_) % NUM_SEATS


class HandRecord:
    """The public record of one hand, in protocol order, as read (``Transcript`` appends)."""

    def __init__(self, direction: PassDirection, group: Group = GROUP, *, table: str = "",
                 hand: int = 1) -> None:
        """``table``: what names this table among all others (every page gives the same);
        ``hand``: the hand's number. Both go into every proof's challenge (``context``)."""
        self.group = group
        self.direction = direction
        self.table = table
        self.hand = hand
        self.shuffles: list[tuple[int, ...]] = []
        """Stage 1: the deck after seat 0, 1, 2, 3 locked it with one key and shuffled it."""
        self.commitments: list[int] = []
        """Each seat's ``g**e`` for its shuffling key ``e``, sent with its shuffle."""
        self.shuffle_proofs: dict[int, ShuffleProof] = {}
        """Seat -> the proof that its shuffle is one (``shuffle_proof``), sent after it."""
        self.proven: set[int] = set()
        """The seats whose shuffle proof this page checked (its own: it made it). No page
        opens a card before all four are in (``steps.due_step``)."""
        self.locks: list[tuple[int, ...]] = []
        """Stage 2: the deck after seat 0, 1, 2, 3 put a key per slot on every other seat's
        slots (its own it leaves as they are: the others open them to it)."""
        self.opened: dict[tuple[int, int], tuple[int, ...]] = {}
        """(round, seat) -> the 13 values of its round's cards once it took its key off."""
        self.pass_slots: dict[int, tuple[int, ...]] = {}
        self.blinded: dict[int, tuple[int, ...]] = {}
        """Receiver -> its own key put on the three cards passed to it."""
        self.unblinded: dict[int, tuple[int, ...]] = {}
        """Passer -> the three cards with its key taken off (only the receiver's key left)."""
        self.hidden: list[int] = []
        """Each slot's card under its owner's key alone (known once the cards are opened)."""
        self.owner = [slot // 13 for slot in range(52)]
        self.passed_slots: set[int] = set()
        self.plays: list[Play] = []
        self.complaint: int | None = None
        """The first seat that said a card of its own doesn't open (or a shuffle proof
        fails): the hand stops there."""
        self.complainers: set[int] = set()
        self.closers: set[int] = set()
        """Seats whose page said it closed the table (``fair_closed``): it sends nothing
        more, and is never named for what it didn't send after."""
        self.digests: dict[int, str] = {}
        """Each page's digest of its record, sent before the keys (see ``digest``)."""
        self.echoes: dict[int, tuple[str, ...]] = {}
        """Each page's echo, sent with its digest: per seat, the hash of the signed
        messages it took from that seat (``signing.echo``)."""
        self.evidence: dict[int, tuple[Signed, ...]] = {}
        """Each page's signed messages, sent when digests or echoes differ."""
        self.reveals: dict[int, Reveal] = {}
        self._digested: tuple[object, str] | None = None

    def context(self, kind: str, seat: int, slot: int) -> bytes:
        """What a proof by ``seat`` of ``kind`` ("blind", "play") about ``slot`` is bound
        to: this table, this hand, the seat, the kind of message and the slot. A proof
        copied from another table, hand, seat or step has another challenge, so fails."""
        return json.dumps([self.table, self.hand, kind, seat, slot]).encode()

    # --- where the hand is ------------------------------------------------------------------
    def opened_round(self, round_: int) -> bool:
        """Whether all four seats have sent opening round ``round_`` (round 0: the deck locked)."""
        if round_ == 0:
            return len(self.locks) == NUM_SEATS
        return all((round_, seat) in self.opened for seat in range(NUM_SEATS))

    @property
    def dealt(self) -> bool:
        """Every card is under its owner's key alone."""
        return bool(self.hidden)

    @property
    def passed(self) -> bool:
        """The cards changed hands (or the hand has no passing)."""
        if self.direction is PassDirection.NONE:
            return self.dealt
        return len(self.unblinded) == NUM_SEATS

    def passer_to(self, seat: int) -> int:
        """The seat whose three cards go to ``seat``."""
        return (seat - int(self.direction)) % NUM_SEATS

    @property
    def to_play(self) -> int | None:
        """The seat to play; None before the first card (whoever holds the 2♣ leads it)."""
        if not self.plays:
            return None
        trick = self._current_trick()
        if trick:
            return (trick[-1].seat + 1) % NUM_SEATS
        return self._last_winner()

    @property
    def finished(self) -> bool:
        """All 52 cards have been played."""
        return len(self.plays) == 52

    @property
    def trick(self) -> list[Play]:
        """The cards of the trick being played (empty between tricks)."""
        return self._current_trick()

    @property
    def hearts_broken(self) -> bool:
        """Whether a heart has been played (the Q♠ never breaks hearts in our rules)."""
        return any(p.card.suit == Suit.HEARTS for p in self.plays)

    @property
    def over(self) -> bool:
        """Every card was played, or someone's card didn't open: time to show the keys."""
        return self.finished or self.complaint is not None

    def _current_trick(self) -> list[Play]:
        return self.plays[len(self.plays) - len(self.plays) % 4:]

    def _last_winner(self) -> int:
        trick = self.plays[len(self.plays) - 4:]
        led = trick[0].card.suit
        return max((p for p in trick if p.card.suit == led), key=lambda p: p.card.rank).seat

    # --- what each step starts from ---------------------------------------------------------
    def deck_before_shuffle(self, seat: int) -> tuple[int, ...]:
        """What ``seat`` shuffles: the plain card numbers, or the seat before's deck."""
        return self.group.codes if seat == 0 else self.shuffles[seat - 1]

    def deck_before_lock(self, seat: int) -> tuple[int, ...]:
        """What ``seat`` locks: the shuffled deck, or the seat before's locked deck."""
        return self.shuffles[-1] if seat == 0 else self.locks[seat - 1]

    def open_input(self, seat: int, round_: int) -> tuple[list[int], tuple[int, ...]]:
        """The slots ``seat`` opens in ``round_`` and their values before it does."""
        owner = (seat - round_) % NUM_SEATS
        slots = list(slots_of(owner))
        if round_ == 1:
            return slots, tuple(self.locks[-1][slot] for slot in slots)
        return slots, self.opened[(round_ - 1, chain_seat(owner, round_ - 1))]

    def unproven(self) -> list[int]:
        """The seats whose shuffle proof is in, and not yet checked by this page."""
        return [s for s in sorted(self.shuffle_proofs) if s not in self.proven]

    def proof_statement(self, seat: int) -> tuple[tuple[int, ...], tuple[int, ...], int, bytes]:
        """What ``seat``'s shuffle proof must show: the deck before, after, its key's
        commitment and the proof's context."""
        return (self.deck_before_shuffle(seat), self.shuffles[seat], self.commitments[seat],
                self.context("shuffle", seat, 0))

    @property
    def shuffles_proven(self) -> bool:
        """Every seat's shuffle is proven to this page: cards may be opened."""
        return len(self.proven) == NUM_SEATS

    # --- the hand's end: the digests --------------------------------------------------------
    @property
    def stopped_at_deal(self) -> bool:
        """The hand stopped before its cards were dealt (a shuffle proof failed)."""
        return self.complaint is not None and not self.dealt

    @property
    def stopped_by_complaint(self) -> bool:
        """The hand stopped, its cards dealt, because a card didn't open to its seat (not
        because a card was played twice): the plays don't matter to who spoilt it, and a
        play sent before the complaint reached a page may or may not be in its record."""
        return self.dealt and self.complaint is not None and self.complaint in self.complainers

    def digest(self) -> str:
        """SHA-256 of everything in this record but the keys, in hex: of the JSON text of
        ``_record`` (written in pieces, ``_record_pieces``); kept while the record stays as
        it is (each part only grows).

        A page could send different values to different pages; each would then audit a
        different hand, and one page's honest step could look false against another's
        record. So before the keys, every page sends its digest: when they differ, nobody
        can be named (that would take signed messages) and the hand doesn't count.
        """
        return run(self.digest_steps())

    def digest_made(self) -> bool:
        """Whether ``digest`` is kept for the record as it is now (no work to make it)."""
        return self._digested is not None and self._digested[0] == self._digest_state()

    def _digest_state(self) -> object:
        return (len(self.shuffles), len(self.shuffle_proofs), len(self.locks),
                len(self.opened), len(self.pass_slots), len(self.blinded),
                len(self.unblinded), len(self.plays), self.complaint, self.dealt)

    def digest_steps(self) -> Generator[None, None, str]:
        """``digest``, a piece of the record a step (a shuffle's proof, a deck): its text is
        some 300 000 characters, some 40 ms to write and hash on a phone."""
        state = self._digest_state()
        if self._digested is None or self._digested[0] != state:
            text = hashlib.sha256()
            for piece in self._record_pieces():
                text.update(piece)
                yield
            self._digested = state, text.hexdigest()
        return self._digested[1]

    def _record(self) -> list[object]:
        proofs = [(s, astuple(p)) for s, p in sorted(self.shuffle_proofs.items())]
        record: list[object] = [self.direction.value, self.shuffles, self.commitments, proofs]
        if not self.stopped_at_deal:
            # Stopped by a false proof, what comes after the shuffles (locks on their way)
            # may differ from page to page; the shuffles and their proofs may not.
            record += [self.locks, sorted(self.opened.items()), sorted(self.pass_slots.items()),
                       sorted(self.blinded.items()), sorted(self.unblinded.items()),
                       [] if self.stopped_by_complaint else
                       [(p.seat, p.slot, p.card.notation, p.proof) for p in self.plays],
                       self.complaint]
        return record

    def _record_pieces(self) -> Iterator[bytes]:
        """``json.dumps(self._record())``'s text, compact, in pieces: each item of each of
        its lists (a deck, a proof) a piece."""
        yield b"["
        for i, part in enumerate(self._record()):
            if isinstance(part, list | tuple):
                yield b",[" if i else b"["
                for j, item in enumerate(part):
                    yield (b"," if j else b"") + _json(item)
                yield b"]"
            else:
                yield (b"," if i else b"") + _json(part)
        yield b"]"

    @property
    def agreed(self) -> bool:
        """Every page's digest and echoes are in, and all agree: keys may be shown."""
        return len(self.digests) == NUM_SEATS and not self.disagreeing \
            and len(set(self.echoes.values())) == 1

    @property
    def disputed(self) -> bool:
        """Every page's digest and echoes are in, and they don't all agree."""
        return len(self.digests) == NUM_SEATS and not self.agreed

    @property
    def disagreeing(self) -> list[int]:
        """The seats whose digest differs from this page's record."""
        mine = self.digest()
        return [seat for seat, digest in sorted(self.digests.items()) if digest != mine]


def _json(value: object) -> bytes:
    return json.dumps(value, default=repr, separators=(",", ":")).encode()
