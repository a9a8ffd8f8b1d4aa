"""The short code of a table that friends join through public relays, and its link.

A code is ten characters from an alphabet without look-alikes (no 0/O, 1/I/L), shown as
two groups of five (``K7QXM-3TNAW``): nine random characters and a check character, so a
typo is caught on the guest's page instead of waiting for a table that doesn't exist. The
first group names the meeting room, the whole code is its password (the relays see only a
hash of the room, never the code). The link carries both in the fragment, which browsers
never send to a server: ``…#t=K7QXM&k=3TNAW``. No browser imports: pytest runs it.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from web import words
from web.p2p.codes import CodeError

__all__ = ["ALPHABET", "TableCode", "make_code", "read_code"]

ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
"""31 characters (a prime: the check catches every single wrong or swapped character)."""
LENGTH = 10


def _check(body: str) -> str:
    """A check character that changes with any one wrong or swapped character."""
    total = sum((index + 1) * ALPHABET.index(ch) for index, ch in enumerate(body))
    return ALPHABET[total % len(ALPHABET)]


@dataclass(frozen=True)
class TableCode:
    code: str
    """The ten characters, upper case, no dash."""

    @property
    def room(self) -> str:
        return self.code[:5]

    @property
    def shown(self) -> str:
        """The way people read it: two groups of five."""
        return f"{self.code[:5]}-{self.code[5:]}"

    def link(self, base: str) -> str:
        return f"{base}#t={self.code[:5]}&k={self.code[5:]}"


def make_code(rng: random.Random) -> TableCode:
    body = "".join(rng.choice(ALPHABET) for _ in range(LENGTH - 1))
    return TableCode(body + _check(body))


def read_code(text: str) -> TableCode:
    """The code in what a person typed or pasted: the code (any case, dashes and spaces
    anywhere) or a whole link. ``CodeError`` in plain words if it can't be one."""
    text = text.strip()
    link = re.search(r"[#&]t=([^&\s]*)&k=([^&\s]*)", text)
    raw = (link.group(1) + link.group(2)) if link else text
    code = re.sub(r"[\s-]", "", raw).upper()
    if len(code) != LENGTH:
        raise CodeError(words.TABLE_CODE_SHORT)
    if any(ch not in ALPHABET for ch in code):
        raise CodeError(words.TABLE_CODE_TYPO)
    if _check(code[:-1]) != code[-1]:
        raise CodeError(words.TABLE_CODE_TYPO)
    return TableCode(code)
