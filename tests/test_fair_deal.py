"""The fair deal of tables of strangers (web/p2p/fair/): the cipher, the deal, the audit.

Four parties run in one process (``LocalTable``), each with its own transcript; a cheat is
a party that does one step wrong. The protocol tests use a small safe prime so a whole hand
takes a fraction of a second; the table's own group is checked on its own.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from hearts.cards import ALL_CARDS, SUIT_MASKS, Card, cards_of_mask, mask_of
from hearts.rules import PassDirection, pass_target
from tests.groups import SMALL
from tools import fair_local as local
from tools.fair_local import LocalTable, first_legal
from web import words
from web.p2p.fair import proofs, wire
from web.p2p.fair.audit import audit, audit_in_steps
from web.p2p.fair.cheats import (
    POINT_CARDS,
    CardReader,
    FalsePass,
    Framing,
    MarkedCards,
    StackedDeck,
)
from web.p2p.fair.group import GROUP, GROUPS, POWER_WINDOW, STEP_BITS, Group, jacobi
from web.p2p.fair.inbox import Inbox
from web.p2p.fair.party import Party
from web.p2p.fair.proofs import (
    check_power,
    check_same_power,
    prove_power,
    prove_same_power,
    response_limit,
)
from web.p2p.fair.signing import echo
from web.p2p.fair.transcript import (
    Cheat,
    CheatDetected,
    Fault,
    Reveal,
    Transcript,
    slots_of,
)
from web.p2p.fair.wire import max_chars, message, parse, read_own, receive


def probably_prime(n: int, rounds: int = 24) -> bool:
    """Miller–Rabin with seeded bases: a composite passes with odds below 4**-rounds."""
    d, s = n - 1, 0
    while d % 2 == 0:
        d, s = d // 2, s + 1
    rng = random.Random(n)
    for _ in range(rounds):
        x = pow(rng.randrange(2, n - 2), d, n)
        if x in (1, n - 1):
            continue
        for _ in range(s - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


def table(direction: PassDirection = PassDirection.LEFT, seed: int = 1,
          cheats: dict[int, type[Party]] | None = None) -> LocalTable:
    sources = [random.Random(seed * 10 + seat) for seat in range(4)]
    return LocalTable(direction, sources, dict(cheats or {}), group=SMALL)


def dealt_and_passed(t: LocalTable) -> list[list[Card]]:
    hands = t.deal()
    t.pass_cards([hand[-3:] for hand in hands])
    return hands


# --- the cipher ------------------------------------------------------------------------------
@pytest.mark.parametrize("group", [SMALL, *GROUPS.values()], ids=lambda g: g.name)
def test_every_group_is_a_safe_prime(group: Group) -> None:
    assert probably_prime(group.p) and probably_prime(group.q)
    assert group.p == 2 * group.q + 1


def test_a_key_and_its_inverse_round_trip_every_card() -> None:
    rng = random.Random(3)
    for card in ALL_CARDS:
        key = GROUP.short_key(rng)
        locked = GROUP.power(GROUP.encode(card), GROUP.inverse(key))
        assert locked != GROUP.encode(card)
        assert GROUP.decode(GROUP.power(locked, key)) == card


def test_locks_commute_so_they_come_off_in_any_order() -> None:
    rng = random.Random(4)
    keys = [GROUP.short_key(rng) for _ in range(4)]
    code = GROUP.encode(Card.parse("QS"))
    one_way = code
    for key in keys:
        one_way = GROUP.power(one_way, key)
    other_way = code
    for key in reversed(keys):
        other_way = GROUP.power(other_way, key)
    assert one_way == other_way
    for key in (keys[2], keys[0], keys[3], keys[1]):
        one_way = GROUP.power(one_way, GROUP.inverse(key))
    assert GROUP.decode(one_way) == Card.parse("QS")


def test_cards_are_52_distinct_quadratic_residues() -> None:
    assert len(set(GROUP.codes)) == 52
    assert all(GROUP.is_residue(code) for code in GROUP.codes)
    assert [GROUP.decode(code) for code in GROUP.codes] == list(ALL_CARDS)
    assert GROUP.decode(GROUP.codes[0] * 2 % GROUP.p) is None


def test_a_lock_keeps_residuosity_which_is_why_every_card_is_a_residue() -> None:
    """Lipton's attack: an odd key never changes the Legendre symbol, so it is public."""
    rng = random.Random(5)
    non_residue = next(x for x in range(2, 100) if not GROUP.is_residue(x))
    for _ in range(5):
        key = GROUP.short_key(rng)
        assert not GROUP.is_residue(GROUP.power(non_residue, key))
        assert GROUP.is_residue(GROUP.power(GROUP.codes[7], key))


