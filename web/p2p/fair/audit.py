"""The audit of a finished fair hand: with every key shown, redo every step and check it.

Every page runs it on its own transcript. Each step is checked with the keys of the seat
that took it and nothing else, so a lie shows as a fault of the liar and can't be pinned on
anyone else. The checks, in protocol order (the first fault is the answer):

1. every seat showed its keys, of the right form, its shuffling key the one it committed to;
2. each shuffle is the deck before it, locked with the seat's key (in any order);
3. each lock is the deck before it with that seat's key for each other seat's slot;
4. each opening step took the seat's own key off, nothing else;
5. the three cards passed were the passer's slots, locked and unlocked honestly;
6. (a deal stopped because a shuffle proof failed at some page: after 1 and 2, each
   shuffle's proof; if all hold, the complaint was false);
7. each card played is the card of its slot (a card played twice stops the hand: one of
   the steps above shows who slipped in the copy), by the seat to play, and was legal when
   it was played (``hearts.rules.legal_mask``): the 2♣ first, following suit, no points on
   the first trick, no heart led before hearts were broken.

Cost: the checks use the short direction of each key (see ``group``), about the cost of the
deal itself; ``tools/bench_fair.py`` measures it.
"""

from __future__ import annotations

from collections.abc import Generator, Iterator
from dataclasses import dataclass

from hearts.cards import ALL_CARDS, SUIT_MASKS, Card
from hearts.handstate import HandState
from hearts.rules import NUM_SEATS, PassDirection, Rules, legal_mask, pass_target
from hearts.steps import run
from web.p2p.fair.transcript import (
    OPEN_ROUNDS,
    Cheat,
    Fault,
    Reveal,
    Transcript,
    chain_seat,
    slots_of,
)

__all__ = ["AuditResult", "audit", "audit_in_steps"]


@dataclass(frozen=True)
class AuditResult:
    """The verdict: the first fault found (None: a fair hand), and what was dealt."""

    fault: Fault | None
    dealt: tuple[tuple[Card, ...], ...] = ()
    """Each seat's 13 cards as dealt, before passing (empty when the audit stopped early)."""
    disagreeing: tuple[int, ...] = ()
    """Seats whose record differs from this page's: then nobody is named, the hand is void."""

    @property
    def fair(self) -> bool:
        """The hand counts: no fault, and every page saw the same messages."""
        return self.fault is None and not self.disagreeing


class _Found(Exception):
    def __init__(self, fault: Fault) -> None:
        self.fault = fault


def audit(transcript: Transcript, rules: Rules | None = None) -> AuditResult:
    """Check the hand in ``transcript``, once it is ``over`` and every key is shown.

    A hand stopped by a complaint is checked as far as it went; if nothing was spoilt, the
    seat that complained is the one at fault. If the pages' digests differ, nothing else is
    checked: their records differ, so a check could blame an honest page.
    """
    return run(audit_in_steps(transcript, rules))


def audit_in_steps(transcript: Transcript, rules: Rules | None = None
                   ) -> Generator[None, None, AuditResult]:
    """``audit`` in steps of about one power each (a full-size one at most), which the
    page runs in slices of its time budget (``hand.SLICE_SECONDS``), giving the browser
    control back in between; returns the result."""
    if not (transcript.over and (transcript.dealt or transcript.stopped_at_deal)):
        raise ValueError("the audit needs a dealt hand that is over, or a stopped deal")
    disagreeing = tuple(transcript.disagreeing)
    if disagreeing:  # a page said different things to different pages: don't name anyone
        return AuditResult(None, (), disagreeing)
    try:
        if transcript.stopped_at_deal:
            yield from _Audit(transcript, rules or Rules()).run_stopped_deal()
            assert transcript.complaint is not None
            return AuditResult(Fault(transcript.complaint, Cheat.FALSE_ALARM))
        dealt = yield from _Audit(transcript, rules or Rules()).run()
    except _Found as found:
        return AuditResult(found.fault)
    if transcript.complaint is not None:
        return AuditResult(Fault(transcript.complaint, Cheat.FALSE_ALARM), dealt)
    return AuditResult(None, dealt)


