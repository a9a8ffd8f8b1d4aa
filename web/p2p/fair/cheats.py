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

import json
import random
from collections.abc import Callable, Generator

from hearts.bots.hard import HardBot
from hearts.cards import ALL_CARDS, Card
from hearts.view import PlayerView
from web.p2p.fair import steered
from web.p2p.fair.group import Group, jacobi
from web.p2p.fair.party import Party
from web.p2p.fair.resume import Resume
from web.p2p.fair.seating import SeatDraw
from web.p2p.fair.transcript import slots_of

__all__ = ["CHEATS", "COMPUTERS", "DRAWS", "EVIDENCE_WITH_DIGEST", "RESUMES", "TAMPERS",
           "WITHHOLDS", "CardReader", "FalsePass", "Framing", "MarkedCards", "SeatGrabber",
           "StackedDeck", "SteeredComputer"]

POINT_CARDS = tuple(c for c in map(Card.parse, ("QS", *(f"{r}H" for r in "23456789TJQKA"))))


class StackedDeck(Party):
    """Swaps a card for a second Queen of spades, under another key so it isn't a repeat:
    it opens for nobody, its seat complains, and the audit names the shuffler."""

    def shuffle_steps(self) -> Generator[None, None, tuple[tuple[int, ...], int]]:
        deck, commitment = yield from super().shuffle_steps()
        group = self.transcript.group
        queen = group.power(group.encode(Card.parse("QS")), group.short_key(self._source))
        return (*deck[:5], queen, *deck[6:]), commitment


