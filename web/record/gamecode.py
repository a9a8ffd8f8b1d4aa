"""A game's code: its seed, short and typeable, so a friend can play the same deals.

Every hand of a game is dealt from its seed alone (``hearts.game.deal(seed, hand)``), so
the seed is the whole of what a friend needs. The code writes it in Crockford's base 32
(digits and capital letters without I, L, O and U, which read like other characters),
followed by one check character, grouped by four: ``7K2M-9QXA-B``. The check is a sum of
the digits with odd weights, so any single mistyped character is refused rather than
quietly dealing another game.

A version-1 code means the default rules. A game under house rules gets a version-2 code:
``U`` (which no version-1 code contains), two characters for the rules (``_rules_digits``:
ten bits, the end score one of 50, 100, 150), then the seed and the check over all of it
but the ``U``. House rules the settings can't make (another end score) get a version-1 code:
the same deals, the standard rules.
"""

from __future__ import annotations

import random
from typing import Final

from hearts import Rules
from hearts.rules import MoonScoring, PassCycle
from web import words

__all__ = ["MAX_SEED", "CodeError", "decode", "decode_game", "encode", "new_seed"]

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


_END_SCORES: Final = (50, 100, 150)
_MOONS: Final = tuple(MoonScoring)
_FLAGS: Final = ("qs_breaks_hearts", "no_points_on_first_trick", "must_break_hearts",
                 "shoot_the_moon", "jd_bonus")


def _rules_digits(rules: Rules) -> str | None:
    """Two code characters for ``rules`` (None if the end score is none of 50, 100, 150)."""
    if rules.end_score not in _END_SCORES:
        return None
    bits = sum(getattr(rules, name) << i for i, name in enumerate(_FLAGS))
    bits |= _MOONS.index(rules.moon_scoring) << 5
    bits |= (rules.pass_cycle is PassCycle.NO_HOLD) << 7
    bits |= _END_SCORES.index(rules.end_score) << 8
    return ALPHABET[bits >> 5] + ALPHABET[bits & 31]


def _rules_of(digits: str) -> Rules:
    bits = _VALUE[digits[0]] << 5 | _VALUE[digits[1]]
    moon, end = bits >> 5 & 3, bits >> 8 & 3
    if moon >= len(_MOONS) or end >= len(_END_SCORES):
        raise CodeError(words.CODE_TYPO)
    flags = {name: bool(bits >> i & 1) for i, name in enumerate(_FLAGS)}
    return Rules(end_score=_END_SCORES[end], moon_scoring=_MOONS[moon],
                 pass_cycle=PassCycle.NO_HOLD if bits >> 7 & 1 else PassCycle.WITH_HOLD,
                 **flags)


def encode(seed: int, rules: Rules | None = None) -> str:
    """The code of the game dealt from ``seed`` (under ``rules``: the default if None).

    >>> encode(0), encode(31), decode(encode(123456789))
    ('000', '0ZZ', 123456789)
    >>> decode_game(encode(7, Rules(jd_bonus=True, end_score=50)))[1].jd_bonus
    True
    """
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < MAX_SEED:
        raise ValueError(f"seed must be an int from 0 to 2**53 - 1, not {seed!r}")
    marker = _rules_digits(rules) if rules is not None and rules != Rules() else None
    digits = ""
    while True:
        seed, low = divmod(seed, 32)
        digits = ALPHABET[low] + digits
        if not seed:
            break
    if len(digits) == 1:
        digits = "0" + digits  # at least three characters, so a code looks like one
    if marker is not None:
        digits = marker + digits
    text = ("U" if marker is not None else "") + digits + _check(digits)
    return "-".join(text[i:i + 4] for i in range(0, len(text), 4))


def decode(text: str) -> int:
    """The seed of a code as the person typed it (any case, spaces and dashes anywhere).

    Raises ``CodeError`` with a sentence for the person if it isn't a code.
    """
    return decode_game(text)[0]


def decode_game(text: str) -> tuple[int, Rules]:
    """The seed and the rules of a code as the person typed it; ``CodeError`` if it isn't
    one (a sentence for the person)."""
    if not isinstance(text, str):
        raise CodeError(words.CODE_EMPTY)
    clean = "".join(_SAME.get(ch, ch) for ch in text.upper() if ch not in " -\t\n")
    if not clean:
        raise CodeError(words.CODE_EMPTY)
    house = clean.startswith("U")
    if house:
        clean = clean[1:]
    bad = sorted({ch for ch in clean if ch not in _VALUE})
    if bad:
        raise CodeError(words.code_bad_characters(bad))
    if not 3 + 2 * house <= len(clean) <= 12 + 2 * house:
        raise CodeError(words.CODE_LENGTH)
    digits, check = clean[:-1], clean[-1]
    if _check(digits) != check:
        raise CodeError(words.CODE_TYPO)
    rules = _rules_of(digits[:2]) if house else Rules()
    seed = 0
    for ch in digits[2:] if house else digits:
        seed = seed * 32 + _VALUE[ch]
    if seed >= MAX_SEED:
        raise CodeError(words.CODE_LENGTH)
    return seed, rules
