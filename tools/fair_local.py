"""Four parties of a fair hand in one process, each with its own copy of the transcript.

Every message goes, as JSON text (``wire``), to all four transcripts (its sender's too), as
the table's broadcast would; a ``CheatDetected`` from any copy stops the hand. Used by the
tests (a party may be a subclass that cheats at one step) and by ``tools/bench_fair.py``;
it lives here, not in ``web/``, so the site doesn't ship it to players.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from hearts.cards import Card, cards_of_mask, mask_of
from hearts.rules import NUM_SEATS, PassDirection, Rules, legal_mask
from hearts.steps import run
from web.p2p.fair.audit import AuditResult, audit
from web.p2p.fair.group import GROUP, Group, KeySource
from web.p2p.fair.party import Party
from web.p2p.fair.shuffle_proof import check_shuffle
from web.p2p.fair.signing import echo
from web.p2p.fair.transcript import OPEN_ROUNDS, Cheat, CheatDetected, Fault, Play, Transcript
from web.p2p.fair.wire import message, proof_fields, receive

__all__ = ["Chooser", "LocalTable", "first_legal"]

Chooser = Callable[[Party, Transcript], Card]
"""Picks a party's card to play from its own hand and the public record."""

PartyMaker = Callable[[int, Transcript, KeySource | None], Party]


class LocalTable:
    """Four parties, four transcripts, and a broadcast between them."""

    def __init__(self, direction: PassDirection, sources: Sequence[KeySource | None] = (),
                 makers: dict[int, PartyMaker] | None = None, group: Group = GROUP,
                 name: str = "local", hand: int = 1) -> None:
        self.transcripts = [Transcript(direction, group, table=name, hand=hand)
                            for _ in range(NUM_SEATS)]
        makers = makers or {}
        self.parties = [makers.get(seat, Party)(seat, self.transcripts[seat],
                                                sources[seat] if sources else None)
                        for seat in range(NUM_SEATS)]

    def send(self, seat: int, text: str) -> Play | None:
        """Broadcast a message of ``seat``: every transcript reads it off the wire."""
        plays = [receive(t, seat, text) for t in self.transcripts]
        return plays[0]

    def deal(self) -> list[list[Card]]:
        """Shuffle (each with its proof), lock and open: each party's 13 cards, as it reads
        them. Raises ``CheatDetected`` for a shuffle whose proof fails."""
        for p in self.parties:
            deck, commitment = p.shuffle()
            self.send(p.seat, message("fair_shuffle", deck=deck, commit=commitment))
            self.prove(p)
        for p in self.parties:
            self.send(p.seat, message("fair_lock", deck=p.lock()))
        for round_ in range(1, OPEN_ROUNDS + 1):
            values = [p.open(round_) for p in self.parties]  # the four go out at once
            for p, v in zip(self.parties, values, strict=True):
                self.send(p.seat, message("fair_open", round=round_, values=v))
        return [p.read_hand() for p in self.parties]

    def prove(self, party: Party) -> None:
        """``party``'s shuffle proof, sent and checked (once: the four pages would find the
        same), so each transcript counts it proven."""
        self.send(party.seat, message("fair_proof", **proof_fields(run(party.prove_shuffle()))))
        public = self.transcripts[0]
        before, after, commitment, context = public.proof_statement(party.seat)
        if not check_shuffle(public.group, before, after, commitment,
                             public.shuffle_proofs[party.seat], context):
            raise CheatDetected(Fault(party.seat, Cheat.SHUFFLE))
        for t in self.transcripts:
            t.proven.add(party.seat)

    def pass_cards(self, choices: Sequence[Sequence[Card]]) -> list[list[Card]]:
        """Each seat passes its three cards: the cards each party receives."""
        if self.transcripts[0].direction is PassDirection.NONE:
            return [[] for _ in self.parties]
        for p, cards in zip(self.parties, choices, strict=True):
            self.send(p.seat, message("fair_pass", slots=p.choose_pass(list(cards))))
        for p in self.parties:
            values, proofs = p.blind()
            self.send(p.seat, message("fair_blind", values=values, proofs=proofs))
        for p in self.parties:
            self.send(p.seat, message("fair_unblind", values=p.unblind()))
        return [p.read_passed() for p in self.parties]

    def play_one(self, choose: Chooser) -> Play:
        """The next card: the seat to play (the 2♣'s holder first) picks and shows it."""
        public = self.transcripts[0]
        seat = public.to_play
        if seat is None:
            seat = next(p.seat for p in self.parties if Card.parse("2C") in p.hand())
        party = self.parties[seat]
        card = choose(party, party.transcript)
        slot, proof = party.play(card)
        play = self.send(seat, message("fair_play", slot=slot, card=card, proof=proof))
        assert play is not None
        return play

    def play_hand(self, choose: Chooser) -> None:
        """Play every card (or until the hand stops), each chosen by ``choose``."""
        while not self.transcripts[0].over:
            self.play_one(choose)

    def complain(self, seat: int) -> None:
        """``seat`` says a card of its own doesn't open: the hand stops."""
        self.send(seat, message("fair_complain"))

    def finish(self, rules: Rules | None = None, auditors: Sequence[int] = range(NUM_SEATS)
               ) -> list[AuditResult]:
        """Every page sends its digest, then (if they all agree) its keys; each page in
        ``auditors`` audits."""
        unsigned = (echo({}),) * NUM_SEATS  # messages here aren't signed: nothing to echo
        for seat, t in enumerate(self.transcripts):
            self.send(seat, message("fair_digest", sha256=t.digest(), echo=unsigned))
        if all(t.agreed for t in self.transcripts):  # else no page shows its keys
            for p in self.parties:
                r = p.reveal()
                self.send(p.seat, message("fair_keys", shuffle=r.shuffle_key,
                                          slots=r.slot_keys, blinds=r.blind_keys))
        return [audit(self.transcripts[seat], rules) for seat in auditors]


def first_legal(party: Party, transcript: Transcript, rules: Rules | None = None) -> Card:
    """An honest player's choice: the lowest legal card of its hand (``legal_mask``)."""
    trick = transcript.trick
    legal = legal_mask(mask_of(party.hand()), trick[0].card.suit if trick else -1,
                       len(transcript.plays) < 4, transcript.hearts_broken, rules or Rules())
    return cards_of_mask(legal)[0]
