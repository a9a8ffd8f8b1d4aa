"""One page's part in a fair hand: its secret keys, and the message of each step.

A ``Party`` never sees another page's keys; it reads the public ``Transcript`` and answers
with the values it broadcasts. What it learns of the cards is exactly ``known``: its own 13,
the three passed to it, and every card once played (``Transcript.plays``).

Keys (see ``group``): one short shuffling key ``e`` for the whole deck; per slot a short
key ``k`` that opens it, the slot being locked with the full-size ``(e·k)⁻¹`` — so the deck's
last shuffle key is taken off in the same step, and showing ``k`` to open one card says
nothing about any other.
"""

from __future__ import annotations

import secrets

from hearts.cards import Card
from hearts.rules import pass_target
from web.p2p.fair.group import KeySource
from web.p2p.fair.transcript import Reveal, Transcript, slots_of

__all__ = ["Party"]


class Party:
    """The secrets and steps of the page at ``seat``."""

    def __init__(self, seat: int, transcript: Transcript,
                 source: KeySource | None = None) -> None:
        self.seat = seat
        self.transcript = transcript
        group = transcript.group
        self._source: KeySource = source if source is not None else secrets.SystemRandom()
        self._shuffle_key = group.short_key(self._source)
        self._slot_keys = [group.short_key(self._source) for _ in range(52)]
        self._blind_keys: dict[int, int] = {}
        """Slot -> this page's key of a card passed to it (its lock is the inverse)."""
        self.known: dict[int, Card] = {}
        """Slot -> card, for the cards this page holds or held (dealt, then passed to it)."""

    # --- the deal ---------------------------------------------------------------------------
    def shuffle(self) -> tuple[int, ...]:
        """Stage 1: the deck before this seat, locked with its key, in a new random order."""
        group = self.transcript.group
        deck = [group.power(x, self._shuffle_key) for x in
                self.transcript.deck_before_shuffle(self.seat)]
        self._source.shuffle(deck)
        return tuple(deck)

    def lock(self) -> tuple[int, ...]:
        """Stage 2: every slot locked with its own key, the shuffling key taken off."""
        group = self.transcript.group
        modulus = group.p - 1
        deck = self.transcript.deck_before_lock(self.seat)
        return tuple(group.power(x, group.inverse(self._shuffle_key * k % modulus))
                     for x, k in zip(deck, self._slot_keys, strict=True))

    def open(self, round_: int) -> tuple[int, ...]:
        """This seat's key taken off the 13 cards it opens in ``round_`` (1..3)."""
        slots, values = self.transcript.open_input(self.seat, round_)
        return tuple(self.transcript.group.power(v, self._slot_keys[s])
                     for s, v in zip(slots, values, strict=True))

    def read_hand(self) -> list[Card]:
        """Once dealt: open this seat's 13 cards with its own keys (None: a card is spoilt)."""
        cards = {slot: self._open_own(slot) for slot in slots_of(self.seat)}
        self.known.update({s: c for s, c in cards.items() if c is not None})
        return [c for c in cards.values() if c is not None]

    # --- passing ----------------------------------------------------------------------------
    def choose_pass(self, cards: list[Card]) -> tuple[int, ...]:
        """The slots of the three cards this seat passes (raises KeyError: not its cards)."""
        slot_of = {card: slot for slot, card in self.known.items()
                   if self.transcript.owner[slot] == self.seat}
        return tuple(slot_of[card] for card in cards)

    def blind(self) -> tuple[int, ...]:
        """A fresh lock of this seat on each card passed to it, before the passer's comes off."""
        transcript = self.transcript
        group = transcript.group
        out = []
        for slot in transcript.pass_slots[transcript.passer_to(self.seat)]:
            self._blind_keys[slot] = key = group.short_key(self._source)
            out.append(group.power(transcript.hidden[slot], group.inverse(key)))
        return tuple(out)

    def unblind(self) -> tuple[int, ...]:
        """This seat's key taken off the three cards it passes: now only the receiver's is on."""
        transcript = self.transcript
        target = pass_target(self.seat, transcript.direction)
        return tuple(transcript.group.power(value, self._slot_keys[slot]) for slot, value in
                     zip(transcript.pass_slots[self.seat], transcript.blinded[target],
                         strict=True))

    def read_passed(self) -> list[Card]:
        """The three cards passed to this seat (fewer: one was spoilt on the way)."""
        transcript = self.transcript
        cards = []
        for slot in transcript.pass_slots[transcript.passer_to(self.seat)]:
            card = self._open_own(slot)
            if card is not None:
                self.known[slot] = card
                cards.append(card)
        return cards

    # --- play and the end -------------------------------------------------------------------
    def hand(self) -> list[Card]:
        """The cards this seat holds now, sorted."""
        transcript = self.transcript
        played = {p.slot for p in transcript.plays}
        return sorted(c for s, c in self.known.items()
                      if transcript.owner[s] == self.seat and s not in played)

    def play(self, card: Card) -> tuple[int, int]:
        """The slot of ``card`` and the key that opens it to everyone."""
        slot = next(s for s, c in self.known.items()
                    if c == card and self.transcript.owner[s] == self.seat)
        return slot, self._opening_key(slot)

    def reveal(self) -> Reveal:
        """Every key of this page, for the audit (only once every card is played)."""
        transcript = self.transcript
        passed_in = transcript.pass_slots.get(transcript.passer_to(self.seat), ())
        return Reveal(self.seat, self._shuffle_key, tuple(self._slot_keys),
                      tuple(self._blind_keys[s] for s in passed_in if s in self._blind_keys))

    def _opening_key(self, slot: int) -> int:
        return self._blind_keys.get(slot, self._slot_keys[slot])

    def _open_own(self, slot: int) -> Card | None:
        group = self.transcript.group
        return group.decode(group.power(self.transcript.hidden[slot], self._opening_key(slot)))
