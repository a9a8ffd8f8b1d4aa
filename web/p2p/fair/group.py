"""The commutative cipher of the fair deal: SRA / Pohlig–Hellman over a safe prime.

A card is a number ``m`` modulo a prime ``p``; a key is an exponent ``e`` and
``E_e(m) = m**e mod p``. Encryptions commute (``E_a(E_b(m)) == E_b(E_a(m))``), so four pages
can lock the deck in turn and unlock it in any order: the scheme of Shamir, Rivest and
Adleman, "Mental Poker" (1979; the MIT memo and *The Mathematical Gardner*, 1981), with
Pohlig and Hellman's exponentiation cipher (IEEE Trans. Inf. Theory, 1978).

Why a safe prime and quadratic residues: ``p = 2q + 1`` with ``q`` prime. An odd exponent
keeps a number's quadratic residuosity (its Legendre symbol), so if some cards were residues
and some not, anyone could split an encrypted deck in two without any key: Lipton's attack,
"How to cheat at mental poker" (1981). Every card here is a residue (a square), so every
encryption of every card is a residue and the symbol says nothing. The residues form the
subgroup of prime order ``q``, where every exponent not a multiple of ``q`` is a key.

Why hashed encodings: encryption keeps products (``E(a)·E(b) = E(a·b)``). Cards coded as
small squares (4, 9, 36…) would show such relations inside a deck encrypted with one key,
and mark cards. Each card is the square of a hash of its name: no relation anyone can find.

Why short exponents: a key applied and then taken off must come to 1 in the exponent, so
one of each key's two directions is a full-size number, the other can be short. Short
exponents are the usual practice with these groups (RFC 3526's "strength estimates" pair
each group with an exponent of about twice its strength); Pollard's kangaroo needs about
2**(bits/2) steps to find one, so ``EXPONENT_BITS = 160`` matches the 80-bit strength of
the 1024-bit prime. Measured costs and the choice of the prime: ``docs/protocol.md``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Generator
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import Final, Protocol, TypeGuard

from hearts.cards import ALL_CARDS, Card

__all__ = [
    "EXPONENT_BITS",
    "GROUP",
    "GROUPS",
    "POWER_WINDOW",
    "STEP_BITS",
    "Group",
    "KeySource",
    "jacobi",
]

EXPONENT_BITS: Final = 160
"""Bits of the short direction of every key (see the module docstring)."""

_OAKLEY_2: Final = int(
    "FFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74"
    "020BBEA63B139B22514A08798E3404DDEF9519B3CD3A431B302B0A6DF25F1437"
    "4FE1356D6D51C245E485B576625E7EC6F44C42E9A637ED6B0BFF5CB6F406B7ED"
    "EE386BFB5A899FA5AE9F24117C4B1FE649286651ECE65381FFFFFFFFFFFFFFFF", 16)
"""The 1024-bit safe prime of RFC 2409's Second Oakley Group (also RFC 3526's base)."""

_MODP_1536: Final = int(
    "FFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74"
    "020BBEA63B139B22514A08798E3404DDEF9519B3CD3A431B302B0A6DF25F1437"
    "4FE1356D6D51C245E485B576625E7EC6F44C42E9A637ED6B0BFF5CB6F406B7ED"
    "EE386BFB5A899FA5AE9F24117C4B1FE649286651ECE45B3DC2007CB8A163BF05"
    "98DA48361C55D39A69163FA8FD24CF5F83655D23DCA3AD961C62F356208552BB"
    "9ED529077096966D670C354E4ABC9804F1746C08CA237327FFFFFFFFFFFFFFFF", 16)
"""The 1536-bit safe prime of RFC 3526, group 5."""

_MODP_2048: Final = int(
    "FFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74"
    "020BBEA63B139B22514A08798E3404DDEF9519B3CD3A431B302B0A6DF25F1437"
    "4FE1356D6D51C245E485B576625E7EC6F44C42E9A637ED6B0BFF5CB6F406B7ED"
    "EE386BFB5A899FA5AE9F24117C4B1FE649286651ECE45B3DC2007CB8A163BF05"
    "98DA48361C55D39A69163FA8FD24CF5F83655D23DCA3AD961C62F356208552BB"
    "9ED529077096966D670C354E4ABC9804F1746C08CA18217C32905E462E36CE3B"
    "E39E772C180E86039B2783A2EC07A28FB5C55DF06F4C52C9DE2BCBF695581718"
    "3995497CEA956AE515D2261898FA051015728E5A8AACAA68FFFFFFFFFFFFFFFF", 16)
"""The 2048-bit safe prime of RFC 3526, group 14."""


class KeySource(Protocol):
    """Where keys and shuffles come from: ``secrets.SystemRandom()`` in the page."""

    def getrandbits(self, k: int, /) -> int: ...

    def shuffle(self, x: list[int], /) -> None: ...


def jacobi(a: int, n: int) -> int:
    """The Jacobi symbol (a/n) for an odd ``n > 0``; for a prime ``n``, Legendre's: 1 for a
    nonzero square mod n, -1 for a non-square, 0 for a multiple of n.

    The binary algorithm (Cohen, *A Course in Computational Algebraic Number Theory*, 1993,
    Algorithm 1.4.10): a Euclid-like loop, about 20 times cheaper than Euler's criterion
    ``pow(a, (n - 1) // 2, n)`` at 1024 bits, so every number a page receives can be checked.
    """
    a %= n
    sign = 1
    while a:
        twos = (a & -a).bit_length() - 1
        if twos:
            a >>= twos
            if twos & 1 and n & 7 in (3, 5):  # (2/n) = -1 when n = 3 or 5 mod 8
                sign = -sign
        if a & n & 2:  # quadratic reciprocity: both are 3 mod 4
            sign = -sign
        a, n = n % a, a
    return sign if n == 1 else 0


@lru_cache(maxsize=4096)
def _square(value: int, p: int) -> bool:
    """``jacobi(value, p) == 1``, remembered for the last few thousand values (a hand's
    decks, openings and proofs at both of a page's tables)."""
    return jacobi(value, p) == 1


STEP_BITS: Final = 128
"""Bits of an exponent a step of ``Group.power_steps`` takes: an eighth of a full-size
power (a full-size one is some 40 ms on a phone: a step, some 5 ms)."""
POWER_WINDOW: Final = 4
"""Bits of an exponent per multiplication in ``Group.power_steps`` (a table of 16 powers)."""

TABLE_WINDOW: Final = 6
"""Bits of an exponent per row of the generator's table of powers (64 numbers a row)."""


@dataclass(frozen=True)
class Group:
    """The residues modulo the safe prime ``p``: the cipher's numbers and its keys."""

    p: int
    name: str
    exponent_bits: int = EXPONENT_BITS
    _label: bytes = field(default=b"hearts fair deal v1 card ", repr=False)

    @property
    def generator(self) -> int:
        """4, a residue other than 1: it generates the residues (their order q is prime)."""
        return 4

    @property
    def q(self) -> int:
        """The prime ``(p - 1) // 2``: the order of the residues."""
        return (self.p - 1) // 2

    def short_key(self, source: KeySource) -> int:
        """A random odd exponent of ``exponent_bits`` bits: prime to ``p - 1`` (it is below q)."""
        bits = self.exponent_bits
        return source.getrandbits(bits - 2) << 1 | 1 | 1 << (bits - 1)

    def inverse(self, key: int) -> int:
        """The exponent that undoes ``key``: ``pow(pow(m, key, p), inverse(key), p) == m``."""
        return pow(key, -1, self.p - 1)

    def power(self, value: int, exponent: int) -> int:
        """``value ** exponent mod p``: encrypt, decrypt, or both at once (exponents multiply).

        Powers of the generator — a play's proof and its check need one each — come from a
        table (``generator_powers``) when their exponent fits it, about five times quicker."""
        if value == self.generator and 0 <= exponent < 1 << self.table_bits:
            return self._generator_power(exponent)
        return pow(value, exponent, self.p)

    def power_steps(self, value: int, exponent: int) -> Generator[None, None, int]:
        """``power(value, exponent)``, the same number, in steps of ``STEP_BITS`` bits of
        the exponent (``next`` it to the end: the page slices them by time), so that no
        step of a full-size power holds the page up for the whole of it.

        Left to right over the exponent's 4-bit digits, with a table of the base's 16 first
        powers (Menezes, van Oorschot and Vanstone, *Handbook of Applied Cryptography*,
        1996, Algorithm 14.82): the squarings and products ``pow`` itself makes, give or
        take a few, so cutting it costs next to nothing. An exponent that fits one step, or
        a generator's power (``generator_powers``), is one step."""
        if exponent.bit_length() <= STEP_BITS or exponent < 0 or (
                value == self.generator and exponent < 1 << self.table_bits):
            return self.power(value, exponent)
        p, width = self.p, POWER_WINDOW
        mask = (1 << width) - 1
        table = [1, value % p]
        for _ in range(mask - 1):
            table.append(table[-1] * value % p)
        digits = -(-exponent.bit_length() // width)
        per_step = STEP_BITS // width
        result = table[exponent >> (digits - 1) * width]
        for i in range(digits - 2, -1, -1):
            for _ in range(width):
                result = result * result % p
            digit = exponent >> i * width & mask
            if digit:
                result = result * table[digit] % p
            if i % per_step == 0:
                yield
        return result

    @property
    def table_bits(self) -> int:
        """The exponents the generator's table covers: below ``2**table_bits``, a key's
        length and 256 bits more, for the proofs' masks and responses (209 bits more: a
        test holds it to ``proofs.response_limit``); a longer one goes to ``pow``."""
        return self.exponent_bits + 256

    @cached_property
    def generator_powers(self) -> tuple[tuple[int, ...], ...]:
        """Row ``i`` holds ``g ** (d · 2**(w·i))`` for each digit ``d`` below ``2**w``
        (``w = TABLE_WINDOW``): fixed-base windowing (Menezes, van Oorschot and Vanstone,
        *Handbook of Applied Cryptography*, 1996, §14.6.3). Built once per page, a few
        hundred products; ``FairTable`` builds it before the deal."""
        rows: list[tuple[int, ...]] = []
        base, p = self.generator, self.p
        for _ in range(0, self.table_bits, TABLE_WINDOW):
            row = [1]
            for _ in range((1 << TABLE_WINDOW) - 1):
                row.append(row[-1] * base % p)
            rows.append(tuple(row))
            base = row[-1] * base % p
        return tuple(rows)

    def _generator_power(self, exponent: int) -> int:
        rows, p, mask = self.generator_powers, self.p, (1 << TABLE_WINDOW) - 1
        result, i = 1, 0
        while exponent:
            digit = exponent & mask
            if digit:
                result = result * rows[i][digit] % p
            exponent >>= TABLE_WINDOW
            i += 1
        return result

    def is_residue(self, value: int) -> bool:
        """Whether ``value`` is a nonzero quadratic residue mod p (Euler's criterion)."""
        return 0 < value < self.p and pow(value, self.q, self.p) == 1

    def is_element(self, value: object) -> bool:
        """Whether ``value`` can be a card in transit: an int in 2..p-1 (1 is no card's code)
        that is a quadratic residue, i.e. in the subgroup of prime order ``q``.

        Every honest value is one (cards are squares, and a power of a square is a square).
        A non-residue such as ``p - v`` keeps its Legendre symbol through every later lock,
        so a page that slipped one in could follow that card through the others' shuffles
        (a marked card); and ``p - 1`` has order 2, so a proof over it says nothing. So every
        number a page receives — deck values, commitments, proofs' first messages — is
        refused unless this holds (``in_range`` and ``jacobi``). The answers are
        remembered (``_square``): a page's two tables check the same messages, and a page
        checks a value it computed in the slice that made it, not again in the task that
        sends it."""
        return self.in_range(value) and _square(value, self.p)

    def in_range(self, value: object) -> TypeGuard[int]:
        """Whether ``value`` is an int in 2..p-1 (the form of a number mod p, 1 excluded)."""
        return type(value) is int and 1 < value < self.p

    def encode(self, card: Card) -> int:
        """The card's number: the square of a hash of its notation, so a residue."""
        return self.codes[card.index]

    def decode(self, value: int) -> Card | None:
        """The card whose number is ``value``, or None (a wrong key, or a forged value)."""
        index = self._card_of_code.get(value)
        return None if index is None else ALL_CARDS[index]

    @cached_property
    def codes(self) -> tuple[int, ...]:
        """The 52 card numbers in card order: the deck before anyone locked it."""
        size = (self.p.bit_length() + 7) // 8 + 16  # 128 extra bits: the hash is uniform mod p
        codes = []
        for card in ALL_CARDS:
            digest = hashlib.shake_256(self._label + card.notation.encode()).digest(size)
            codes.append(pow(int.from_bytes(digest, "big"), 2, self.p))
        if len(set(codes)) != 52 or any(c in (0, 1) for c in codes):  # never, for these primes
            raise ValueError(f"the card numbers of {self.name} collide")
        return tuple(codes)

    @cached_property
    def _card_of_code(self) -> dict[int, int]:
        return {code: index for index, code in enumerate(self.codes)}


GROUPS: Final = {
    1024: Group(_OAKLEY_2, "RFC 2409 Oakley group 2 (1024 bits)"),
    1536: Group(_MODP_1536, "RFC 3526 group 5 (1536 bits)"),
    2048: Group(_MODP_2048, "RFC 3526 group 14 (2048 bits)"),
}
"""The safe primes the benchmark compares; all are published, fixed and widely checked."""

GROUP: Final = GROUPS[1024]
"""The group of every fair table (the choice and its margin: docs/protocol.md)."""
