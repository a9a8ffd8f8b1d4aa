"""The shuffle proof (web/p2p/fair/shuffle_proof.py), on the tests' small group and the
table's: an honest shuffle passes; the last shuffler's attack of the review (a slot holding
a product of other slots' values raised to small tags, to read cards by a search) fails; so
does any proof changed in any number, bound to another table, or to another key."""

from __future__ import annotations

import dataclasses
import random

import pytest

from tests.groups import SMALL
from web.p2p.fair.group import GROUP, Group
from web.p2p.fair.shuffle_proof import (
    ShuffleProof,
    check_shuffle,
    check_shuffle_steps,
    prove_shuffle,
    prove_shuffle_steps,
)


def _shuffle(seed: int, group: Group = SMALL
             ) -> tuple[int, list[int], list[int], list[int], int]:
    """A shuffle of an already locked deck: key, order, before, after, commitment."""
    rng = random.Random(seed)
    before = [group.power(c, group.short_key(rng)) for c in group.codes]
    key = group.short_key(rng)
    order = list(range(52))
    rng.shuffle(order)
    after = [group.power(before[i], key) for i in order]
    return key, order, before, after, group.power(group.generator, key)


@pytest.mark.parametrize("group", [SMALL, GROUP], ids=["small", "1024"])
def test_an_honest_shuffle_is_proven_and_only_for_its_own_statement(group: Group) -> None:
    key, order, before, after, commitment = _shuffle(1, group)
    proof = prove_shuffle(group, key, order, before, after, b"t", random.Random(2))
    assert check_shuffle(group, before, after, commitment, proof, b"t")
    assert not check_shuffle(group, before, after, commitment, proof, b"another table")
    other_key = group.power(group.generator, key + 2)
    assert not check_shuffle(group, before, after, other_key, proof, b"t")
    swapped = [after[1], after[0], *after[2:]]
    assert not check_shuffle(group, before, swapped, commitment, proof, b"t")


def test_a_tagged_slot_cannot_be_proven() -> None:
    """The attack: the last shuffler's own slot holds a product of two other slots' values
    raised to small tags, so that once it opens to it a search names those two cards."""
    key, order, before, after, commitment = _shuffle(4)
    tagged = list(after)
    tagged[45] = SMALL.power(after[1], 3) * SMALL.power(after[2], 5) % SMALL.p
    for seed in range(3):
        proof = prove_shuffle(SMALL, key, order, before, tagged, b"t", random.Random(seed))
        assert not check_shuffle(SMALL, before, tagged, commitment, proof, b"t")
    # Nor with the key of the slot it changed: no one key and order make that deck.
    assert not check_shuffle(SMALL, before, tagged, commitment,
                             prove_shuffle(SMALL, key, order, before, after, b"t",
                                           random.Random(9)), b"t")


def test_a_deck_with_a_card_swapped_for_another_cannot_be_proven() -> None:
    key, order, before, after, commitment = _shuffle(5)
    doubled = [*after[:10], after[11], *after[11:]]  # one card twice, one gone
    proof = prove_shuffle(SMALL, key, order, before, doubled, b"t", random.Random(1))
    assert not check_shuffle(SMALL, before, doubled, commitment, proof, b"t")


def test_every_number_of_the_proof_counts() -> None:
    key, order, before, after, commitment = _shuffle(7)
    proof = prove_shuffle(SMALL, key, order, before, after, b"t", random.Random(8))
    for field in dataclasses.fields(ShuffleProof):
        values = getattr(proof, field.name)
        for i in (0, len(values) - 1):
            changed = list(values)
            changed[i] = changed[i] * 4 % SMALL.p if changed[i] < SMALL.p else changed[i] + 1
            bad = dataclasses.replace(proof, **{field.name: tuple(changed)})
            assert not check_shuffle(SMALL, before, after, commitment, bad, b"t"), \
                (field.name, i)
        assert not check_shuffle(SMALL, before, after, commitment, dataclasses.replace(
            proof, **{field.name: values[:-1]}), b"t"), field.name


def test_a_number_outside_the_group_fails_the_proof() -> None:
    """``p - x`` is no residue: a proof over it could say nothing (see ``Group.is_element``)."""
    key, order, before, after, commitment = _shuffle(3)
    proof = prove_shuffle(SMALL, key, order, before, after, b"t", random.Random(4))
    marked = (SMALL.p - proof.chain[0], *proof.chain[1:])
    assert not check_shuffle(SMALL, before, after, commitment,
                             dataclasses.replace(proof, chain=marked), b"t")


def test_making_and_checking_go_a_power_or_two_a_step() -> None:
    """So that a page can do them in slices between frames (``FairHand.slice_step``): a
    position's powers in three or four steps, the last equations' long powers cut in
    ``STEP_BITS`` (``Group.power_steps``)."""
    key, order, before, after, commitment = _shuffle(6)
    making = prove_shuffle_steps(SMALL, key, order, before, after, b"t", random.Random(1))
    steps = 0
    while True:
        try:
            next(making)
            steps += 1
        except StopIteration as done:
            proof = done.value
            break
    # u a step a position, then three a position; the last mask's power (272 bits) in its
    # 128-bit steps
    assert 4 * 52 + 2 <= steps <= 4 * 52 + 3
    checking = check_shuffle_steps(SMALL, before, after, commitment, proof, b"t")
    # the 266 numbers' group checks, 4 a step; three steps a position; the last equations
    # in five, and their long powers (256 bits mod q, some 290 of g's) in 128-bit steps
    assert 67 + 3 * 52 + 5 + 2 <= sum(1 for _ in checking) <= 67 + 3 * 52 + 5 + 6


def test_an_order_that_is_no_permutation_is_refused() -> None:
    key, order, before, after, _ = _shuffle(2)
    with pytest.raises(ValueError):
        prove_shuffle(SMALL, key, [0, *order[1:-1], 0], before, after, b"t")
