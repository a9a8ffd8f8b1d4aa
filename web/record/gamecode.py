"""A game's code: its seed, short and typeable, so a friend can play the same deals.

Every hand of a game is dealt from its seed alone (``hearts.game.deal(seed, hand)``), so
the seed is the whole of what a friend needs. The code writes it in Crockford's base 32
(digits and capital letters without I, L, O and U, which read like other characters),
followed by one check character, grouped by four: ``7K2M-9QXA-B``. The check is a sum of
the digits with odd weights, so any single mistyped character is refused rather than
quietly dealing another game.

Version 1 (these codes) always means the default rules; a later version would start with
``U``, which no version-1 code contains.
"""

from __future__ import annotations

import random
from typing import Final

from web import words

__all__ = ["MAX_SEED", "CodeError", "decode", "encode", "new_seed"]

ALPHABET: Final = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
MAX_SEED: Final = 2**53
"""Seeds the engine takes (``hearts.Game``): 53 bits, at most 11 code digits."""
NEW_SEED_BITS: Final = 40
"""New games draw 40-bit seeds: 8 digits and a check, a code one can read out."""
_VALUE: Final = {ch: i for i, ch in enumerate(ALPHABET)}
_SAME: Final = {"O": "0", "I": "1", "L": "1"}  # Crockford: read as the digit they look like


class CodeError(ValueError):
    """Text that is not a game code; the message says why, in words for the person."""


def new_seed(rng: random.Random | None = None) -> int:
    """A fresh seed for a new game, small enough for a short code."""
    return (rng or random.SystemRandom()).randrange(2**NEW_SEED_BITS)


def _check(digits: str) -> str:
    total = sum((2 * i + 1) * _VALUE[ch] for i, ch in enumerate(reversed(digits)))
    return ALPHABET[total % 32]


def encode(seed: int) -> str:
    """The code of the game dealt from ``seed``.

    >>> encode(0), encode(31), decode(encode(123456789))
    ('000', '0ZZ', 123456789)
    """
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < MAX_SEED:
        raise ValueError(f"seed must be an int from 0 to 2**53 - 1, not {seed!r}")
    digits = ""
    while True:
        seed, low = divmod(seed, 32)
        digits = ALPHABET[low] + digits
        if not seed:
            break
    if len(digits) == 1:
        digits = "0" + digits  # at least three characters, so a code looks like one
    text = digits + _check(digits)
    return "-".join(text[i:i + 4] for i in range(0, len(text), 4))


def decode(text: str) -> int:
    """The seed of a code as the person typed it (any case, spaces and dashes anywhere).

    Raises ``CodeError`` with a sentence for the person if it isn't a code.
    """
    if not isinstance(text, str):
        raise CodeError(words.CODE_EMPTY)
    clean = "".join(_SAME.get(ch, ch) for ch in text.upper() if ch not in " -\t\n")
    if not clean:
        raise CodeError(words.CODE_EMPTY)
    bad = sorted({ch for ch in clean if ch not in _VALUE})
    if bad:
        raise CodeError(words.code_bad_characters(bad))
    if not 3 <= len(clean) <= 12:
        raise CodeError(words.CODE_LENGTH)
    digits, check = clean[:-1], clean[-1]
    if _check(digits) != check:
        raise CodeError(words.CODE_TYPO)
    seed = 0
    for ch in digits:
        seed = seed * 32 + _VALUE[ch]
    if seed >= MAX_SEED:
        raise CodeError(words.CODE_LENGTH)
    return seed
