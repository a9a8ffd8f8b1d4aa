"""The shuffle proof (web/p2p/fair/shuffle_proof.py), on the tests' small group: an honest
shuffle passes, and the last shuffler's attack of the review (a slot holding a product of
other slots' values raised to small tags, to read cards by a search) fails."""

from __future__ import annotations

import random

import pytest

from tests.test_fair_deal import SMALL
from web.p2p.fair import shuffle_proof
from web.p2p.fair.shuffle_proof import ROUNDS, ShuffleProof, check_shuffle, prove_shuffle


def _shuffle(seed: int) -> tuple[int, list[int], list[int]]:
    rng = random.Random(seed)
    before = [SMALL.power(c, SMALL.short_key(rng)) for c in SMALL.codes]
    key = SMALL.short_key(rng)
    after = [SMALL.power(x, key) for x in before]
    rng.shuffle(after)
    return key, before, after


def test_an_honest_shuffle_is_proven() -> None:
    key, before, after = _shuffle(1)
    proof = prove_shuffle(SMALL, key, before, after, b"t", random.Random(2))
    assert check_shuffle(SMALL, before, after, proof, b"t", random.Random(3))
    assert not check_shuffle(SMALL, before, after, proof, b"another context", random.Random(3))


def _guessing_proof(before: list[int], after: list[int], key: int, rounds: int,
                    rng: random.Random) -> ShuffleProof:
    """The best a prover of a false ``after`` can do: guess each round's bit, and make that
    round's ``Z`` so as to answer it (from ``before``, or from ``after``)."""
    shuffles, exponents, perms = [], [], []
    for _ in range(rounds):
        r = rng.randrange(1, SMALL.q)
        perm = list(range(52))
        rng.shuffle(perm)
        base = before if rng.getrandbits(1) == 0 else after
        shuffles.append(tuple(SMALL.power(base[k], r) for k in perm))
        exponents.append(r)
        perms.append(tuple(perm))
    return ShuffleProof(tuple(shuffles), tuple(exponents), tuple(perms))


def test_a_tagged_slot_fails_the_proof_and_guessing_the_bits_fails_too(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The attack: one output is a product of two others raised to small tags. The honest
    prover can't start (that value is no card's lock); a guessing one passes one round in
    two, and all 32 with odds 2**-32."""
    key, before, after = _shuffle(4)
    tagged = list(after)
    tagged[7] = SMALL.power(after[1], 3) * SMALL.power(after[2], 5) % SMALL.p
    with pytest.raises(KeyError):
        prove_shuffle(SMALL, key, before, tagged, b"t", random.Random(5))
    rng = random.Random(6)
    assert not any(check_shuffle(SMALL, before, tagged,
                                 _guessing_proof(before, tagged, key, ROUNDS, rng), b"t", rng)
                   for _ in range(3))
    monkeypatch.setattr(shuffle_proof, "ROUNDS", 1)  # one round: a guess passes half the time
    passed = sum(check_shuffle(SMALL, before, tagged,
                               _guessing_proof(before, tagged, key, 1, rng), b"t", rng)
                 for _ in range(40))
    assert 5 < passed < 35


def test_a_changed_answer_fails() -> None:
    key, before, after = _shuffle(7)
    proof = prove_shuffle(SMALL, key, before, after, b"t", random.Random(8))
    perms = list(proof.permutations)
    perms[0] = (perms[0][1], perms[0][0], *perms[0][2:])
    bad = ShuffleProof(proof.shuffles, proof.exponents, tuple(perms))
    assert not check_shuffle(SMALL, before, after, bad, b"t", random.Random(9))
    exps = (proof.exponents[0] + 1, *proof.exponents[1:])
    assert not check_shuffle(SMALL, before, after,
                             ShuffleProof(proof.shuffles, exps, proof.permutations), b"t",
                             random.Random(9))
