"""Four parties of a fair hand in one process, each with its own copy of the transcript.

Every message goes to all four transcripts (its sender's too), as the table's broadcast
would; a ``CheatDetected`` from any copy stops the hand. Used by the tests (a party may be
a subclass that cheats at one step) and by ``tools/bench_fair.py``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from hearts.cards import Card, cards_of_mask, mask_of
from hearts.rules import NUM_SEATS, PassDirection, Rules, legal_mask
from web.p2p.fair.audit import AuditResult, audit
from web.p2p.fair.group import GROUP, Group, KeySource
from web.p2p.fair.party import Party
from web.p2p.fair.transcript import OPEN_ROUNDS, Play, Transcript

__all__ = ["Chooser", "LocalTable", "first_legal"]

Chooser = Callable[[Party, Transcript], Card]
"""Picks a party's card to play from its own hand and the public record."""

PartyMaker = Callable[[int, Transcript, KeySource | None], Party]


class LocalTable:
    """Four parties, four transcripts, and a broadcast between them."""

    def __init__(self, direction: PassDirection, sources: Sequence[KeySource | None] = (),
                 makers: dict[int, PartyMaker] | None = None, group: Group = GROUP) -> None:
        self.transcripts = [Transcript(direction, group) for _ in range(NUM_SEATS)]
        makers = makers or {}
        self.parties = [makers.get(seat, Party)(seat, self.transcripts[seat],
                                                sources[seat] if sources else None)
                        for seat in range(NUM_SEATS)]

    def deal(self) -> list[list[Card]]:
        """Shuffle, lock and open: each party's 13 cards, as it reads them."""
        for p in self.parties:
            deck, commitment = p.shuffle()
            for t in self.transcripts:
                t.add_shuffle(p.seat, deck, commitment)
        for p in self.parties:
            deck = p.lock()
            for t in self.transcripts:
                t.add_lock(p.seat, deck)
        for round_ in range(1, OPEN_ROUNDS + 1):
            values = [p.open(round_) for p in self.parties]  # the four go out at once
            for p, v in zip(self.parties, values, strict=True):
                for t in self.transcripts:
                    t.add_open(p.seat, round_, v)
        return [p.read_hand() for p in self.parties]

    def pass_cards(self, choices: Sequence[Sequence[Card]]) -> list[list[Card]]:
        """Each seat passes its three cards: the cards each party receives."""
        if self.transcripts[0].direction is PassDirection.NONE:
            return [[] for _ in self.parties]
        for p, cards in zip(self.parties, choices, strict=True):
            slots = p.choose_pass(list(cards))
            for t in self.transcripts:
                t.add_pass(p.seat, slots)
        for p in self.parties:
            values, proofs = p.blind()
            for t in self.transcripts:
                t.add_blind(p.seat, values, proofs)
        for p in self.parties:
            values = p.unblind()
            for t in self.transcripts:
                t.add_unblind(p.seat, values)
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
        plays = []
        for t in self.transcripts:
            plays.append(t.add_play(seat, slot, card, proof))
        return plays[0]

    def play_hand(self, choose: Chooser) -> None:
        """Play every card (or until the hand stops), each chosen by ``choose``."""
        while not self.transcripts[0].over:
            self.play_one(choose)

    def complain(self, seat: int) -> None:
        """``seat`` says a card of its own doesn't open: the hand stops."""
        for t in self.transcripts:
            t.add_complaint(seat)

    def finish(self, rules: Rules | None = None, auditors: Sequence[int] = range(NUM_SEATS)
               ) -> list[AuditResult]:
        """Every party shows its keys; each page in ``auditors`` audits the hand on its own."""
        for p in self.parties:
            reveal = p.reveal()
            for t in self.transcripts:
                t.add_reveal(reveal)
        return [audit(self.transcripts[seat], rules) for seat in auditors]


def first_legal(party: Party, transcript: Transcript, rules: Rules | None = None) -> Card:
    """An honest player's choice: the lowest legal card of its hand (``legal_mask``)."""
    trick = transcript.trick
    legal = legal_mask(mask_of(party.hand()), trick[0].card.suit if trick else -1,
                       len(transcript.plays) < 4, transcript.hearts_broken, rules or Rules())
    return cards_of_mask(legal)[0]
