"""The public record of a fair hand: every message any page broadcast, checked on arrival.

Every page keeps one ``Transcript`` and feeds it the same messages (its own included;
``wire.receive`` reads them). What can be checked at once is checked at once and raises
``CheatDetected`` naming the seat: a deck that isn't 52 different numbers, a seat changing
its own slots while locking, a pass of cards not one's own, a blind without its proof, a
played card that wasn't dealt or passed to that seat or whose proof fails, a play out of
turn.
What needs the keys (was the shuffle honest, was each play legal) waits for the audit.

Slots: after the shuffle the deck's order is fixed; slot ``i`` (0..51) is dealt to seat
``i // 13``. Every value here is a number mod p (``group.Group``). Once opened, a dealt
card is public only under its owner's shuffling key ``e`` (committed to as ``g**e`` with
the shuffle), a passed card under a one-card key of its receiver.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Generator
from dataclasses import astuple, dataclass

from hearts.cards import Card, Suit
from hearts.rules import NUM_SEATS, TWO_OF_CLUBS, PassDirection, pass_target
from web.blame import Cheat, Fault
from web.p2p.fair.group import GROUP, Group
from web.p2p.fair.proofs import check_power, check_same_power
from web.p2p.fair.shuffle_proof import ShuffleProof, check_shuffle_steps
from web.p2p.fair.signing import Signed, parse_item

__all__ = ["Cheat", "CheatDetected", "Fault", "Play", "Reveal", "Transcript", "slots_of"]

OPEN_ROUNDS = 3
"""Each seat's 13 cards are opened by the three other seats in turn (see ``chain_seat``)."""


class CheatDetected(Exception):
    """A message broke the protocol; ``fault`` names the seat."""

    def __init__(self, fault: Fault) -> None:
        super().__init__(f"seat {fault.seat}: {fault.kind.value}")
        self.fault = fault


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


