"""Modified pages, for the tests: the ways a page could cheat at a fair hand.

A page that cheats is not hypothetical: anyone can change the page's code in their own
browser. These are the changes the checks on arrival and the audit must catch, written the
way such a page would write them. The unit tests use them directly; the page takes one only
with ``?cheat=NAME`` and local relays (``web.options``), so the browser tests can show every
other page naming it.

Two kinds: a ``Party`` that computes a step falsely, and keeps the false value in its own
record too (``CHEATS``); and a page that sends the others something other than what it
computed, and keeps the truth in its own record (``TAMPERS``). The revoke is a third: a
choice of card, made by the table (``FairTable``, ``cheat="revoke"``).
"""

from __future__ import annotations

from collections.abc import Callable

from hearts.cards import Card
from web.p2p.fair.party import Party
from web.p2p.fair.transcript import slots_of

__all__ = ["CHEATS", "TAMPERS", "FalsePass", "StackedDeck"]


class StackedDeck(Party):
    """Swaps a card for a second Queen of spades, under another key so it isn't a repeat:
    it opens for nobody, its seat complains, and the audit names the shuffler."""

    def shuffle(self) -> tuple[tuple[int, ...], int]:
        deck, commitment = super().shuffle()
        group = self.transcript.group
        queen = group.power(group.encode(Card.parse("QS")), group.short_key(self._source))
        return (*deck[:5], queen, *deck[6:]), commitment


class FalsePass(Party):
    """Takes its key off the wrong slots: the receiver's cards don't open, it complains,
    and the audit names the passer."""

    def unblind(self) -> tuple[int, ...]:
        a, b, c = super().unblind()
        return b, a, c


Fields = dict[str, object]
Tamper = Callable[[str, Fields, int], Fields]
"""A message's type, its fields and the sender's seat -> the fields it sends instead."""


def short_deck(kind: str, fields: Fields, seat: int) -> Fields:
    """Sends its shuffle less a card (caught on arrival: a deck has 52 cards)."""
    deck = fields.get("deck")
    if kind == "fair_shuffle" and isinstance(deck, tuple):
        return {**fields, "deck": deck[:51]}
    return fields


def undealt_card(kind: str, fields: Fields, seat: int) -> Fields:
    """Plays its card from a slot dealt to another seat (caught on arrival)."""
    if kind == "fair_play":
        return {**fields, "slot": slots_of((seat + 1) % 4)[0]}
    return fields


CHEATS: dict[str, type[Party]] = {"stacked": StackedDeck, "falsepass": FalsePass}
"""The cheats at a step of the deal, by name (``web.options.CHEATS`` lists every name)."""
TAMPERS: dict[str, Tamper] = {"short": short_deck, "undealt": undealt_card}
"""The cheats at what a page sends, by name."""