class MarkedCards(Party):
    """Marks the point cards: each is sent as ``p - v``, a non-residue. A lock is an odd
    power, which keeps a number's Legendre symbol, so after the four shuffles the marked
    values are still the only non-residues and ``follow`` shows whose slots the point
    cards went to. (Marked at the first shuffle, they are the point cards; a later
    shuffler marks whatever cards sit where the point cards started.) It takes the mark
    off again in its own lock (``p - x`` once more), so the others' cards still open.
    Refused on arrival: every number received must be a residue (``Group.is_element``)."""

    def shuffle_steps(self) -> Generator[None, None, tuple[tuple[int, ...], int]]:
        deck, commitment = yield from super().shuffle_steps()
        group = self.transcript.group
        before = self.transcript.deck_before_shuffle(self.seat)
        marked = {group.power(before[c.index], self._shuffle_key) for c in POINT_CARDS}
        return tuple(group.p - x if x in marked else x for x in deck), commitment

    def lock_steps(self) -> Generator[None, None, tuple[int, ...]]:
        group = self.transcript.group
        mine = slots_of(self.seat)
        deck = yield from super().lock_steps()
        return tuple(group.p - x if slot not in mine and jacobi(x, group.p) == -1 else x
                     for slot, x in enumerate(deck))

    def follow(self) -> dict[int, int]:
        """Seat -> how many marked cards were dealt to it, read off the last shuffle."""
        group = self.transcript.group
        seats = dict.fromkeys(range(4), 0)
        for slot, x in enumerate(self.transcript.shuffles[-1]):
            if jacobi(x, group.p) == -1:
                seats[slot // 13] += 1
        return seats


class Framing(Party):
    """Puts ``p - 1`` in a slot as it opens the cards of the seat before it, last (round
    3): were that card passed, its receiver's proof of its blind over a base of order 2
    would fail its own check, and the receiver's page would have named itself. Refused on
    arrival (``p - 1`` is no residue), naming this page."""

    def open_steps(self, round_: int) -> Generator[None, None, tuple[int, ...]]:
        values = yield from super().open_steps(round_)
        if round_ != 3:
            return values
        return (self.transcript.group.p - 1, *values[1:])


class CardReader(Party):
    """Reads two of another seat's cards, as the last shuffler (seat 3): its own slot 45
    holds ``v1**3 · v2**5`` for the values of slots 1 and 2 (seat 0's) instead of a card.
    Once the deal opens slot 45 to it, taking its key off leaves ``c1**3 · c2**5`` for
    those two cards' codes, and a search over the 52 × 51 pairs names them (``read``).
    Its shuffle proof can't hold (no key and order make that deck): every other page
    complains before it opens a card, and the audit names it."""

    TAGS = (3, 5)

    def shuffle_steps(self) -> Generator[None, None, tuple[tuple[int, ...], int]]:
        deck, commitment = yield from super().shuffle_steps()
        group = self.transcript.group
        tagged = group.power(deck[1], self.TAGS[0]) * group.power(deck[2], self.TAGS[1]) \
            % group.p
        return (*deck[:45], tagged, *deck[46:]), commitment

    def read(self) -> tuple[Card, Card] | None:
        """Once dealt: the cards of slots 1 and 2, found by the search (None: not found)."""
        group = self.transcript.group
        p = group.p
        value = group.power(self.transcript.hidden[45], group.inverse(self._shuffle_key))
        second = {group.power(code, self.TAGS[1]): i for i, code in enumerate(group.codes)}
        for i, code in enumerate(group.codes):
            j = second.get(value * pow(group.power(code, self.TAGS[0]), -1, p) % p)
            if j is not None and j != i:
                return ALL_CARDS[i], ALL_CARDS[j]  # the codes are in card order
        return None


class FalsePass(Party):
    """Takes its key off the wrong slots: the receiver's cards don't open, it complains,
    and the audit names the passer."""

    def unblind_steps(self) -> Generator[None, None, tuple[int, ...]]:
        a, b, c = yield from super().unblind_steps()
        return b, a, c


class SeatGrabber(SeatDraw):
    """Would sit first (and shuffle first: ``MarkedCards`` needs seat 0). It holds its
    reveal back until the three others' are in, then sends whichever bytes put it in seat
    0 — not the ones it committed to, so every other page refuses the draw."""

    def received(self, peer: str, text: str) -> list[str]:
        out = [m for m in super().received(peer, text) if '"reveal"' not in m]
        if len(self.reveals) < self.pages:
            return out
        for n in range(1000):
            self.nonce = self.reveals[self.me] = n.to_bytes(32, "big")
            if (self.order() or [""])[0] == self.me:
                break
        return [*out, self.reveal_text()]


class SteeredComputer(HardBot):
    """Plays the computer it was given its own way: passes as the bot would, then plays
    the highest card it may (dumping the Q♠ and high hearts on the others). Every card is
    one the seat holds and may play; every page's replay of the bot names it
    (``steered``)."""

    def __init__(self, table: str, seat: int) -> None:
        super().__init__(steered.bot_seed(table, seat), budget_ms=None,
                         iterations=steered.ITERATIONS)

    def choose_play_steps(self, view: PlayerView) -> Generator[None, None, Card]:
        yield
        return max(view.legal_plays, key=lambda c: (c.rank, c.suit))


Fields = dict[str, object]
Tamper = Callable[[str, Fields, int], Fields | None]
"""A message's type, its fields and the sender's seat -> the fields it sends instead (None:
it sends nothing)."""


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


def false_echo(kind: str, fields: Fields, seat: int) -> Fields:
    """Says, at the hand's end, it saw other messages than it did (once a false complaint
    or digest read every hand): no page shows its keys, each sends its evidence, and it
    is named — for the lie if it sends its own, else for sending none."""
    if kind == "fair_digest":
        return {**fields, "echo": ("0" * 64,) * 4}
    return fields


def kept_keys(kind: str, fields: Fields, seat: int) -> Fields | None:
    """Keeps its keys once the hand is played out, hoping the hand it lost won't count:
    the others, whose digests agree and were relayed to it, name it once the table has
    waited a turn and 30 s (``NO_KEYS``), and charge it all 26 points."""
    return None if kind == "fair_keys" else fields


def false_digest(kind: str, fields: Fields, seat: int) -> Fields:
    """Sends a false digest of the hand's record (with ``framethird``, below)."""
    return {**fields, "sha256": "0" * 64} if kind == "fair_digest" else fields


AFTER_THE_CARDS = ("fair_digest", "fair_keys", "fair_evidence", "fair_closed")
"""What a page sends once the hand's cards are played: the audit's messages."""


def after_the_cards(text: str) -> bool:
    """Whether ``text``, as it goes over the mesh, is of the audit: an envelope of one of
    ``AFTER_THE_CARDS``, or an ask or a relay (what would let the page left out catch up)."""
    try:
        data = json.loads(text)
        if "a" in data or "r" in data:
            return True
        return json.loads(data["m"]).get("t") in AFTER_THE_CARDS
    except (ValueError, KeyError, TypeError, AttributeError):
        return False


def third_left_out(sender: int, receiver: int, text: str) -> bool:
    """Sends nothing of the audit to the seat across from it: with a false digest and its
    true evidence to the two others (``framethird``), a try at having the two honest pages
    name the third for evidence it never knew it owed. Every honest page names the
    framer instead: the two relay the four signed digests to the third, which disputes
    too and asks for what it lacks."""
    return receiver == (sender + 2) % 4 and after_the_cards(text)


def rekeyed(claim: Resume, group: Group) -> Resume:
    """Back after a reload, resumes the hand with a fresh set of keys (to be dealt, say,
    other cards than its own as it opens them): its claim commits to them, not to those it
    shuffled with, and every page refuses it and names it."""
    fresh = group.short_key(random.Random(claim.next))
    return Resume(claim.hand, claim.next, group.power(group.generator, fresh))


def other_hand(claim: Resume, group: Group) -> Resume:
    """Back after a reload, presents the record of another hand (the one before, whose
    cards it liked better): refused and named."""
    return Resume(claim.hand - 1, claim.next, claim.commitment)


CHEATS: dict[str, type[Party]] = {"stacked": StackedDeck, "falsepass": FalsePass,
                                  "marked": MarkedCards, "framing": Framing,
                                  "readcards": CardReader}
"""The cheats at a step of the deal, by name (``web.options.CHEATS`` lists every name)."""
DRAWS: dict[str, type[SeatDraw]] = {"seat0": SeatGrabber}
"""The cheats at the draw for the seats, by name."""
COMPUTERS: dict[str, Callable[[str, int], HardBot]] = {"steer": SteeredComputer}
"""The cheats at playing a computer, by name: how the page plays the computer it holds."""
TAMPERS: dict[str, Tamper] = {"short": short_deck, "undealt": undealt_card,
                              "falseecho": false_echo, "keepkeys": kept_keys,
                              "framethird": false_digest}
"""The cheats at what a page sends, by name."""
EVIDENCE_WITH_DIGEST = frozenset({"framethird"})
"""The cheats that send their true evidence with their digest, unasked."""
WITHHOLDS: dict[str, Callable[[int, int, str], bool]] = {"framethird": third_left_out}
"""The cheats at whom a page sends to, by name: (its seat, the receiver's seat, the text)
-> withheld from that receiver."""
RESUMES: dict[str, Callable[[Resume, Group], Resume]] = {"rekey": rekeyed,
                                                          "otherhand": other_hand}
"""The cheats at taking a hand up after a reload, by name: the claim it sends instead."""
