"""One page's part in a fair hand: its secret keys, and the message of each step.

A ``Party`` never sees another page's keys; it reads the public ``Transcript`` and answers
with the values it broadcasts. What it learns of the cards is exactly ``known``: its own 13,
the three passed to it, and every card once played (``Transcript.plays``).

Keys (see ``group``): one short shuffling key ``e`` for the whole deck, committed to as
``g**e``; per slot of another seat a short key ``k``, the slot being locked with the
full-size ``(e·k)⁻¹`` — so the shuffling key comes off in the same step — and opened by
taking ``k`` off. Its own cards stay under ``e``: playing one, it proves so (Chaum–Pedersen)
without showing ``e``. A card passed to it is under a one-card key it may show.
"""

from __future__ import annotations

import secrets
from collections.abc import Generator
from dataclasses import dataclass

from hearts.cards import ALL_CARDS, Card
from hearts.rules import pass_target
from hearts.steps import run
from web.p2p.fair.group import KeySource
from web.p2p.fair.proofs import prove_power_steps, prove_same_power_steps
from web.p2p.fair.shuffle_proof import ShuffleProof, prove_shuffle_steps
from web.p2p.fair.transcript import Reveal, Transcript, slots_of

__all__ = ["Party", "Secrets"]


@dataclass(frozen=True)
class Secrets:
    """A page's keys for one hand, and its shuffle: what it keeps to resume the hand after
    a reload (``resume``)."""

    shuffle_key: int
    slot_keys: tuple[int, ...]
    order: tuple[int, ...]
    """Its shuffle (empty before it shuffled): its proof is made from it."""
    blind_keys: tuple[tuple[int, int], ...]
    """(slot, key) of each card passed to it it put its key on."""


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
        self._order: list[int] = []
        """Its shuffle: position ``i`` of its deck holds the card of ``_order[i]`` before."""
        self._blind_keys: dict[int, int] = {}
        """Slot -> this page's key on a card passed to it (shown when it plays the card)."""
        self.known: dict[int, Card] = {}
        self._mine: dict[int, Card] | None = None
        """Each card's code under this page's shuffling key -> the card (``codes_steps``)."""
        """Slot -> card, for the cards this page holds or held (dealt, then passed to it)."""

    def secrets(self) -> Secrets:
        """This page's keys and shuffle as they stand."""
        return Secrets(self._shuffle_key, tuple(self._slot_keys), tuple(self._order),
                       tuple(sorted(self._blind_keys.items())))

    def restore(self, kept: Secrets) -> None:
        """Take up the keys and shuffle this page kept before a reload."""
        self._shuffle_key = kept.shuffle_key
        self._slot_keys = list(kept.slot_keys)
        self._order = list(kept.order)
        self._blind_keys = dict(kept.blind_keys)
        self._mine = None  # (made with the key before)

    # --- the deal ---------------------------------------------------------------------------
    def shuffle(self) -> tuple[tuple[int, ...], int]:
        """Stage 1: the deck before this seat, locked with its key, in a new random order;
        and the commitment ``g**e`` to that key."""
        return run(self.shuffle_steps())

    def shuffle_steps(self) -> Generator[None, None, tuple[tuple[int, ...], int]]:
        """``shuffle`` a short power a step (the page slices them by time)."""
        group = self.transcript.group
        before = self.transcript.deck_before_shuffle(self.seat)
        self._order = list(range(len(before)))
        self._source.shuffle(self._order)
        deck = []
        for i in self._order:
            deck.append(group.power(before[i], self._shuffle_key))
            group.is_element(deck[-1])  # its check before sending, here in its slice
            yield
        return tuple(deck), group.power(group.generator, self._shuffle_key)

    def codes_steps(self) -> Generator[None, None, None]:
        """Each card's code under this page's shuffling key, a power a step, made ahead
        (while the deal goes on) so that reading its 13 cards is a look-up."""
        group = self.transcript.group
        key = self._shuffle_key
        mine: dict[int, Card] = {}
        for card, code in zip(ALL_CARDS, group.codes, strict=True):  # (in card order)
            mine[group.power(code, key)] = card
            yield
        if key == self._shuffle_key:  # (not taken up from a record meanwhile: ``restore``)
            self._mine = mine

    @property
    def coded(self) -> bool:
        """The codes of the cards under this page's key are made (``codes_steps``)."""
        return self._mine is not None

    def prove_shuffle(self) -> Generator[None, None, ShuffleProof]:
        """Stage 1, after the shuffle went out: the proof that it is one (in steps)."""
        before, after, _, context = self.transcript.proof_statement(self.seat)
        return prove_shuffle_steps(self.transcript.group, self._shuffle_key, self._order,
                                   before, after, context, self._source)

    def lock(self) -> tuple[int, ...]:
        """Stage 2: every other seat's slot locked with its own key, the shuffling key off."""
        return run(self.lock_steps())

    def lock_steps(self) -> Generator[None, None, tuple[int, ...]]:
        """``lock``, a few bits of a slot's full-size power a step (``Group.power_steps``):
        its 39 full-size powers are the deal's longest work."""
        group = self.transcript.group
        modulus = group.p - 1
        mine = slots_of(self.seat)
        deck = []
        for slot, (x, k) in enumerate(zip(self.transcript.deck_before_lock(self.seat),
                                          self._slot_keys, strict=True)):
            if slot in mine:
                deck.append(x)
                continue
            unlock = group.inverse(self._shuffle_key * k % modulus)
            deck.append((yield from group.power_steps(x, unlock)))
            group.is_element(deck[-1])  # (remembered: ``Group.is_element``)
            yield
        return tuple(deck)

    def open(self, round_: int) -> tuple[int, ...]:
        """This seat's key taken off the 13 cards it opens in ``round_`` (1..3)."""
        return run(self.open_steps(round_))

    def open_steps(self, round_: int) -> Generator[None, None, tuple[int, ...]]:
        """``open``, a short power a step."""
        slots, values = self.transcript.open_input(self.seat, round_)
        opened = []
        for s, v in zip(slots, values, strict=True):
            opened.append(self.transcript.group.power(v, self._slot_keys[s]))
            self.transcript.group.is_element(opened[-1])  # (remembered)
            yield
        return tuple(opened)

    def read_hand(self) -> list[Card]:
        """Once dealt: this seat's 13 cards, each a card code under its key (fewer: spoilt)."""
        if self._mine is None:  # (made ahead, ``codes_steps``: 52 short powers cost less
            run(self.codes_steps())  # than 13 full-size inverses)
        mine = self._mine
        assert mine is not None
        for slot in slots_of(self.seat):
            card = mine.get(self.transcript.hidden[slot])
            if card is not None:
                self.known[slot] = card
        return [self.known[s] for s in slots_of(self.seat) if s in self.known]

    # --- passing ----------------------------------------------------------------------------
    def choose_pass(self, cards: list[Card]) -> tuple[int, ...]:
        """The slots of the three cards this seat passes (raises KeyError: not its cards)."""
        slot_of = {card: slot for slot, card in self.known.items()
                   if self.transcript.owner[slot] == self.seat}
        return tuple(slot_of[card] for card in cards)

    def blind(self) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]:
        """A fresh lock of this seat on each card passed to it, before the passer's comes
        off, and the proof of each that it locked the very value in that slot."""
        return run(self.blind_steps())

    def blind_steps(self) -> Generator[None, None, tuple[tuple[int, ...],
                                                         tuple[tuple[int, ...], ...]]]:
        """``blind``, its powers in steps (three short and three proofs': some one and a
        half full-size powers)."""
        transcript = self.transcript
        group = transcript.group
        values, proofs = [], []
        for slot in transcript.pass_slots[transcript.passer_to(self.seat)]:
            self._blind_keys[slot] = key = group.short_key(self._source)
            value = yield from group.power_steps(transcript.hidden[slot], key)
            values.append(value)
            proofs.append((yield from prove_power_steps(
                group, key, transcript.hidden[slot], value,
                transcript.context("blind", self.seat, slot), self._source)))
        return tuple(values), tuple(proofs)

    def unblind(self) -> tuple[int, ...]:
        """This seat's key taken off the three cards it passes: now only the receiver's is on."""
        return run(self.unblind_steps())

    def unblind_steps(self) -> Generator[None, None, tuple[int, ...]]:
        """``unblind``, a few bits of its three full-size powers a step (``power_steps``)."""
        transcript = self.transcript
        group = transcript.group
        target = pass_target(self.seat, transcript.direction)
        unlock = group.inverse(self._shuffle_key)
        values = []
        for value in transcript.blinded[target]:
            values.append((yield from group.power_steps(value, unlock)))
        return tuple(values)

    def read_passed(self) -> list[Card]:
        """The three cards passed to this seat (fewer: one was spoilt on the way)."""
        return run(self.read_passed_steps())

    def read_passed_steps(self) -> Generator[None, None, list[Card]]:
        """``read_passed``, a few bits of its three full-size powers a step."""
        transcript = self.transcript
        group = transcript.group
        cards = []
        for slot in transcript.pass_slots[transcript.passer_to(self.seat)]:
            card = group.decode((yield from group.power_steps(
                transcript.hidden[slot], group.inverse(self._blind_keys[slot]))))
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

    def play(self, card: Card) -> tuple[int, tuple[int, ...]]:
        """The slot of ``card`` and what shows everyone it is there."""
        return run(self.play_steps(card))

    def play_steps(self, card: Card) -> Generator[None, None, tuple[int, tuple[int, ...]]]:
        """``play``, its proof's powers in steps (``prove_same_power_steps``)."""
        transcript = self.transcript
        group = transcript.group
        slot = next(s for s, c in self.known.items()
                    if c == card and transcript.owner[s] == self.seat)
        if slot in self._blind_keys:
            return slot, (self._blind_keys[slot],)
        code = group.encode(card)
        proof = yield from prove_same_power_steps(
            group, self._shuffle_key, group.generator, transcript.commitments[self.seat],
            code, transcript.hidden[slot], transcript.context("play", self.seat, slot),
            self._source)
        return slot, proof

    def reveal(self) -> Reveal:
        """Every key of this page, for the audit (once the hand is over)."""
        transcript = self.transcript
        passed_in = transcript.pass_slots.get(transcript.passer_to(self.seat), ())
        return Reveal(self.seat, self._shuffle_key, tuple(self._slot_keys),
                      tuple(self._blind_keys[s] for s in passed_in if s in self._blind_keys))
