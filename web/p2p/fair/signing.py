"""Signed messages at a fair table, and the evidence that names a page that lied.

Each page makes a signing key for the table (a short Schnorr key, ``Group.short_key``) and
announces ``g**x`` in the draw for the seats (``seating``), before anyone has a seat. Every
message it sends then carries a Schnorr signature (Schnorr 1991, with the short-exponent
response of Girault, Poupard and Stern, as in ``proofs``) over the table's name, the hand,
its seat, the message's number ``n`` among its messages of that hand, and SHA-256 of the
text: anyone holding a message can show any other page that its sender sent it.

At the hand's end each page echoes, for each seat, the hash of that seat's messages as it
took them (``echo``). If two echoes differ, every page sends its evidence: the signed
hashes it holds (``evidence_items``). Then (``judge``): a page whose evidence isn't
validly signed or doesn't hash to its own echo lied about what it saw, and is named; two
validly signed messages of one seat with the same number are that seat's, and it told
pages different things, so it is named; otherwise nobody can be named.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Generator, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from hearts.steps import run
from web.p2p.fair.group import Group, KeySource
from web.p2p.fair.proofs import check_power, prove_power

__all__ = ["Signed", "Verdict", "echo", "judge", "judge_steps", "parse_item", "sign",
           "text_hash", "verify"]


def text_hash(text: str) -> str:
    """SHA-256 of a message's text, in hex."""
    return hashlib.sha256(text.encode()).hexdigest()


def _statement(table: str, hand: int, seat: int, n: int, digest: str) -> bytes:
    return json.dumps(["sign", table, hand, seat, n, digest]).encode()


@dataclass(frozen=True)
class Signed:
    """One message as signed: its sender, its number, its text's hash and the signature
    ``(t, z)`` (a Schnorr proof of the signing key, bound to the message)."""

    seat: int
    n: int
    digest: str
    t: int
    z: int

    def item(self) -> str:
        """As evidence travels: ``seat:n:hash:t:z`` (numbers in hex)."""
        return f"{self.seat}:{self.n}:{self.digest}:{self.t:x}:{self.z:x}"


def sign(group: Group, key: int, table: str, hand: int, seat: int, n: int, digest: str,
         source: KeySource) -> tuple[int, int]:
    """The signature of message ``n`` of ``seat`` in ``hand``, whose text hashes to
    ``digest``."""
    return prove_power(group, key, group.generator, group.power(group.generator, key),
                       _statement(table, hand, seat, n, digest), source)


@lru_cache(maxsize=512)
def verify(group: Group, public: int, table: str, signed: Signed, hand: int) -> bool:
    """Whether ``signed`` was signed by the holder of ``public``'s key. Remembered for the
    last few hundred: a page's two tables (its person's and its computer's) each check
    every message, and a check is two full-size powers (some 50 ms on a slow phone); the
    answer depends on nothing else, so the second table's is the first's."""
    return check_power(group, group.generator, public, (signed.t, signed.z),
                       _statement(table, hand, signed.seat, signed.n, signed.digest))


def parse_item(text: object) -> Signed | None:
    """An evidence item read back (None: not one)."""
    if not isinstance(text, str) or len(text) > 600:
        return None
    parts = text.split(":")
    if len(parts) != 5 or not parts[0].isdigit() or not parts[1].isdigit():
        return None
    seat, n, digest, t, z = parts
    if len(digest) != 64 or digest.strip("0123456789abcdef") or len(n) > 4:
        return None
    try:
        return Signed(int(seat), int(n), digest, int(t, 16), int(z, 16))
    except ValueError:
        return None


def echo(messages: Mapping[int, str]) -> str:
    """The hash of one seat's messages as a page took them: number -> text hash."""
    return hashlib.sha256(json.dumps(sorted(messages.items())).encode()).hexdigest()


Verdict = tuple[int, str] | None
"""``(seat, "echo")``, ``(seat, "equivocated")``, or None: nobody can be named."""


def judge(group: Group, table: str, hand: int, keys: Sequence[int],
          echoes: Mapping[int, Sequence[str]],
          evidence: Mapping[int, Sequence[Signed]]) -> Verdict:
    """``judge_steps`` at once."""
    return run(judge_steps(group, table, hand, keys, echoes, evidence))


def judge_steps(group: Group, table: str, hand: int, keys: Sequence[int],
                echoes: Mapping[int, Sequence[str]],
                evidence: Mapping[int, Sequence[Signed]]) -> Generator[None, None, Verdict]:
    """Who lied, once every page's echoes and evidence are in: ``(seat, "echo")`` for a page
    whose evidence doesn't bear out its echo, ``(seat, "equivocated")`` for a seat that
    signed two messages with one number; None if nobody can be named. A step per page's
    evidence (its signatures: about 30 ms in the page)."""
    for page in sorted(evidence):
        yield
        held: dict[int, dict[int, str]] = {}
        for signed in evidence[page]:
            if not 0 <= signed.seat < len(keys) or signed.n in held.get(signed.seat, {}) \
                    or not verify(group, keys[signed.seat], table, signed, hand):
                return page, "echo"
            held.setdefault(signed.seat, {})[signed.n] = signed.digest
        for seat, claimed in enumerate(echoes[page]):
            if echo(held.get(seat, {})) != claimed:
                return page, "echo"
    for seat in range(len(keys)):
        seen: dict[int, str] = {}
        for page in sorted(evidence):
            for signed in evidence[page]:
                if signed.seat == seat and seen.setdefault(signed.n, signed.digest) \
                        != signed.digest:
                    return seat, "equivocated"
    return None