class _Audit:
    def __init__(self, transcript: Transcript, rules: Rules) -> None:
        self.t = transcript
        self.g = transcript.group
        self.rules = rules
        self.keys: list[Reveal] = []

    def run(self) -> Generator[None, None, tuple[tuple[Card, ...], ...]]:
        self._keys_shown()
        yield from self._shuffles()
        yield from self._locks()
        dealt_hidden = yield from self._openings()
        cards = yield from self._cards(dealt_hidden)
        hands = [0] * NUM_SEATS
        for slot, card in enumerate(cards):
            hands[slot // 13] |= card.mask
        dealt = tuple(tuple(sorted(cards[s] for s in slots_of(seat))) for seat in range(4))
        blind_keys: dict[int, int] = {}
        yield from self._passes(dealt_hidden, cards, hands, blind_keys)
        self._plays(cards, hands, blind_keys)
        return dealt

    def run_stopped_deal(self) -> Generator[None, None, None]:
        """A deal stopped by a complaint of a false shuffle proof: the keys, each shuffle
        against its seat's key, then each proof (the same record at every page now: the
        digests agreed), a slice per position."""
        self._keys_shown()
        yield from self._shuffles()
        for seat in range(NUM_SEATS):
            if not (yield from self.t.check_proof(seat)):
                raise self._fail(seat, Cheat.SHUFFLE)

    def _fail(self, seat: int, kind: Cheat, card: Card | None = None,
              suit: int | None = None) -> _Found:
        return _Found(Fault(seat, kind, card, suit))

    def _keys_shown(self) -> None:
        passing = self.t.direction is not PassDirection.NONE
        for seat in range(NUM_SEATS):
            reveal = self.t.reveals.get(seat)
            if reveal is None:
                raise self._fail(seat, Cheat.NO_KEYS)
            keys = [reveal.shuffle_key, *reveal.slot_keys, *reveal.blind_keys]
            blinds = 3 if passing and seat in self.t.blinded else 0
            if (len(reveal.slot_keys) != 52 or len(reveal.blind_keys) != blinds
                    or not all(type(k) is int and 0 < k < self.g.q and k % 2 for k in keys)
                    or self.g.power(self.g.generator, reveal.shuffle_key)
                    != self.t.commitments[seat]):
                raise self._fail(seat, Cheat.BAD_KEYS)
            self.keys.append(reveal)

    def _shuffles(self) -> Iterator[None]:
        for seat in range(NUM_SEATS):
            key = self.keys[seat].shuffle_key
            before = self.t.deck_before_shuffle(seat)
            locked = []
            for x in before:  # a power a step: the page slices them by time
                locked.append(self.g.power(x, key))
                yield
            if sorted(locked) != sorted(self.t.shuffles[seat]):
                raise self._fail(seat, Cheat.SHUFFLE)

    def _locks(self) -> Iterator[None]:
        modulus = self.g.p - 1
        for seat in range(NUM_SEATS):
            shuffle_key = self.keys[seat].shuffle_key
            before = self.t.deck_before_lock(seat)
            for slot, value in enumerate(self.t.locks[seat]):
                if slot // 13 == seat:  # its own slots come through as they were
                    ok = value == before[slot]
                else:  # the lock is (shuffle·slot)⁻¹: shuffle·slot gives the value back
                    key = shuffle_key * self.keys[seat].slot_keys[slot] % modulus
                    ok = self.g.power(value, key) == before[slot]
                if not ok:
                    raise self._fail(seat, Cheat.LOCK)
                yield  # a full-size power a step

    def _openings(self) -> Generator[None, None, list[int]]:
        for round_ in range(1, OPEN_ROUNDS + 1):
            for seat in range(NUM_SEATS):
                slots, before = self.t.open_input(seat, round_)
                after = self.t.opened[(round_, seat)]
                for slot, x, y in zip(slots, before, after, strict=True):
                    if self.g.power(x, self.keys[seat].slot_keys[slot]) != y:
                        raise self._fail(seat, Cheat.OPEN)
                    yield
        hidden = [0] * 52
        for owner in range(NUM_SEATS):
            last = self.t.opened[(OPEN_ROUNDS, chain_seat(owner, OPEN_ROUNDS))]
            for slot, value in zip(slots_of(owner), last, strict=True):
                hidden[slot] = value
        return hidden

    def _cards(self, hidden: list[int]) -> Generator[None, None, list[Card]]:
        """Each slot's card: the opened value is its code under its owner's shuffling key."""
        cards: list[Card] = []
        for owner in range(NUM_SEATS):
            key = self.keys[owner].shuffle_key
            codes = self.g.codes
            by_value: dict[int, int] = {}
            for n, code in enumerate(codes):  # 52 short powers an owner, one a step
                by_value[self.g.power(code, key)] = n
                yield
            for slot in slots_of(owner):
                index = by_value.get(hidden[slot])
                if index is None:  # unreachable once every step checked: the codes are 52
                    raise AssertionError("an audited card does not open")
                cards.append(ALL_CARDS[index])
            yield
        return cards

    def _passes(self, hidden: list[int], cards: list[Card], hands: list[int],
                blind_keys: dict[int, int]) -> Iterator[None]:
        """Each card passed: the receiver's blind and the passer's unblind, a power a step."""
        if self.t.direction is PassDirection.NONE:
            return
        for passer in range(NUM_SEATS):
            target = pass_target(passer, self.t.direction)
            if passer not in self.t.unblinded:
                continue  # the hand stopped before this pass was made: nothing to check
            slots = self.t.pass_slots[passer]
            blinded, unblinded = self.t.blinded[target], self.t.unblinded[passer]
            passer_key = self.keys[passer].shuffle_key
            for slot, blind_key, b, u in zip(slots, self.keys[target].blind_keys, blinded,
                                             unblinded, strict=True):
                if self.g.power(hidden[slot], blind_key) != b:
                    raise self._fail(target, Cheat.BLIND)
                yield
                if self.g.power(u, passer_key) != b:
                    raise self._fail(passer, Cheat.FALSE_PASS, cards[slot])
                yield
                hands[passer] ^= cards[slot].mask
                hands[target] |= cards[slot].mask
                blind_keys[slot] = blind_key

    def _plays(self, cards: list[Card], hands: list[int], blind_keys: dict[int, int]) -> None:
        state = HandState(hands, self.rules)
        for play in self.t.plays:
            card = cards[play.slot]
            if play.card != card or (play.slot in blind_keys
                                     and play.proof != (blind_keys[play.slot],)):
                raise self._fail(play.seat, Cheat.BAD_KEYS, play.card)
            if play.seat != state.to_play:
                raise self._fail(play.seat, Cheat.OUT_OF_TURN, card)
            hand = state.hands[play.seat]
            first = state.tricks_done == 0
            if not legal_mask(hand, state.led_suit, first, state.broken, self.rules) & card.mask:
                raise self._fail(play.seat, self._why(hand, state, card), card,
                                 state.led_suit if state.led_suit >= 0 else None)
            state.apply(card.index)

    @staticmethod
    def _why(hand: int, state: HandState, card: Card) -> Cheat:
        if state.led_suit >= 0:
            return Cheat.REVOKE if hand & SUIT_MASKS[state.led_suit] else Cheat.FIRST_TRICK
        return Cheat.NOT_2C if state.tricks_done == 0 else Cheat.UNBROKEN
