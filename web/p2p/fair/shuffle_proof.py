"""A zero-knowledge proof that a shuffle is one: the deck out is the deck in, each value
raised to the shuffler's committed key, in some order — checked by every page before any
card is opened.

The statement: ``after[i] == before[pi(i)] ** k`` for a permutation ``pi`` and the key ``k``
of the shuffler's commitment ``K = g**k``. The proof is Terelius and Wikström's ("Proofs of
restricted shuffles", AFRICACRYPT 2010; Wikström, "A commitment-consistent proof of a
shuffle", ACISP 2009), the proof of shuffle of the Verificatum mix-net, here for an
exponentiation shuffle (SRA's) instead of an ElGamal re-encryption:

1. The prover commits to the permutation, one Pedersen commitment per position,
   ``u[j] = g**r[j] · h[sigma(j)]`` with ``sigma = pi⁻¹`` over generators ``h`` nobody knows
   a relation between (hashed into the group, ``generators``).
2. A vector ``e`` of 80-bit numbers comes from a hash of the statement and ``u``
   (Fiat–Shamir). The prover shows, in one Sigma protocol with one challenge ``v``, that the
   committed matrix opens, at ``e``, to a vector ``e'`` whose product is ``prod e`` (a chain
   of commitments ``B``) and whose rows sum to one (``prod u / prod h``), and that
   ``prod after[i] ** e'[i] == (prod before[j] ** e[j]) ** k`` with the ``k`` of ``K``.
   Terelius and Wikström show the first two hold for a random ``e`` only if the matrix is a
   permutation's (odds of a false one about ``N / 2**80``), and the third then says each
   ``after[i]`` is ``before[pi(i)] ** k``.

Why it stops the attacks of ``docs/protocol.md``: a last shuffler that puts in its own slot
a product of other slots' values (to read the other hands by a search once its slot opens to
it), or any value that isn't a card's under its key, can't make this proof, and every page
names it before it opens a single card.

Sizes: the secrets are short as everywhere here (``group.EXPONENT_BITS``) and the responses
are computed over the integers with masks ``HIDING_BITS`` longer (the statistical
zero-knowledge of ``proofs``), but for the chain's last exponent, which is a number mod
``q``. The work is linear in the deck: the prover about 52 × 1 300 bits of exponent; the
verifier folds its 54 equations of one kind into one with random weights of its own (the
small-exponents batch test of Bellare, Garay and Rabin, "Fast Batch Verification for
Modular Exponentiation and Digital Signatures", EUROCRYPT 1998), about 52 × 1 000
(``tools/bench_fair.py --shuffle-proof``). Both are generators,
one position a step, so a page can do them in slices between frames.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Generator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from hearts.steps import run
from web.p2p.fair.group import Group, KeySource
from web.p2p.fair.proofs import HIDING_BITS

__all__ = ["BATCH_BITS", "ShuffleProof", "check_shuffle", "check_shuffle_steps",
           "generators", "prove_shuffle", "prove_shuffle_steps", "response_bits"]

BATCH_BITS: Final = 80
"""Bits of each number of the batching vector ``e``: a false shuffle passes for about
``52 / 2**80`` of the vectors, the 1024-bit group's own 80-bit strength (``group``)."""
CHALLENGE_BITS: Final = 80
"""Bits of the challenge ``v``: a false proof is answered for one in ``2**80`` of them.
(The table's other proofs use 128 bits; these two sizes are where the proof's cost is.)"""
WEIGHT_BITS: Final = 64
"""Bits of the checker's own random weights that fold its equations into one."""

Steps = Generator[None, None, "ShuffleProof"]


@dataclass(frozen=True)
class ShuffleProof:
    """The prover's messages: the permutation's commitments ``u``, the chain ``B``, the
    first messages (``A'``, ``C'``, ``D'``, ``F'``, ``K'`` and the chain's ``B'``), and the
    responses (``k_A``, ``k_C``, ``k_D``, ``k_K``, and per position ``k_B``, ``k_E``)."""

    commitments: tuple[int, ...]
    chain: tuple[int, ...]
    firsts: tuple[int, ...]
    chain_firsts: tuple[int, ...]
    responses: tuple[int, ...]
    chain_responses: tuple[int, ...]
    batch_responses: tuple[int, ...]


def response_bits(group: Group) -> int:
    """Every honest response is below ``2**response_bits(group)`` (the longest: ``k_A``,
    and ``k_D`` mod q)."""
    return max(group.q.bit_length(), _bits_a(group) + CHALLENGE_BITS + HIDING_BITS + 1)


def _bits_a(group: Group) -> int:
    """Bits of ``a = sum r[j] e[j]``: 52 products of a short exponent and a batch number."""
    return group.exponent_bits + BATCH_BITS + 6


def _mask_bits(group: Group, secret_bits: int) -> int:
    return secret_bits + CHALLENGE_BITS + HIDING_BITS


