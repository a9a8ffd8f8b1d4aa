"""Zero-knowledge proofs that a page used its key, without showing the key.

Two proofs over the residues (``group.Group``), made non-interactive by hashing
(Fiat–Shamir): the challenge ``c`` is 128 bits of SHA-256 of the statement and the first
message, so a page can't choose it.

- ``prove_power`` (Schnorr, "Efficient signature generation by smart cards", 1991): "I know
  ``x`` with ``pub = base**x``". A receiver proves the three cards passed to it were locked
  by it as they were, not swapped for cards it wants the passer to open.
- ``prove_same_power`` (Chaum and Pedersen, "Wallet databases with observers", 1992): "the
  same ``x`` gives ``pub1 = base1**x`` and ``pub2 = base2**x``". A seat playing a card dealt
  to it proves the card's code under its shuffling key (committed to as ``g**e`` before the
  deal) is the value in its slot — without the key, which would open its whole hand.

The secrets are short (``group.EXPONENT_BITS``), so the response ``z = r + c·x`` is computed
over the integers with ``r`` 80 bits longer than ``c·x`` can be: ``z`` then says nothing of
``x`` (statistically), and every ``pow`` here is short (the Girault–Poupard–Stern variant).
"""

from __future__ import annotations

import hashlib
from collections.abc import Generator
from typing import Final

from hearts.steps import run
from web.p2p.fair.group import Group, KeySource

__all__ = ["check_power", "check_power_steps", "check_same_power", "check_same_power_steps",
           "prove_power", "prove_power_steps", "prove_same_power", "prove_same_power_steps",
           "response_limit"]

CHALLENGE_BITS: Final = 128
HIDING_BITS: Final = 80
"""How much longer the mask ``r`` is than ``c·x``: the statistical distance is 2**-80."""


def _challenge(group: Group, context: bytes, *values: int) -> int:
    size = (group.p.bit_length() + 7) // 8
    digest = hashlib.sha256(b"hearts fair proof v1 " + context)
    for value in values:
        digest.update(value.to_bytes(size, "big"))
    return int.from_bytes(digest.digest()[:CHALLENGE_BITS // 8], "big")


def _mask(group: Group, source: KeySource) -> int:
    return source.getrandbits(group.exponent_bits + CHALLENGE_BITS + HIDING_BITS)


def response_limit(group: Group) -> int:
    """Every honest response ``z`` is below this."""
    return 1 << (group.exponent_bits + CHALLENGE_BITS + HIDING_BITS + 1)


def _z_ok(group: Group, z: object) -> bool:
    return type(z) is int and 0 <= z < response_limit(group)


KNOWN_CHECKS: Final = 256
"""How many answers of ``check_same_power_steps`` and ``check_power_steps`` a page
remembers (a hand has 52 plays and 3 blinds)."""
_known: dict[tuple[object, ...], bool] = {}


def prove_power(group: Group, x: int, base: int, pub: int, context: bytes,
                source: KeySource) -> tuple[int, int]:
    """A proof ``(t, z)`` that ``pub == base**x`` for an ``x`` the prover knows."""
    return run(prove_power_steps(group, x, base, pub, context, source))


def prove_power_steps(group: Group, x: int, base: int, pub: int, context: bytes,
                      source: KeySource) -> Generator[None, None, tuple[int, int]]:
    """``prove_power``, its power in steps (``Group.power_steps``)."""
    r = _mask(group, source)
    t = yield from group.power_steps(base, r)
    c = _challenge(group, context, base, pub, t)
    return t, r + c * x


def check_power(group: Group, base: int, pub: int, proof: tuple[int, ...],
                context: bytes) -> bool:
    """Whether ``proof`` shows ``pub`` is a power of ``base`` the prover knows."""
    return run(_power_holds_steps(group, base, pub, proof, context))


def check_power_steps(group: Group, base: int, pub: int, proof: tuple[int, ...],
                      context: bytes) -> Generator[None, None, bool]:
    """``check_power``, its long power in steps; its answer remembered like
    ``check_same_power_steps``'s (a pass's blinds are checked ahead: ``Inbox.vet``; the
    signatures, checked once each, are not: ``check_power``)."""
    key = ("power", group.p, base, pub, tuple(proof), context)
    known = _known.get(key)
    if known is not None:
        return known
    holds = yield from _power_holds_steps(group, base, pub, proof, context)
    _remember(key, holds)
    return holds


def _power_holds_steps(group: Group, base: int, pub: int, proof: tuple[int, ...],
                       context: bytes) -> Generator[None, None, bool]:
    if len(proof) != 2 or not group.is_element(proof[0]) or not _z_ok(group, proof[1]):
        return False
    t, z = proof
    c = _challenge(group, context, base, pub, t)
    left = yield from group.power_steps(base, z)
    return left == t * group.power(pub, c) % group.p


def prove_same_power(group: Group, x: int, base1: int, pub1: int, base2: int, pub2: int,
                     context: bytes, source: KeySource) -> tuple[int, int, int]:
    """A proof ``(t1, t2, z)`` that ``pub1 == base1**x`` and ``pub2 == base2**x``."""
    return run(prove_same_power_steps(group, x, base1, pub1, base2, pub2, context, source))


def prove_same_power_steps(group: Group, x: int, base1: int, pub1: int, base2: int,
                           pub2: int, context: bytes, source: KeySource
                           ) -> Generator[None, None, tuple[int, int, int]]:
    """``prove_same_power``, its powers in steps (``Group.power_steps``): a person's card
    is proved in the page's slices, not in the task of their click."""
    r = _mask(group, source)
    t1 = yield from group.power_steps(base1, r)
    t2 = yield from group.power_steps(base2, r)
    c = _challenge(group, context, base1, pub1, base2, pub2, t1, t2)
    return t1, t2, r + c * x


def check_same_power(group: Group, base1: int, pub1: int, base2: int, pub2: int,
                     proof: tuple[int, ...], context: bytes) -> bool:
    """Whether ``proof`` shows one exponent takes base1 to pub1 and base2 to pub2."""
    return run(check_same_power_steps(group, base1, pub1, base2, pub2, proof, context))


def check_same_power_steps(group: Group, base1: int, pub1: int, base2: int, pub2: int,
                           proof: tuple[int, ...], context: bytes
                           ) -> Generator[None, None, bool]:
    """``check_same_power``, a power a step; its answer remembered, for the same statement
    and proof (a pure function of them): a page checks a card played in its slices as soon
    as it comes (``Inbox.vet``), and taking the card into the record is then a look-up."""
    if (len(proof) != 3 or not group.is_element(proof[0]) or not group.is_element(proof[1])
            or not _z_ok(group, proof[2])):
        return False
    key = (group.p, base1, pub1, base2, pub2, tuple(proof), context)
    known = _known.get(key)
    if known is not None:
        return known
    t1, t2, z = proof
    c = _challenge(group, context, base1, pub1, base2, pub2, t1, t2)
    p = group.p
    holds = group.power(base1, z) == t1 * group.power(pub1, c) % p
    yield
    if holds:
        left = group.power(base2, z)
        yield
        holds = left == t2 * group.power(pub2, c) % p
    _remember(key, holds)
    return holds


def _remember(key: tuple[object, ...], holds: bool) -> None:
    if len(_known) >= KNOWN_CHECKS:
        del _known[next(iter(_known))]  # the oldest
    _known[key] = holds
