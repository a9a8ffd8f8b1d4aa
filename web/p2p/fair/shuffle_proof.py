"""A zero-knowledge proof that a shuffle is one: the deck out is the deck in, each value
raised to one secret key, in some order. Built and measured; NOT yet part of the deal.

The statement: ``after[j] == before[pi(j)] ** e`` for a permutation ``pi`` and a key ``e``
the prover knows. Cut-and-choose, in the style of Sako and Kilian ("Receipt-Free Mix-Type
Voting Scheme", EUROCRYPT 1995, the shuffle proof of its mix), here for an exponentiation
shuffle rather than an ElGamal re-encryption (the same shape as the "shuffle-compatible"
Sigma protocols of Haines and Müller, "A Novel Proof of Shuffle: Exponentially Secure
Cut-and-Choose", ACISP 2021): in each of ``ROUNDS`` rounds the prover makes a fresh
shuffle ``Z = sigma(before ** r)`` with a full-size ``r``; a challenge bit asks it to show
either ``(r, sigma)`` — ``Z`` from ``before`` — or ``(r / e mod q, pi⁻¹ ∘ sigma)`` — ``Z``
from ``after``. Either answer alone is a uniform exponent and a uniform permutation, so
nothing of ``e`` or ``pi`` shows; a prover whose ``after`` is not such a shuffle can answer
at most one of the two, so it is caught with odds ``1 - 2**-ROUNDS``. The bits are
SHA-256 of the statement, the context and every ``Z`` (Fiat–Shamir).

Why ``r`` is full size: with ``r`` and ``e`` both short, ``r / e mod q`` gives them both
away (a two-dimensional lattice reduction finds the short pair). So the prover pays 52
full-size powers a round. The verifier checks each round's 52 equations at once with the
small-exponents batch test (Bellare, Garay and Rabin, "Fast Batch Verification for Modular
Exponentiation and Digital Signatures", EUROCRYPT 1998): random 40-bit weights ``w``,
``prod Z[j]**w[j] == (prod base[k(j)]**w[j]) ** exponent``, which is sound because every
value is in the group of prime order ``q`` (``Group.is_element``, checked on arrival).

Cost (``tools/bench_fair.py --shuffle-proof``, and ``docs/protocol.md``): the prover's
``ROUNDS × 52`` full-size powers are about 10 times a page's whole share of the deal
today, which is why it isn't in the deal.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from web.p2p.fair.group import Group, KeySource

__all__ = ["ROUNDS", "ShuffleProof", "check_shuffle", "prove_shuffle"]

ROUNDS: Final = 32
"""Cut-and-choose rounds: a false shuffle passes with odds 2**-32, and finding a passing
one by trying takes about 2**31 tries of 52 full-size powers each (years, for one page)."""
WEIGHT_BITS: Final = 40
"""The batch test's weights: a false round passes it with odds 2**-40."""


@dataclass(frozen=True)
class ShuffleProof:
    """Per round: the fresh shuffle ``Z``, then the answer to its bit: an exponent and a
    permutation (``Z[j] = base[perm[j]] ** exponent``, base ``before`` or ``after``)."""

    shuffles: tuple[tuple[int, ...], ...]
    exponents: tuple[int, ...]
    permutations: tuple[tuple[int, ...], ...]


def _bits(group: Group, context: bytes, before: Sequence[int], after: Sequence[int],
          shuffles: Sequence[Sequence[int]]) -> list[int]:
    size = (group.p.bit_length() + 7) // 8
    digest = hashlib.sha256(b"hearts fair shuffle proof v1 " + context)
    for deck in (before, after, *shuffles):
        for value in deck:
            digest.update(value.to_bytes(size, "big"))
    seed = digest.digest()
    return [seed[i // 8] >> (i % 8) & 1 for i in range(len(shuffles))]


def prove_shuffle(group: Group, key: int, before: Sequence[int], after: Sequence[int],
                  context: bytes, source: KeySource | None = None) -> ShuffleProof:
    """A proof that ``after`` is ``before`` under ``key``, reordered (``key``: the prover's;
    raises ValueError if ``after`` isn't so)."""
    rng = source if source is not None else secrets.SystemRandom()
    index = {group.power(x, key): i for i, x in enumerate(before)}
    pi = [index[y] for y in after]  # after[j] = before[pi[j]] ** key
    pi_inverse = [0] * len(pi)
    for j, i in enumerate(pi):
        pi_inverse[i] = j
    masks, sigmas, shuffles = [], [], []
    for _ in range(ROUNDS):
        r = 1 + rng.getrandbits(group.q.bit_length() + 64) % (group.q - 1)
        sigma = list(range(len(before)))
        rng.shuffle(sigma)
        masks.append(r)
        sigmas.append(sigma)
        shuffles.append(tuple(pow(before[s], r, group.p) for s in sigma))
    bits = _bits(group, context, before, after, shuffles)
    inverse_key = pow(key, -1, group.q)
    exponents, permutations = [], []
    for r, sigma, bit in zip(masks, sigmas, bits, strict=True):
        if bit == 0:
            exponents.append(r)
            permutations.append(tuple(sigma))
        else:
            exponents.append(r * inverse_key % group.q)
            permutations.append(tuple(pi_inverse[s] for s in sigma))
    return ShuffleProof(tuple(shuffles), tuple(exponents), tuple(permutations))


def check_shuffle(group: Group, before: Sequence[int], after: Sequence[int],
                  proof: ShuffleProof, context: bytes,
                  source: KeySource | None = None) -> bool:
    """Whether ``proof`` shows ``after`` is ``before`` under one key, reordered. Every value
    of ``before``, ``after`` and the proof must already be known to be in the group."""
    n = len(before)
    if (len(after) != n or len(proof.shuffles) != ROUNDS or len(proof.exponents) != ROUNDS
            or len(proof.permutations) != ROUNDS):
        return False
    if not all(len(z) == n and all(map(group.is_element, z)) for z in proof.shuffles):
        return False
    rng = source if source is not None else secrets.SystemRandom()
    bits = _bits(group, context, before, after, proof.shuffles)
    p = group.p
    for z, exponent, perm, bit in zip(proof.shuffles, proof.exponents, proof.permutations,
                                      bits, strict=True):
        if (type(exponent) is not int or not 0 < exponent < group.q
                or sorted(perm) != list(range(n))):
            return False
        base = before if bit == 0 else after
        weights = [rng.getrandbits(WEIGHT_BITS) | 1 for _ in range(n)]
        left = right = 1
        for value, k, w in zip(z, perm, weights, strict=True):
            left = left * pow(value, w, p) % p
            right = right * pow(base[k], w, p) % p
        if left != pow(right, exponent, p):
            return False
    return True