@lru_cache(maxsize=4)
def generators(group: Group, count: int) -> tuple[int, ...]:
    """``count`` residues hashed into the group: nobody knows a power relation between them
    or with ``g`` (finding one is a discrete logarithm), which makes ``u`` binding."""
    size = (group.p.bit_length() + 7) // 8 + 16
    out = []
    for i in range(count):
        digest = hashlib.shake_256(b"hearts fair shuffle generator %d" % i).digest(size)
        out.append(pow(int.from_bytes(digest, "big"), 2, group.p))
    if len(set(out)) != count or any(h in (0, 1, group.generator) for h in out):
        raise ValueError(f"the shuffle generators of {group.name} collide")  # never
    return tuple(out)


def _hash(group: Group, label: bytes, context: bytes, *decks: Sequence[int]) -> hashlib._Hash:
    size = (group.p.bit_length() + 7) // 8
    digest = hashlib.sha256(b"hearts fair shuffle proof v2 " + label + b" " + context)
    for deck in decks:
        digest.update(len(deck).to_bytes(2, "big"))
        for value in deck:
            digest.update(value.to_bytes(size, "big"))
    return digest


def _batch(group: Group, context: bytes, before: Sequence[int], after: Sequence[int],
           commitment: int, u: Sequence[int]) -> tuple[bytes, list[int]]:
    seed = _hash(group, b"batch", context, before, after, (commitment,), u).digest()
    stream = hashlib.shake_256(seed).digest(len(u) * BATCH_BITS // 8)
    width = BATCH_BITS // 8
    return seed, [int.from_bytes(stream[i * width:(i + 1) * width], "big")
                  for i in range(len(u))]


def _challenge(group: Group, seed: bytes, chain: Sequence[int], firsts: Sequence[int],
               chain_firsts: Sequence[int]) -> int:
    digest = _hash(group, b"challenge", seed, chain, firsts, chain_firsts).digest()
    return int.from_bytes(digest[:CHALLENGE_BITS // 8], "big")


def prove_shuffle_steps(group: Group, key: int, order: Sequence[int],
                        before: Sequence[int], after: Sequence[int], context: bytes,
                        source: KeySource | None = None) -> Steps:
    """The proof that ``after[i] == before[order[i]] ** key``, one position a step (the
    generator's value; ``next`` it to the end). Of a false statement it makes a proof that
    fails. Raises ValueError if ``order`` is no permutation of the deck."""
    rng = source if source is not None else secrets.SystemRandom()
    p, q, g, n = group.p, group.q, group.generator, len(before)
    if sorted(order) != list(range(n)) or len(after) != n:
        raise ValueError("not a permutation of the deck")
    h0, *h = generators(group, n + 1)
    sigma = [0] * n
    for i, j in enumerate(order):
        sigma[j] = i
    short = group.exponent_bits
    r = [rng.getrandbits(short) for _ in range(n)]
    u = []
    for j in range(n):
        u.append(group.power(g, r[j]) * h[sigma[j]] % p)
        yield
    seed, e = _batch(group, context, before, after, group.power(g, key), u)
    e_out = [e[order[i]] for i in range(n)]  # e' : the opening of prod u**e at h[i]
    b = [rng.getrandbits(short) for _ in range(n)]
    beta = [rng.getrandbits(_mask_bits(group, short)) for _ in range(n)]
    epsilon = [rng.getrandbits(_mask_bits(group, BATCH_BITS)) for _ in range(n)]
    alpha = rng.getrandbits(_mask_bits(group, _bits_a(group)))
    gamma = rng.getrandbits(_mask_bits(group, short + 6))
    delta = rng.getrandbits(q.bit_length() + HIDING_BITS) % q
    kappa = rng.getrandbits(_mask_bits(group, short))
    chain, chain_firsts = [], []
    previous, x = h0, 0
    a_first = group.power(g, alpha)
    f_value, f_first = 1, 1
    for i in range(n):  # (a step per power or two: a position is some 1 100 bits of them)
        link = group.power(g, b[i]) * pow(previous, e_out[i], p) % p
        chain_firsts.append(group.power(g, beta[i]) * pow(previous, epsilon[i], p) % p)
        chain.append(link)
        x = (x * e_out[i] + b[i]) % q
        previous = link
        yield
        a_first = a_first * pow(h[i], epsilon[i], p) % p
        f_value = f_value * pow(before[i], e[i], p) % p
        yield
        f_first = f_first * pow(after[i], epsilon[i], p) % p
        yield
    f_first = f_first * (yield from group.power_steps(pow(f_value, -1, p), kappa)) % p
    d_first = yield from group.power_steps(g, delta)  # (mod q: full-size)
    firsts = (a_first, group.power(g, gamma), d_first, f_first, group.power(g, kappa))
    v = _challenge(group, seed, chain, firsts, chain_firsts)
    a = sum(rj * ej for rj, ej in zip(r, e, strict=True))
    responses = (v * a + alpha, v * sum(r) + gamma, (v * x + delta) % q, v * key + kappa)
    return ShuffleProof(tuple(u), tuple(chain), firsts, tuple(chain_firsts), responses,
                        tuple(v * bi + bt for bi, bt in zip(b, beta, strict=True)),
                        tuple(v * ei + et for ei, et in zip(e_out, epsilon, strict=True)))


def check_shuffle_steps(group: Group, before: Sequence[int], after: Sequence[int],
                        commitment: int, proof: ShuffleProof, context: bytes
                        ) -> Generator[None, None, bool]:
    """Whether ``proof`` shows ``after`` is ``before`` under the key of ``commitment``
    (``g**key``), reordered; one position a step, like ``prove_shuffle_steps``.

    Every number of ``before``, ``after``, ``commitment`` and the proof must be in the group
    of prime order ``q`` (``Group.is_element``): the argument's soundness rests on it."""
    p, q, g, n = group.p, group.q, group.generator, len(before)
    limit = 1 << response_bits(group)
    numbers = (*before, *after, commitment, *proof.commitments, *proof.chain, *proof.firsts,
               *proof.chain_firsts)
    if (len(after) != n or len(proof.commitments) != n or len(proof.chain) != n
            or len(proof.chain_firsts) != n or len(proof.firsts) != 5
            or len(proof.responses) != 4 or len(proof.chain_responses) != n
            or len(proof.batch_responses) != n
            or not all(type(z) is int and 0 <= z < limit for z in
                       (*proof.responses, *proof.chain_responses, *proof.batch_responses))):
        return False
    for start in range(0, len(numbers), 4):  # 266 Jacobi symbols: a step per 4 (a
        # symbol of 1024 bits is some 3 ms on a slow phone)
        if not all(map(group.is_element, numbers[start:start + 4])):
            return False
        yield
    h0, *h = generators(group, n + 1)
    u, chain = proof.commitments, proof.chain
    seed, e = _batch(group, context, before, after, commitment, u)
    v = _challenge(group, seed, chain, proof.firsts, proof.chain_firsts)
    a_first, c_first, d_first, f_first, k_first = proof.firsts
    k_a, k_c, k_d, k_k = proof.responses
    k_b, k_e = proof.chain_responses, proof.batch_responses
    # The chain's 52 equations, A's and F's, checked at once with random weights of this
    # page's own (the small-exponents batch test): a false one passes with odds 2**-64.
    weights = [secrets.randbits(WEIGHT_BITS) for _ in range(n)]
    f_weight = secrets.randbits(WEIGHT_BITS)
    left = right = a_value = f_value = 1
    g_exponent = k_a
    u_product = h_product = e_product = 1
    previous = h0
    for i in range(n):  # (a step per power or two: a position is some 800 bits of them)
        w = weights[i]
        left = left * pow(chain[i], v * w, p) * pow(proof.chain_firsts[i], w, p) % p
        base = pow(previous, w, p) * h[i] * pow(after[i], f_weight, p) % p
        yield
        right = right * pow(base, k_e[i], p) % p
        g_exponent += w * k_b[i]
        previous = chain[i]
        yield
        a_value = a_value * pow(u[i], e[i], p) % p
        f_value = f_value * pow(before[i], e[i], p) % p
        u_product, h_product = u_product * u[i] % p, h_product * h[i] % p
        e_product = e_product * e[i] % q
        yield
    f_side = yield from group.power_steps(f_value, k_k)
    f_side = pow(f_side * f_first % p, f_weight, p)
    yield
    c_value = u_product * pow(h_product, -1, p) % p
    yield
    d_value = chain[-1] * pow((yield from group.power_steps(h0, e_product)), -1, p) % p
    yield
    first = left * pow(a_value, v, p) * a_first * f_side % p \
        == (yield from group.power_steps(g, g_exponent)) * right % p
    yield
    return (first and pow(c_value, v, p) * c_first % p == group.power(g, k_c)
            and pow(d_value, v, p) * d_first % p == (yield from group.power_steps(g, k_d))
            and pow(commitment, v, p) * k_first % p == group.power(g, k_k))


def prove_shuffle(group: Group, key: int, order: Sequence[int], before: Sequence[int],
                  after: Sequence[int], context: bytes,
                  source: KeySource | None = None) -> ShuffleProof:
    """``prove_shuffle_steps`` at once."""
    return run(prove_shuffle_steps(group, key, order, before, after, context, source))


def check_shuffle(group: Group, before: Sequence[int], after: Sequence[int], commitment: int,
                  proof: ShuffleProof, context: bytes) -> bool:
    """``check_shuffle_steps`` at once."""
    return run(check_shuffle_steps(group, before, after, commitment, proof, context))