@pytest.mark.parametrize("group", [SMALL, GROUP])
def test_powers_of_the_generator_from_its_table_are_the_powers(group: Group) -> None:
    rng = random.Random(3)
    assert response_limit(group) <= 1 << group.table_bits  # every proof's exponent fits
    exponents = [0, 1, 63, 64, (1 << group.table_bits) - 1, 1 << group.table_bits,
                 *(rng.getrandbits(rng.randrange(1, group.table_bits + 8)) for _ in range(50))]
    for e in exponents:
        assert group.power(group.generator, e) == pow(group.generator, e, group.p)


@pytest.mark.parametrize("group", [SMALL, GROUP], ids=["small", "1024"])
def test_a_power_in_steps_is_the_power_an_eighth_of_a_full_size_one_a_step(
        group: Group) -> None:
    """``Group.power_steps``: the same number as ``pow``, in a step per ``STEP_BITS`` of
    the exponent (a full-size power of the 1024-bit group in eight); a short one, or a
    generator's power from its table, in one."""
    rng = random.Random(5)
    base = group.codes[7]
    for bits in (1, 4, 127, 128, 129, 300, group.p.bit_length()):
        for e in (1 << (bits - 1), rng.getrandbits(bits) | 1 << (bits - 1), (1 << bits) - 1):
            steps = group.power_steps(base, e)
            count = 0
            while True:
                try:
                    next(steps)
                    count += 1
                except StopIteration as done:
                    assert done.value == pow(base, e, group.p)
                    break
            # (a step of at most STEP_BITS past the leading digit)
            assert count == (0 if bits <= STEP_BITS else -(-(bits - POWER_WINDOW) // STEP_BITS))
    q_bits = group.q.bit_length()
    assert sum(1 for _ in group.power_steps(group.generator, group.q - 2)) == (
        0 if q_bits <= group.table_bits else -(-(q_bits - POWER_WINDOW) // STEP_BITS))


def test_keys_are_odd_short_and_prime_to_p_minus_1() -> None:
    rng = random.Random(6)
    for _ in range(50):
        key = GROUP.short_key(rng)
        assert key % 2 == 1 and key.bit_length() == GROUP.exponent_bits < GROUP.q.bit_length()
        assert key * GROUP.inverse(key) % (GROUP.p - 1) == 1


# --- an honest hand --------------------------------------------------------------------------
@pytest.mark.parametrize("direction", list(PassDirection))
def test_a_fair_hand_deals_passes_plays_and_passes_the_audit(direction: PassDirection) -> None:
    t = table(direction, seed=int(direction) + 2)
    hands = t.deal()
    assert sorted(c for hand in hands for c in hand) == list(ALL_CARDS)
    received = t.pass_cards([hand[:3] for hand in hands])
    if direction is not PassDirection.NONE:
        for seat in range(4):
            assert received[pass_target(seat, direction)] == hands[seat][:3]
    t.play_hand(first_legal)
    public = t.transcripts[0]
    assert public.plays[0].card == Card.parse("2C")
    results = t.finish()
    assert all(result.fair for result in results)
    for result in results:
        assert [sorted(h) for h in result.dealt] == [sorted(h) for h in hands]
    assert all(t.transcripts[s].plays == public.plays for s in range(4))


def test_a_card_is_opened_only_to_its_seat() -> None:
    """With all it holds (its keys, the public record), a page reads its own cards only."""
    t = table(seed=7)
    hands = dealt_and_passed(t)
    public = t.transcripts[0]
    decks = [value for deck in public.shuffles + public.locks for value in deck]
    opened: dict[int, list[int]] = {slot: [] for slot in range(52)}  # each slot's way to its seat
    for (round_, seat), values in public.opened.items():
        slots, _ = public.open_input(seat, round_)
        for slot, value in zip(slots, values, strict=True):
            opened[slot].append(value)
    in_transit = decks + [v for values in opened.values() for v in values]
    assert all(SMALL.is_residue(v) for v in in_transit)  # the Legendre symbol tells nothing
    for party in t.parties:
        passed_in = public.pass_slots[(party.seat - 1) % 4]
        assert sorted(party.known.values()) == sorted(
            [*hands[party.seat], *hands[(party.seat - 1) % 4][-3:]])
        shown = party.reveal()

        def keys(slot: int, shown: Reveal = shown) -> list[int]:  # its keys that touch slot
            own = [shown.slot_keys[slot], shown.shuffle_key, *shown.blind_keys]
            return own + [SMALL.inverse(k) for k in own]

        def opens(value: int, slot: int) -> bool:
            return any(SMALL.decode(SMALL.power(value, key)) for key in keys(slot))

        for slot in set(range(52)) - set(slots_of(party.seat)) - set(passed_in):
            assert not any(opens(v, slot) for v in [public.hidden[slot], *opened[slot]])
        # The decks after its own shuffle each need more keys than its own to read.
        for deck in [d for d in public.shuffles if d is not public.shuffles[party.seat]]:
            assert not any(opens(v, slot) for slot, v in enumerate(deck))
        for deck in public.locks:
            assert not any(opens(v, slot) for slot, v in enumerate(deck))


def test_a_played_card_is_opened_to_everyone_and_checked_against_its_seat() -> None:
    t = table(seed=8)
    dealt_and_passed(t)
    play = t.play_one(first_legal)
    assert play.card == Card.parse("2C")
    assert all(tr.plays[-1] == play for tr in t.transcripts)
    assert t.parties[play.seat].transcript.owner[play.slot] == play.seat


# --- cheats caught at once -------------------------------------------------------------------
class ShortDeck(Party):
    def shuffle(self) -> tuple[tuple[int, ...], int]:
        deck, commitment = super().shuffle()
        return deck[:51], commitment


class RepeatedCard(Party):
    def shuffle(self) -> tuple[tuple[int, ...], int]:
        deck, commitment = super().shuffle()
        return (deck[0], *deck[:51]), commitment


@pytest.mark.parametrize("cheat", [ShortDeck, RepeatedCard])
def test_a_short_deck_or_a_repeated_card_is_caught_on_arrival(cheat: type[Party]) -> None:
    t = table(cheats={2: cheat})
    with pytest.raises(CheatDetected) as caught:
        t.deal()
    assert caught.value.fault == Fault(2, Cheat.BAD_DECK)


# --- marked cards: every number received must be in the cards' group -------------------------
@pytest.mark.parametrize("group", [SMALL, GROUP])
def test_the_jacobi_symbol_says_what_eulers_criterion_says(group: Group) -> None:
    rng = random.Random(40)
    for x in [2, 3, 4, group.p - 1, group.p - 2, *(rng.randrange(2, group.p) for _ in range(60))]:
        assert (jacobi(x, group.p) == 1) == group.is_residue(x) == group.is_element(x)
    assert jacobi(0, group.p) == 0 and jacobi(group.p, group.p) == 0
    assert not group.is_element(1) and not group.is_element(group.p)


def _honest_shuffles_until(t: LocalTable, seat: int) -> str:
    """The shuffles before ``seat``'s, sent; the text of ``seat``'s own."""
    for p in t.parties[:seat]:
        deck, commitment = p.shuffle()
        t.send(p.seat, message("fair_shuffle", deck=deck, commit=commitment))
    deck, commitment = t.parties[seat].shuffle()
    return message("fair_shuffle", deck=deck, commit=commitment)


def test_marked_cards_would_be_followed_through_every_shuffle_without_the_check(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The attack, with the check on arrival as it was (the range only) and no shuffle
    proof (whose batch test rests on the subgroup check too: ``p - v`` is ``-v``, and a
    sign vanishes under an even weight): the first shuffler knows how many point cards
    each seat holds, and every other seat's cards still open."""
    monkeypatch.setattr(Group, "is_element", Group.in_range)
    monkeypatch.setattr(local, "check_shuffle", lambda *_: True)
    t = table(seed=41, cheats={0: MarkedCards})
    hands = t.deal()
    cheat = t.parties[0]
    assert isinstance(cheat, MarkedCards)
    follow = cheat.follow()
    assert sum(follow.values()) == 14
    for seat in (1, 2, 3):
        assert len(hands[seat]) == 13
        assert follow[seat] == sum(c in POINT_CARDS for c in hands[seat])


def test_the_last_shuffler_would_read_two_cards_of_another_hand_without_the_shuffle_proof(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The attack of the review: seat 3's own slot holds a product of seat 0's slots 1 and
    2 raised to small tags; once dealt, a search names both cards. With the proof, every
    page refuses that shuffle before a card is opened."""
    with pytest.raises(CheatDetected) as caught:
        table(seed=46, cheats={3: CardReader}).deal()
    assert caught.value.fault == Fault(3, Cheat.SHUFFLE)
    monkeypatch.setattr(local, "check_shuffle", lambda *_: True)
    t = table(seed=46, cheats={3: CardReader})
    hands = t.deal()
    cheat = t.parties[3]
    assert isinstance(cheat, CardReader)
    read = cheat.read()
    assert read is not None and set(read) <= set(hands[0])
    assert {t.parties[0].known[1], t.parties[0].known[2]} == set(read)
    assert len(hands[3]) == 12  # its own slot 45 holds no card: it can't prove its 13th


@pytest.mark.parametrize("seat", range(4))
def test_marked_cards_are_refused_on_arrival_by_every_page_naming_the_marker(seat: int) -> None:
    t = table(seed=42 + seat, cheats={seat: MarkedCards})
    text = _honest_shuffles_until(t, seat)
    for honest in set(range(4)) - {seat}:
        with pytest.raises(CheatDetected) as caught:
            receive(t.transcripts[honest], seat, text)
        assert caught.value.fault == Fault(seat, Cheat.MARKED)


def test_a_proof_over_a_non_residue_is_refused() -> None:
    """Chaum–Pedersen for ``-code**e``: with ``t2 = -base**r`` the check holds whenever the
    challenge is odd, so a page would find one in about two tries; never with the check."""
    rng = random.Random(43)
    g, code = SMALL.generator, SMALL.codes[9]
    e = SMALL.short_key(rng)
    commitment, marked = SMALL.power(g, e), SMALL.p - SMALL.power(code, e)
    for _ in range(40):
        r = rng.getrandbits(200)
        t1, t2 = SMALL.power(g, r), SMALL.p - SMALL.power(code, r)
        c = proofs._challenge(SMALL, b"ctx", g, commitment, code, marked, t1, t2)
        if c % 2:
            break
    forged = (t1, t2, r + c * e)
    with pytest.MonkeyPatch.context() as patch:  # the range check alone takes it
        patch.setattr(Group, "is_element", Group.in_range)
        assert check_same_power(SMALL, g, commitment, code, marked, forged, b"ctx")
    assert not check_same_power(SMALL, g, commitment, code, marked, forged, b"ctx")


def test_framing_with_p_minus_1_is_refused_on_arrival_naming_the_framer() -> None:
    t = table(seed=44, cheats={2: Framing})
    for p in t.parties:
        deck, commitment = p.shuffle()
        t.send(p.seat, message("fair_shuffle", deck=deck, commit=commitment))
        t.prove(p)
    for p in t.parties:
        t.send(p.seat, message("fair_lock", deck=p.lock()))
    for round_ in (1, 2):
        for p, values in [(p, p.open(round_)) for p in t.parties]:
            t.send(p.seat, message("fair_open", round=round_, values=values))
    text = message("fair_open", round=3, values=t.parties[2].open(3))
    for honest in (0, 1, 3):
        with pytest.raises(CheatDetected) as caught:
            receive(t.transcripts[honest], 2, text)
        assert caught.value.fault == Fault(2, Cheat.MARKED)


def test_a_page_that_shuffles_out_of_turn_is_named() -> None:
    transcript = Transcript(PassDirection.LEFT, SMALL)
    with pytest.raises(CheatDetected) as caught:  # seat 0 shuffles first
        transcript.add_shuffle(1, SMALL.codes, SMALL.generator)
    assert caught.value.fault == Fault(1, Cheat.OUT_OF_TURN)


def test_passing_cards_one_was_not_dealt_is_caught_on_arrival() -> None:
    t = table(seed=9)
    t.deal()
    other = slots_of(2)[0]
    with pytest.raises(CheatDetected) as caught:
        t.transcripts[0].add_pass(1, (other, *slots_of(1)[:2]))
    assert caught.value.fault == Fault(1, Cheat.PASS_NOT_OWN)


def test_a_card_that_was_not_dealt_to_the_seat_cannot_be_played() -> None:
    t = table(seed=10)
    dealt_and_passed(t)
    t.play_one(first_legal)
    public = t.transcripts[0]
    seat = public.to_play
    assert seat is not None
    someone_elses = next(s for s in range(52) if public.owner[s] != seat)
    passed_away = public.pass_slots[seat][0]
    card = t.parties[seat].known[passed_away]
    own = t.parties[seat].hand()[0]
    proof = t.parties[seat].play(own)[1]
    for slot in (someone_elses, passed_away):  # a passed card is no longer the passer's
        with pytest.raises(CheatDetected) as caught:
            public.add_play(seat, slot, card, proof)
        assert caught.value.fault == Fault(seat, Cheat.NOT_DEALT)


def test_a_card_is_played_only_with_a_proof_that_its_slot_holds_it() -> None:
    t = table(seed=11)
    dealt_and_passed(t)
    public = t.transcripts[0]
    holder = next(p for p in t.parties if Card.parse("2C") in p.hand())
    slot, (t1, t2, z) = holder.play(Card.parse("2C"))
    other = next(c for c in holder.hand() if c != Card.parse("2C"))
    for card, proof in ((Card.parse("2C"), (t1, t2, z + 1)),  # a forged proof
                        (other, (t1, t2, z))):                  # the right proof, another card
        with pytest.raises(CheatDetected) as caught:
            public.add_play(holder.seat, slot, card, proof)
        assert caught.value.fault == Fault(holder.seat, Cheat.BAD_KEY)
    with pytest.raises(CheatDetected) as caught:
        public.add_play(holder.seat, *_slot_and_card(holder, other))
    assert caught.value.fault == Fault(holder.seat, Cheat.OUT_OF_TURN, other)  # waits for the 2♣
    play = public.add_play(holder.seat, slot, Card.parse("2C"), (t1, t2, z))
    assert play.card == Card.parse("2C")


def test_a_cards_proof_is_checked_ahead_in_steps_and_taking_the_card_looks_it_up(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A card that waits to be taken has its proof checked in the page's slices, a power
    a step (``Inbox.vet``): the check then finds its answer (``check_same_power_steps``
    remembers it), and a forged proof is still refused when the card is taken."""
    monkeypatch.setattr(proofs, "_known", {})  # (what other tests checked: forgotten)
    t = table(seed=11)
    dealt_and_passed(t)
    public = t.transcripts[0]
    holder = next(p for p in t.parties if Card.parse("2C") in p.hand())
    slot, proof = holder.play(Card.parse("2C"))
    steps = public.play_check_steps(holder.seat, slot, Card.parse("2C"), proof)
    assert steps is not None
    assert sum(1 for _ in steps) == 2  # its two sides, a step each
    again = public.play_check_steps(holder.seat, slot, Card.parse("2C"), proof)
    assert again is not None and sum(1 for _ in again) == 0  # remembered
    inbox = Inbox(lambda: 0.0, [])
    forged = (*proof[:2], proof[2] + 1)
    inbox.hold(holder.seat, 1, wire.message("fair_play", slot=slot, card=Card.parse("2C"),
                                            proof=forged), public.group)
    vetted = [False]

    def over() -> bool:  # a slice's end after every step
        vetted[0] = not vetted[0]
        return vetted[0]

    assert not inbox.vet(public.group, over, public, 1)  # one step, then the slice is out
    assert inbox.vet(public.group, lambda: False, public, 1)
    checked = public.play_check_steps(holder.seat, slot, Card.parse("2C"), forged)
    assert checked is not None and sum(1 for _ in checked) == 0  # checked ahead: remembered
    with pytest.raises(CheatDetected) as caught:
        inbox.take(public, 1)
    assert caught.value.fault == Fault(holder.seat, Cheat.BAD_KEY)


def _slot_and_card(party: Party, card: Card) -> tuple[int, Card, tuple[int, ...]]:
    slot, proof = party.play(card)
    return slot, card, proof


def test_proofs_hold_for_the_truth_only() -> None:
    rng = random.Random(12)
    x, y = SMALL.short_key(rng), SMALL.short_key(rng)
    base, other = SMALL.codes[3], SMALL.codes[4]
    proof = prove_power(SMALL, x, base, SMALL.power(base, x), b"ctx", rng)
    assert check_power(SMALL, base, SMALL.power(base, x), proof, b"ctx")
    assert not check_power(SMALL, base, SMALL.power(base, x), proof, b"another context")
    assert not check_power(SMALL, other, SMALL.power(base, x), proof, b"ctx")
    g = SMALL.generator
    same = prove_same_power(SMALL, x, g, SMALL.power(g, x), base, SMALL.power(base, x), b"c",
                            rng)
    assert check_same_power(SMALL, g, SMALL.power(g, x), base, SMALL.power(base, x), same, b"c")
    assert not check_same_power(SMALL, g, SMALL.power(g, x), base, SMALL.power(base, y), same,
                                b"c")


class StealsByLocking(Party):
    """Puts another seat's slot into its own while locking: the others would open it to it."""

    def lock(self) -> tuple[int, ...]:
        deck = list(super().lock())
        deck[slots_of(self.seat)[0]] = self.transcript.deck_before_lock(self.seat)[
            slots_of((self.seat + 1) % 4)[0]]
        return tuple(deck)


class AsksForAnotherCard(Party):
    """Sends, as a card passed to it, another of the passer's cards to be unlocked."""

    def blind(self) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]:
        values, proofs = super().blind()
        t = self.transcript
        passer = t.passer_to(self.seat)
        kept = next(s for s in slots_of(passer) if s not in t.pass_slots[passer])
        key = t.group.short_key(random.Random(5))
        forged = t.group.power(t.hidden[kept], key)
        proof = prove_power(t.group, key, t.hidden[kept], forged,
                            t.context("blind", self.seat, kept), random.Random(6))
        return (forged, *values[1:]), (proof, *proofs[1:])


def test_locking_ones_own_cards_to_steal_another_is_caught_at_once() -> None:
    t = table(seed=13, cheats={1: StealsByLocking})
    with pytest.raises(CheatDetected) as caught:
        t.deal()
    assert caught.value.fault == Fault(1, Cheat.LOCK)


def test_asking_the_passer_to_unlock_a_card_it_kept_is_caught_at_once() -> None:
    t = table(seed=14, cheats={2: AsksForAnotherCard})
    hands = t.deal()
    with pytest.raises(CheatDetected) as caught:
        t.pass_cards([hand[:3] for hand in hands])
    assert caught.value.fault == Fault(2, Cheat.BLIND)


# --- cheats caught by the audit --------------------------------------------------------------
class SlipsInACopy(Party):
    """While locking, copies one seat's card into another's slot (not its own: that is
    checked at once): the copy opens, and shows when the card is played twice."""

    def lock(self) -> tuple[int, ...]:
        deck = list(super().lock())
        t, victim, source = self.transcript, (self.seat + 1) % 4, (self.seat + 2) % 4
        key = t.group.inverse(self._shuffle_key * self._slot_keys[slots_of(victim)[0]]
                              % (t.group.p - 1))  # the victim's slot's lock, on the source
        deck[slots_of(victim)[0]] = t.group.power(
            t.deck_before_lock(self.seat)[slots_of(source)[0]], key)
        return tuple(deck)


class SpoiltOpening(Party):
    def open(self, round_: int) -> tuple[int, ...]:
        values = list(super().open(round_))
        values[0] = values[0] * 4 % self.transcript.group.p  # still a residue
        return tuple(values)


@pytest.mark.parametrize("seat", range(4))
def test_a_stacked_deck_is_named_by_its_shuffle_proof_before_any_card_opens(seat: int) -> None:
    t = table(seed=12 + seat, cheats={seat: StackedDeck})
    with pytest.raises(CheatDetected) as caught:
        t.deal()
    assert caught.value.fault == Fault(seat, Cheat.SHUFFLE)
    assert not any(t.opened for t in t.transcripts)


@pytest.mark.parametrize(("cheat", "kind"), [(StackedDeck, Cheat.SHUFFLE),
                                             (SpoiltOpening, Cheat.OPEN)])
def test_a_spoilt_deal_shows_as_a_card_that_does_not_open_and_the_audit_names_who(
        cheat: type[Party], kind: Cheat, monkeypatch: pytest.MonkeyPatch) -> None:
    """The audit is the second line: were the shuffle proof to let a stacked deck by."""
    monkeypatch.setattr(local, "check_shuffle", lambda *_: True)
    for seat in range(4):
        t = table(seed=12 + seat, cheats={seat: cheat})
        hands = t.deal()
        unopened = [s for s, hand in enumerate(hands) if len(hand) < 13]
        assert unopened, "a spoilt card reaches someone"
        t.complain(unopened[0])
        results = t.finish(auditors=[(seat + 1) % 4])
        assert results[0].fault == Fault(seat, kind)


def test_a_false_pass_is_caught_by_the_receiver_and_named_by_the_audit() -> None:
    t = table(seed=20, cheats={3: FalsePass})
    hands = t.deal()
    received = t.pass_cards([hand[-3:] for hand in hands])
    receiver = pass_target(3, PassDirection.LEFT)
    assert len(received[receiver]) < 3
    t.complain(receiver)
    fault = t.finish(auditors=[1])[0].fault
    assert fault is not None and (fault.seat, fault.kind) == (3, Cheat.FALSE_PASS)


def test_complaining_about_cards_that_open_is_itself_named() -> None:
    t = table(seed=21)
    dealt_and_passed(t)
    t.complain(2)
    assert t.finish(auditors=[0])[0].fault == Fault(2, Cheat.FALSE_ALARM)


def revoke_when_possible(party: Party, transcript: Transcript) -> Card:
    """Plays off-suit while holding the led suit (after the first trick), if it can."""
    trick = transcript.trick
    hand = mask_of(party.hand())
    if trick and len(transcript.plays) >= 4:
        led = SUIT_MASKS[trick[0].card.suit]
        if hand & led and hand & ~led:
            return cards_of_mask(hand & ~led)[0]
    return first_legal(party, transcript)


@pytest.mark.parametrize("cheater", [0, 1, 2, 3])
def test_a_revoke_is_named_by_every_page_with_the_card_and_the_suit(cheater: int) -> None:
    t = table(seed=30 + cheater)
    dealt_and_passed(t)
    while not t.transcripts[0].finished:
        seat = t.transcripts[0].to_play
        t.play_one(revoke_when_possible if seat == cheater else first_legal)
    results = t.finish()
    revoke = next(p for i, p in enumerate(t.transcripts[0].plays)
                  if p.seat == cheater and i % 4 and i >= 4
                  and p.card.suit != t.transcripts[0].plays[i - i % 4].card.suit)
    led = t.transcripts[0].plays[t.transcripts[0].plays.index(revoke) // 4 * 4].card.suit
    assert all(r.fault == Fault(cheater, Cheat.REVOKE, revoke.card, led) for r in results)
    text = words.fault_text(results[0].fault or Fault(0, Cheat.REVOKE), 0)
    assert text.endswith(f"played the {revoke.card.name} when {led.noun} were led, "
                         f"while holding {led.noun}.")


def test_a_card_slipped_into_another_seats_slot_stops_the_hand_when_played_twice() -> None:
    t = table(seed=22, cheats={0: SlipsInACopy})
    dealt_and_passed(t)
    t.play_hand(first_legal)
    public = t.transcripts[0]
    assert public.complaint is not None and not public.finished
    cards = [p.card for p in public.plays]
    assert cards.count(cards[-1]) == 2
    assert t.finish(auditors=[3])[0].fault == Fault(0, Cheat.LOCK)


def test_keys_shown_at_the_end_that_were_not_used_are_named() -> None:
    t = table(seed=40)
    dealt_and_passed(t)
    t.play_hand(first_legal)
    for seat, tr in enumerate(t.transcripts):
        t.send(seat, message("fair_digest", sha256=tr.digest(), echo=(echo({}),) * 4))
    for party in t.parties:
        reveal = party.reveal()
        if party.seat == 1:
            reveal = Reveal(1, reveal.shuffle_key + 2, reveal.slot_keys, reveal.blind_keys)
        for tr in t.transcripts:
            tr.add_reveal(reveal)
    assert audit(t.transcripts[0]).fault == Fault(1, Cheat.BAD_KEYS)


def test_every_kind_of_cheat_has_a_sentence_naming_the_seat() -> None:
    for kind in Cheat:
        text = words.fault_text(Fault(1, kind, Card.parse("5H"), 0), 0)
        assert text.startswith("West cheated: ") and text.endswith("."), text
    assert words.fault_text(Fault(0, Cheat.SHUFFLE), 0) == \
        "You cheated: changed the deck while shuffling it."


# --- the wire --------------------------------------------------------------------------------
@pytest.mark.parametrize("raw", [
    "not json", "[]", '{"v": 2, "t": "fair_complain"}', '{"v": 1, "t": "fair_tea"}',
    '{"v": 1, "t": "fair_complain", "seat": 3}',               # a message never names a seat
    '{"v": 1, "t": "fair_pass", "slots": [13, 14, 15, 16]}',    # four cards
    '{"v": 1, "t": "fair_pass", "slots": [13, 14, true]}',
    '{"v": 1, "t": "fair_play", "slot": 13, "card": "1X", "proof": ["AQ"]}',
    '{"v": 1, "t": "fair_play", "slot": 13, "card": "QS", "proof": ["AAE"]}',  # 1, spelt long
    '{"v": 1, "t": "fair_play", "slot": 13, "card": "QS", "proof": [5]}',
    '{"v": 1, "t": "fair_play", "slot": 13, "card": "QS", "proof": ["AB"]}',   # stray bits
    '{"v": 1, "t": "fair_play", "slot": 13, "card": "QS", "proof": ["AA=="]}',  # padded
    '{"v": 1, "t": "fair_play", "slot": 13, "card": "QS", "proof": ["A+"]}',    # not URL-safe
    '{"v": 1, "t": "fair_play", "slot": 13, "card": "QS", "proof": ["A"]}',
    '{"v": 1, "t": "fair_blind", "values": ["Ag"], "proofs": [["Ag", "é"]]}',
    '{"v": 1, "t": "fair_open", "round": 1, "values": ["' + "A" * 70 + '"]}',  # > 400 bits
    "{" + " " * max_chars(SMALL) + "}",
])
def test_a_malformed_message_names_its_sender(raw: str) -> None:
    with pytest.raises(CheatDetected) as caught:
        receive(Transcript(PassDirection.LEFT, SMALL), 3, raw)
    assert caught.value.fault == Fault(3, Cheat.MALFORMED)


@pytest.mark.parametrize(("kind", "fields"), [
    ("fair_shuffle", {"deck": list(GROUP.codes), "commit": max(GROUP.codes)}),
    ("fair_blind", {"values": [5, 7, 9], "proofs": [[2, 3], [4, 5], [6, 7]]}),
    ("fair_play", {"slot": 13, "card": Card.parse("QS"), "proof": (1, 2, 3)}),
    ("fair_digest", {"sha256": "ab" * 32, "echo": ("cd" * 32,) * 4}),
])
def test_a_pages_own_message_reads_as_the_others_read_it(kind: str,
                                                         fields: dict[str, object]) -> None:
    """A page enters its own message in its record from the numbers it made, not from
    their spelling read back (a proof's 269): the same as another page reads."""
    text = message(kind, **fields)
    assert read_own(text, GROUP, 2, fields) == parse(text, GROUP, 2)


def test_numbers_travel_as_base64_and_come_back_whole() -> None:
    deck = tuple(GROUP.codes)
    text = message("fair_shuffle", deck=deck, commit=max(GROUP.codes))
    assert len(text) < max_chars(GROUP) and '"deck":["' in text
    transcript = Transcript(PassDirection.LEFT, GROUP)
    receive(transcript, 0, text)
    assert transcript.shuffles == [deck] and transcript.commitments == [max(GROUP.codes)]


def test_a_false_pass_is_named_even_if_the_other_passes_never_came() -> None:
    t = table(seed=23, cheats={3: FalsePass})
    hands = t.deal()
    for p in t.parties:
        t.send(p.seat, message("fair_pass", slots=p.choose_pass(hands[p.seat][:3])))
    for p in t.parties:
        values, proofs = p.blind()
        t.send(p.seat, message("fair_blind", values=values, proofs=proofs))
    t.send(3, message("fair_unblind", values=t.parties[3].unblind()))  # only seat 3 passes
    assert len(t.parties[0].read_passed()) < 3
    t.complain(0)
    fault = t.finish(auditors=[2])[0].fault
    assert fault is not None and (fault.seat, fault.kind) == (3, Cheat.FALSE_PASS)


def test_a_page_telling_pages_different_things_is_shown_and_no_honest_page_is_blamed() -> None:
    """Seat 1 sends its shuffle to seats 0 and 1, and a spoilt copy to seats 2 and 3."""
    t = table(seed=24)
    deck, commitment = t.parties[0].shuffle()
    t.send(0, message("fair_shuffle", deck=deck, commit=commitment))
    one, c1 = t.parties[1].shuffle()
    spoilt = (one[0] * 4 % SMALL.p, *one[1:])
    for seat, tr in enumerate(t.transcripts):
        receive(tr, 1, message("fair_shuffle", deck=one if seat < 2 else spoilt, commit=c1))
    for p in t.parties[2:]:
        deck, commitment = p.shuffle()
        t.send(p.seat, message("fair_shuffle", deck=deck, commit=commitment))
    for tr in t.transcripts:  # the shuffle proofs aside: here the digests are shown alone
        tr.proven = set(range(4))  # (with them, see test_fair_table's different shuffles)
    for p in t.parties:
        t.send(p.seat, message("fair_lock", deck=p.lock()))
    for round_ in (1, 2, 3):
        for p, values in [(p, p.open(round_)) for p in t.parties]:
            t.send(p.seat, message("fair_open", round=round_, values=values))
    hands = [p.read_hand() for p in t.parties]
    t.complain(next(seat for seat, hand in enumerate(hands) if len(hand) < 13))
    results = t.finish()
    assert [r.disagreeing for r in results] == [(2, 3), (2, 3), (0, 1), (0, 1)]
    assert all(r.fault is None and not r.fair for r in results)
    assert not any(tr.reveals for tr in t.transcripts)  # no page showed its keys
    # Without the digests, seats 0 and 1 would have blamed seat 2, who shuffled honestly.
    seen_by_0 = t.transcripts[0]
    seen_by_0.digests = dict.fromkeys(range(4), seen_by_0.digest())
    seen_by_0.reveals = {p.seat: p.reveal() for p in t.parties}
    assert audit(seen_by_0).fault == Fault(2, Cheat.SHUFFLE)
    assert words.disagreement_text([2, 3], 0) == (
        "North and East saw different messages from yours, so nobody can be named, and no "
        "page showed its keys. This hand doesn't count.")


def test_the_audit_comes_in_slices_with_the_same_verdict() -> None:
    t = table(seed=25)
    dealt_and_passed(t)
    t.play_hand(first_legal)
    whole = t.finish(auditors=[0])[0]
    steps, slices = audit_in_steps(t.transcripts[0]), 0
    while True:
        try:
            next(steps)
            slices += 1
        except StopIteration as done:
            assert done.value == whole and whole.fair
            break
    assert slices >= 12  # a seat's shuffle, lock, opening round and reading at a time


def test_every_proof_is_bound_to_its_table_hand_seat_and_kind() -> None:
    t = table(seed=45)
    dealt_and_passed(t)
    two = Card.parse("2C")
    seat = next(p.seat for p in t.parties if two in p.hand())
    slot, proof = t.parties[seat].play(two)
    tr = t.transcripts[(seat + 1) % 4]
    statement = (SMALL, SMALL.generator, tr.commitments[seat], SMALL.encode(two),
                 tr.hidden[slot], proof)
    assert check_same_power(*statement, tr.context("play", seat, slot))
    elsewhere = [Transcript(tr.direction, SMALL, table="another table", hand=1),
                 Transcript(tr.direction, SMALL, table="local", hand=2)]
    for context in [t.context("play", seat, slot) for t in elsewhere] + [
            tr.context("play", (seat + 1) % 4, slot), tr.context("blind", seat, slot)]:
        assert not check_same_power(*statement, context)


def test_a_held_message_is_read_once_when_it_comes(monkeypatch: pytest.MonkeyPatch) -> None:
    """Seat 1's lock comes before seat 0's: it waits, and is not read again at each try."""
    t = table(seed=46)
    for p in t.parties:
        deck, commitment = p.shuffle()
        t.send(p.seat, message("fair_shuffle", deck=deck, commit=commitment))
    first = message("fair_lock", deck=t.parties[0].lock())
    receive(t.transcripts[1], 0, first)
    second = message("fair_lock", deck=t.parties[1].lock())
    reads: list[str] = []
    real = wire._parse
    def reading(raw: str, group: Group) -> tuple[str, dict[str, Any]]:
        reads.append(raw)
        return real(raw, group)

    monkeypatch.setattr(wire, "_parse", reading)
    inbox, early = Inbox(lambda: 0.0, []), t.transcripts[2]
    assert inbox.hold(1, 1, second, SMALL)
    for _ in range(5):
        assert not inbox.take(early, 1)  # out of turn: it waits
    assert inbox.hold(0, 1, first, SMALL)
    assert inbox.take(early, 1) and inbox.take(early, 1) and len(early.locks) == 2
    assert reads == [second, first]