class Transcript:
    """The public record of one hand, in protocol order; appending checks each message."""

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

    # --- stage 1 and 2: the shuffle and the lock --------------------------------------------
    def add_shuffle(self, seat: int, deck: tuple[int, ...], commitment: int) -> None:
        """Seat ``seat`` locked the deck with one key and shuffled it; ``commitment`` is
        ``g**e`` for that key."""
        self._in_turn(seat, len(self.shuffles) == seat)
        self._check_deck(seat, deck)
        self._check_values(seat, (commitment,), 1)
        self.shuffles.append(deck)
        self.commitments.append(commitment)

    def add_shuffle_proof(self, seat: int, proof: ShuffleProof) -> None:
        """Seat ``seat``'s proof that its shuffle is one; checked later, in slices, by the
        page (``unproven``, ``proven``): it is the longest check of the hand. Its numbers'
        membership of the group too (161 Jacobi symbols, a third of a frame): a number
        outside it fails the proof, and no card is opened on a proof that fails."""
        self._in_turn(seat, seat < len(self.shuffles) and seat not in self.shuffle_proofs)
        self.shuffle_proofs[seat] = proof

    def unproven(self) -> list[int]:
        """The seats whose shuffle proof is in, and not yet checked by this page."""
        return [s for s in sorted(self.shuffle_proofs) if s not in self.proven]

    def proof_statement(self, seat: int) -> tuple[tuple[int, ...], tuple[int, ...], int, bytes]:
        """What ``seat``'s shuffle proof must show: the deck before, after, its key's
        commitment and the proof's context."""
        return (self.deck_before_shuffle(seat), self.shuffles[seat], self.commitments[seat],
                self.context("shuffle", seat, 0))

    def check_proof(self, seat: int) -> Generator[None, None, bool]:
        """Whether ``seat``'s shuffle proof shows its ``proof_statement``, in steps
        (``shuffle_proof.check_shuffle_steps``)."""
        before, after, commitment, context = self.proof_statement(seat)
        return check_shuffle_steps(self.group, before, after, commitment,
                                   self.shuffle_proofs[seat], context)

    @property
    def shuffles_proven(self) -> bool:
        """Every seat's shuffle is proven to this page: cards may be opened."""
        return len(self.proven) == NUM_SEATS

    def add_lock(self, seat: int, deck: tuple[int, ...]) -> None:
        """Seat ``seat`` took its shuffling key off the other seats' slots, a key per slot on.

        Its own slots must come through as they were: were it to change them, the others
        would open whatever it put there to it — another seat's card, say.
        """
        self._in_turn(seat, len(self.shuffles) == NUM_SEATS and len(self.locks) == seat)
        self._check_deck(seat, deck)
        before = self.deck_before_lock(seat)
        if any(deck[slot] != before[slot] for slot in slots_of(seat)):
            raise CheatDetected(Fault(seat, Cheat.LOCK))
        self.locks.append(deck)

    def deck_before_shuffle(self, seat: int) -> tuple[int, ...]:
        """What ``seat`` shuffles: the plain card numbers, or the seat before's deck."""
        return self.group.codes if seat == 0 else self.shuffles[seat - 1]

    def deck_before_lock(self, seat: int) -> tuple[int, ...]:
        """What ``seat`` locks: the shuffled deck, or the seat before's locked deck."""
        return self.shuffles[-1] if seat == 0 else self.locks[seat - 1]

    # --- opening each seat's cards to it ----------------------------------------------------
    def open_input(self, seat: int, round_: int) -> tuple[list[int], tuple[int, ...]]:
        """The slots ``seat`` opens in ``round_`` and their values before it does."""
        owner = (seat - round_) % NUM_SEATS
        slots = list(slots_of(owner))
        if round_ == 1:
            return slots, tuple(self.locks[-1][slot] for slot in slots)
        return slots, self.opened[(round_ - 1, chain_seat(owner, round_ - 1))]

    def add_open(self, seat: int, round_: int, values: tuple[int, ...]) -> None:
        """``seat`` took its key off the cards it opens in ``round_`` (1, 2 or 3). Taken
        only once this page has checked every shuffle proof, and not after a complaint: so
        a deal stopped by a false proof has the same record at every honest page."""
        self._in_turn(seat, 1 <= round_ <= OPEN_ROUNDS and self.opened_round(round_ - 1)
                      and (round_, seat) not in self.opened and self.shuffles_proven
                      and self.complaint is None)
        self._check_values(seat, values, 13)
        self.opened[(round_, seat)] = values
        if self.opened_round(OPEN_ROUNDS):
            hidden = [0] * 52
            for chain in range(NUM_SEATS):
                owner = (chain - OPEN_ROUNDS) % NUM_SEATS
                for slot, value in zip(slots_of(owner), self.opened[(OPEN_ROUNDS, chain)],
                                       strict=True):
                    hidden[slot] = value
            self.hidden = hidden

    # --- passing ----------------------------------------------------------------------------
    def add_pass(self, seat: int, slots: tuple[int, ...]) -> None:
        """``seat`` passes the cards of these three slots (which slots is public, not cards)."""
        self._in_turn(seat, self.direction is not PassDirection.NONE and self.dealt
                      and seat not in self.pass_slots)
        if (len(slots) != 3 or len(set(slots)) != 3
                or any(type(s) is not int or not 0 <= s < 52 or self.owner[s] != seat
                       for s in slots)):
            raise CheatDetected(Fault(seat, Cheat.PASS_NOT_OWN))
        self.pass_slots[seat] = slots

    def add_blind(self, seat: int, values: tuple[int, ...],
                  proofs: tuple[tuple[int, ...], ...]) -> None:
        """``seat`` put a fresh key of its own on the three cards passed to it, with a proof
        for each that it locked that very value (or the passer would open any value it
        sent — another of the passer's cards — by taking its key off)."""
        self._in_turn(seat, self.passer_to(seat) in self.pass_slots and seat not in self.blinded)
        self._check_values(seat, values, 3)
        slots = self.pass_slots[self.passer_to(seat)]
        if len(proofs) != 3 or not all(
                check_power(self.group, self.hidden[slot], value, proof,
                            self.context("blind", seat, slot))
                for slot, value, proof in zip(slots, values, proofs, strict=True)):
            raise CheatDetected(Fault(seat, Cheat.BLIND))
        self.blinded[seat] = values

    def add_unblind(self, seat: int, values: tuple[int, ...]) -> None:
        """``seat`` took its own key off the three cards it passed: they are the receiver's."""
        target = pass_target(seat, self.direction)
        self._in_turn(seat, target in self.blinded and seat not in self.unblinded)
        self._check_values(seat, values, 3)
        self.unblinded[seat] = values
        for slot, value in zip(self.pass_slots[seat], values, strict=True):
            self.hidden[slot] = value
            self.owner[slot] = target
            self.passed_slots.add(slot)

    # --- play -------------------------------------------------------------------------------
    def add_play(self, seat: int, slot: int, card: Card, proof: tuple[int, ...]) -> Play:
        """``seat`` plays ``card`` from ``slot``; everyone checks the proof that it is there.

        A card played a second time (someone slipped a copy into another seat's slot) stops
        the hand as a complaint would: the audit finds who did it.
        """
        self._in_turn(seat, self.passed and not self.over and self.to_play in (None, seat))
        if (type(slot) is not int or not 0 <= slot < 52 or self.owner[slot] != seat
                or any(p.slot == slot for p in self.plays)):
            raise CheatDetected(Fault(seat, Cheat.NOT_DEALT))
        if not isinstance(card, Card) or not self._proves(seat, slot, card, proof):
            raise CheatDetected(Fault(seat, Cheat.BAD_KEY))
        if not self.plays and card != TWO_OF_CLUBS:
            # Nobody knows who holds the 2♣, and over a mesh the second card of the hand
            # can come before the first: another card waits for the lead like any early
            # message. A page that holds the 2♣ and leads something else stalls the table.
            raise CheatDetected(Fault(seat, Cheat.OUT_OF_TURN, card))
        play = Play(seat, slot, card, proof)
        if any(p.card == card for p in self.plays):
            self.complaint = seat
        self.plays.append(play)
        return play

    def _proves(self, seat: int, slot: int, card: Card, proof: tuple[int, ...]) -> bool:
        group, code = self.group, self.group.encode(card)
        if slot in self.passed_slots:  # a one-card key: showing it opens nothing else
            return (len(proof) == 1 and type(proof[0]) is int and 0 < proof[0] < group.q
                    and group.power(code, proof[0]) == self.hidden[slot])
        return check_same_power(group, group.generator, self.commitments[seat], code,
                                self.hidden[slot], proof, self.context("play", seat, slot))

    def add_complaint(self, seat: int) -> None:
        """``seat`` says a card dealt or passed to it doesn't open, or (before the cards are
        dealt) that a shuffle proof fails: the hand stops, keys are shown once the digests
        agree, and the audit names whoever spoilt it (or ``seat``, if nobody did). Several
        pages may say so at once (a false proof fails at every honest page): the first to
        arrive is the one this record keeps, the others are let be."""
        self._in_turn(seat, not self.finished and seat not in self.complainers)
        self.complainers.add(seat)
        if self.complaint is None:
            self.complaint = seat

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
        """``record_digest``, kept while the record stays as it is (each part only grows)."""
        state = (len(self.shuffles), len(self.shuffle_proofs), len(self.locks),
                 len(self.opened), len(self.pass_slots), len(self.blinded),
                 len(self.unblinded), len(self.plays), self.complaint, self.dealt)
        if self._digested is None or self._digested[0] != state:
            self._digested = state, self.record_digest()
        return self._digested[1]

    def record_digest(self) -> str:
        """SHA-256 of everything in this record but the keys, in hex.

        A page could send different values to different pages; each would then audit a
        different hand, and one page's honest step could look false against another's
        record. So before the keys, every page sends its digest: when they differ, nobody
        can be named (that would take signed messages) and the hand doesn't count.
        """
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
        text = json.dumps(record, default=repr, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()

    def add_digest(self, seat: int, digest: str, echo: tuple[str, ...]) -> None:
        """``seat``'s digest of its record and its echo, once the hand is ``over``."""
        self._in_turn(seat, self.over and seat not in self.digests)
        self.digests[seat] = digest
        self.echoes[seat] = echo

    @property
    def agreed(self) -> bool:
        """Every page's digest and echoes are in, and all agree: keys may be shown."""
        return len(self.digests) == NUM_SEATS and not self.disagreeing \
            and len(set(self.echoes.values())) == 1

    @property
    def disputed(self) -> bool:
        """Every page's digest and echoes are in, and they don't all agree."""
        return len(self.digests) == NUM_SEATS and not self.agreed

    def add_evidence(self, seat: int, items: tuple[str, ...]) -> None:
        """``seat``'s signed messages, once digests or echoes differ (``disputed``)."""
        self._in_turn(seat, self.disputed and seat not in self.evidence)
        signed = tuple(parse_item(item) for item in items)
        if any(s is None for s in signed):
            raise CheatDetected(Fault(seat, Cheat.MALFORMED))
        self.evidence[seat] = tuple(s for s in signed if s is not None)

    @property
    def disagreeing(self) -> list[int]:
        """The seats whose digest differs from this page's record."""
        mine = self.digest()
        return [seat for seat, digest in sorted(self.digests.items()) if digest != mine]

    def add_reveal(self, reveal: Reveal) -> None:
        """A page's keys, once the hand is ``over`` and every page sent its digest."""
        self._in_turn(reveal.seat, self.over and self.agreed and reveal.seat not in self.reveals)
        self.reveals[reveal.seat] = reveal

    # --- checks -----------------------------------------------------------------------------
    @staticmethod
    def _in_turn(seat: int, ok: bool) -> None:
        if not ok:
            raise CheatDetected(Fault(seat, Cheat.OUT_OF_TURN))

    def _check_values(self, seat: int, values: tuple[int, ...], count: int) -> None:
        if len(values) != count or not all(map(self.group.in_range, values)):
            raise CheatDetected(Fault(seat, Cheat.BAD_DECK))
        if not all(map(self.group.is_element, values)):  # a non-residue: a marked card
            raise CheatDetected(Fault(seat, Cheat.MARKED))

    def _check_deck(self, seat: int, deck: tuple[int, ...]) -> None:
        # Equal numbers stay equal under any key: a repeated card shows at once.
        self._check_values(seat, deck, 52)
        if len(set(deck)) != 52:
            raise CheatDetected(Fault(seat, Cheat.BAD_DECK))
