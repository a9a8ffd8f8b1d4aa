"""The public record of a fair hand, taking each message only through its checks on arrival.

Every page keeps one ``Transcript`` and feeds it the same messages (its own included;
``wire.receive`` reads them). What can be checked at once is checked at once and raises
``CheatDetected`` naming the seat: a deck that isn't 52 different numbers, a seat changing
its own slots while locking, a pass of cards not one's own, a blind without its proof, a
played card that wasn't dealt or passed to that seat or whose proof fails, a play out of
turn.
What needs the keys (was the shuffle honest, was each play legal) waits for the audit.

The record itself — what was said, and what follows from it — is ``hand_record.HandRecord``;
this adds to it, check by check. Its names come from here too, as the record's door.
"""

from __future__ import annotations

from collections.abc import Generator

from hearts.cards import Card
from hearts.rules import NUM_SEATS, TWO_OF_CLUBS, PassDirection, pass_target
from hearts.steps import run
from web.blame import Cheat, Fault
from web.p2p.fair.hand_record import (
    OPEN_ROUNDS,
    HandRecord,
    Play,
    Reveal,
    chain_seat,
    slots_of,
)
from web.p2p.fair.proofs import check_power_steps, check_same_power, check_same_power_steps
from web.p2p.fair.shuffle_proof import ShuffleProof, check_shuffle_steps
from web.p2p.fair.signing import parse_item

__all__ = ["OPEN_ROUNDS", "Cheat", "CheatDetected", "Fault", "Play", "Reveal", "Transcript",
           "chain_seat", "slots_of"]


class CheatDetected(Exception):
    """A message broke the protocol; ``fault`` names the seat."""

    def __init__(self, fault: Fault) -> None:
        super().__init__(f"seat {fault.seat}: {fault.kind.value}")
        self.fault = fault


class Transcript(HandRecord):
    """The public record of one hand, in protocol order; appending checks each message.

    A ``HandRecord``, as the record is only ever added to here: whatever reads it (the
    steps, the party, the audit) reads the one object the checks guard."""

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

    def check_proof(self, seat: int) -> Generator[None, None, bool]:
        """Whether ``seat``'s shuffle proof shows its ``proof_statement``, in steps
        (``shuffle_proof.check_shuffle_steps``)."""
        before, after, commitment, context = self.proof_statement(seat)
        return check_shuffle_steps(self.group, before, after, commitment,
                                   self.shuffle_proofs[seat], context)

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

    # --- opening each seat's cards to it ----------------------------------------------------
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
        if len(proofs) != 3 or not run(self._blind_proofs_steps(seat, values, proofs)):
            raise CheatDetected(Fault(seat, Cheat.BLIND))
        self.blinded[seat] = values

    def blind_check_steps(self, seat: int, values: object, proofs: object
                          ) -> Generator[None, None, bool] | None:
        """The checks of ``seat``'s blinds' proofs, made ahead in steps while its message
        waits to be taken (``Inbox.vet``, as ``play_check_steps``; their answers are
        remembered, so ``add_blind`` then looks them up): None if there are none to make
        now. It decides nothing: ``add_blind`` checks the message in full."""
        if (not 0 <= seat < NUM_SEATS or self.passer_to(seat) not in self.pass_slots
                or not isinstance(values, tuple) or not isinstance(proofs, tuple)
                or len(values) != 3 or len(proofs) != 3
                or not all(type(v) is int for v in values)):
            return None
        return self._blind_proofs_steps(seat, values, proofs)

    def _blind_proofs_steps(self, seat: int, values: tuple[int, ...],
                            proofs: tuple[tuple[int, ...], ...]) -> Generator[None, None, bool]:
        slots = self.pass_slots[self.passer_to(seat)]
        for slot, value, proof in zip(slots, values, proofs, strict=True):
            if not (yield from check_power_steps(self.group, self.hidden[slot], value, proof,
                                                 self.context("blind", seat, slot))):
                return False
        return True

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

    def play_check_steps(self, seat: int, slot: object, card: object, proof: object
                         ) -> Generator[None, None, bool] | None:
        """The check of the proof of a card ``seat`` plays, made ahead in steps while the
        card waits to be taken (``Inbox.vet``; its answer is remembered, so ``add_play``
        then looks it up): None if there is none to make now (a card passed, or a slot
        not dealt yet). It decides nothing: ``add_play`` checks the card in full."""
        if (type(slot) is not int or not 0 <= slot < len(self.hidden)
                or slot in self.passed_slots or not isinstance(card, Card)
                or not 0 <= seat < len(self.commitments) or not isinstance(proof, tuple)):
            return None
        return check_same_power_steps(self.group, self.group.generator,
                                      self.commitments[seat], self.group.encode(card),
                                      self.hidden[slot], proof,
                                      self.context("play", seat, slot))

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

    # --- the hand's end ---------------------------------------------------------------------
    def add_digest(self, seat: int, digest: str, echo: tuple[str, ...]) -> None:
        """``seat``'s digest of its record and its echo, once the hand is ``over``."""
        self._in_turn(seat, self.over and seat not in self.digests)
        self.digests[seat] = digest
        self.echoes[seat] = echo

    def add_evidence(self, seat: int, items: tuple[str, ...]) -> None:
        """``seat``'s signed messages, once digests or echoes differ (``disputed``)."""
        self._in_turn(seat, self.disputed and seat not in self.evidence)
        signed = tuple(parse_item(item) for item in items)
        if any(s is None for s in signed):
            raise CheatDetected(Fault(seat, Cheat.MALFORMED))
        self.evidence[seat] = tuple(s for s in signed if s is not None)

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
