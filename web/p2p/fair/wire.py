"""The fair deal's messages as JSON text: built for sending, read and checked on arrival.

Each message is one JSON object ``{"v": 1, "t": "fair_…", …}`` (the table of types is in
``docs/protocol.md``, "Fair tables"). Numbers mod p are too long for JSON numbers (a
browser's ``JSON.parse`` would round them), so every number is URL-safe base64 of its
big-endian bytes. ``receive`` reads a message from the page at ``seat`` — the seat is the
connection it came on, never a field — checks its form and feeds it to the transcript;
anything malformed names the sender (``Cheat.MALFORMED``), like any other fault.
"""

from __future__ import annotations

import binascii
import json
import re
from collections.abc import Generator, Sequence
from typing import Any, Final

from hearts.cards import Card, CardParseError
from hearts.steps import run
from web.p2p.fair.group import Group
from web.p2p.fair.proofs import response_limit
from web.p2p.fair.shuffle_proof import ShuffleProof, response_bits
from web.p2p.fair.transcript import Cheat, CheatDetected, Fault, Play, Reveal, Transcript

__all__ = [
    "Parsed",
    "Unread",
    "apply",
    "envelope",
    "max_chars",
    "message",
    "open_envelope",
    "parse",
    "proof_fields",
    "read_form",
    "read_numbers_steps",
    "read_own",
    "receive",
    "sender",
    "tag",
]

_ONE: Final = (1,)
MAX_ITEMS: Final = 4 * 32
"""Evidence items in one message at most: every seat's messages of a hand (22 at most)."""
_FIELDS: Final[dict[str, dict[str, tuple[str, tuple[int, ...]]]]] = {
    # field -> (form, the lengths a list may have; _ONE for a single value)
    "fair_shuffle": {"deck": ("numbers", (52,)), "commit": ("number", _ONE)},
    "fair_proof": {"u": ("numbers", (52,)), "chain": ("numbers", (52,)),
                   "firsts": ("numbers", (5,)), "chain_firsts": ("numbers", (52,)),
                   "z": ("numbers", (4,)), "chain_z": ("numbers", (52,)),
                   "batch_z": ("numbers", (52,))},
    "fair_lock": {"deck": ("numbers", (52,))},
    "fair_open": {"round": ("small", _ONE), "values": ("numbers", (13,))},
    "fair_pass": {"slots": ("smalls", (3,))},
    "fair_blind": {"values": ("numbers", (3,)), "proofs": ("pairs", (3,))},
    "fair_unblind": {"values": ("numbers", (3,))},
    "fair_play": {"slot": ("small", _ONE), "card": ("card", _ONE),
                  "proof": ("numbers", (1, 3))},
    "fair_complain": {},
    "fair_closed": {},
    "fair_digest": {"sha256": ("hex", _ONE), "echo": ("hexes", (4,))},
    "fair_evidence": {"items": ("items", (MAX_ITEMS,))},
    "fair_keys": {"shuffle": ("number", _ONE), "slots": ("numbers", (52,)),
                  "blinds": ("numbers", (0, 3))},
}


class _Malformed(ValueError):
    pass


_URL_SAFE: Final = re.compile(r"[A-Za-z0-9_-]+")
"""The characters of URL-safe base64 without its padding: a number's only spelling."""
_TO_STANDARD: Final = bytes.maketrans(b"-_", b"+/")
_TO_URL_SAFE: Final = bytes.maketrans(b"+/", b"-_")


def _number_text(n: int) -> str:
    # binascii's calls, not base64's wrappers: a deck is 52 numbers, a proof 269
    raw = n.to_bytes(max(1, (n.bit_length() + 7) // 8), "big")
    return binascii.b2a_base64(raw, newline=False).translate(_TO_URL_SAFE).rstrip(b"=").decode()


PROOF_NUMBERS: Final = 5 * 52 + 9
"""The numbers of a shuffle's proof (``fair_proof``), the longest message of a hand."""


def max_chars(group: Group) -> int:
    """The longest message of a table in ``group``: a shuffle's proof of ``PROOF_NUMBERS``
    numbers and room for the rest (at 1024 bits about 47 000 characters), or the evidence of
    a dispute (``MAX_ITEMS`` signed hashes)."""
    return max(PROOF_NUMBERS * (_number_chars(group) + 3) + 500,
               MAX_ITEMS * _item_chars(group) + 200)


def _item_chars(group: Group) -> int:
    hex_digits = (max(group.p, response_limit(group)).bit_length() + 3) // 4
    return 2 + 2 + 5 + 65 + 2 * (hex_digits + 1) + 3


def _number_chars(group: Group) -> int:
    return len(_number_text(max(group.p, response_limit(group), 1 << response_bits(group))))


def _number(text: object, limit: int) -> int:
    if not isinstance(text, str) or not 0 < len(text) <= limit \
            or _URL_SAFE.fullmatch(text) is None:
        raise _Malformed("not a number")
    padded = text.encode().translate(_TO_STANDARD) + b"=" * (-len(text) % 4)
    try:
        raw = binascii.a2b_base64(padded)
    except binascii.Error as error:
        raise _Malformed("not base64") from error
    # one message, one meaning: no leading zero byte, no stray bits in the last character
    if (len(raw) > 1 and raw[0] == 0) or binascii.b2a_base64(raw, newline=False) != padded:
        raise _Malformed("not the one spelling of a number")
    return int.from_bytes(raw, "big")


def message(kind: str, **fields: object) -> str:
    """The text of a message: ints and cards as on the wire, lists of them, lists of pairs."""
    if set(fields) != set(_FIELDS[kind]):
        raise ValueError(f"{kind} has the fields {sorted(_FIELDS[kind])}, not {sorted(fields)}")

    def form(value: object) -> object:
        if isinstance(value, Card):
            return value.notation
        if isinstance(value, str):
            return value
        if isinstance(value, bool) or not isinstance(value, int | tuple | list):
            raise ValueError(f"{kind}: can't send {value!r}")
        if isinstance(value, int):
            return value
        return [form(v) for v in value]

    body: dict[str, object] = {"v": 1, "t": kind}
    for name, value in fields.items():
        shape = _FIELDS[kind][name][0]
        if shape in ("number", "numbers", "pairs"):
            body[name] = _numbers_text(value, shape)
        else:
            body[name] = form(value)
    return json.dumps(body, separators=(",", ":"))


def _numbers_text(value: object, shape: str) -> object:
    if shape == "number" and isinstance(value, int):
        return _number_text(value)
    if shape == "numbers" and isinstance(value, Sequence):
        return [_number_text(v) for v in value]
    if shape == "pairs" and isinstance(value, Sequence):
        return [[_number_text(v) for v in pair] for pair in value]
    raise ValueError(f"not {shape}: {value!r}")


NUMBER_SHAPES: Final = ("number", "numbers", "pairs")
"""The fields' forms that hold numbers mod p (``read_numbers_steps`` reads them)."""


def _read(shape: str, lengths: tuple[int, ...], value: Any, limit: int) -> Any:
    if shape == "number":
        return _number(value, limit)
    if shape == "small":
        if type(value) is not int or not 0 <= value < 64:
            raise _Malformed("not a small number")
        return value
    if shape == "hex":
        if not isinstance(value, str) or len(value) != 64 or value.strip("0123456789abcdef"):
            raise _Malformed("not a SHA-256 digest")
        return value
    if shape == "hexes":
        if not isinstance(value, list) or len(value) != lengths[0]:
            raise _Malformed("not the digests of four seats")
        return tuple(_read("hex", _ONE, v, limit) for v in value)
    if shape == "items":
        if not isinstance(value, list) or len(value) > lengths[0] or not all(
                isinstance(v, str) and len(v) <= 4 * limit + 100 for v in value):
            raise _Malformed("not evidence")
        return tuple(value)
    if shape == "card":
        if not isinstance(value, str) or len(value) != 2:
            raise _Malformed("not a card")
        try:
            return Card.parse(value)
        except CardParseError as error:
            raise _Malformed("not a card") from error
    if not isinstance(value, list) or len(value) > max(lengths):
        raise _Malformed("a list too long")  # a short one is the transcript's to judge
    if shape == "numbers":
        return tuple(_number(v, limit) for v in value)
    if shape == "smalls":
        return tuple(_read("small", _ONE, v, limit) for v in value)
    return tuple(_read("numbers", (2,), pair, limit) for pair in value)


def _form(shape: str, lengths: tuple[int, ...], value: Any, limit: int) -> Any:
    """A field read, but for its numbers: those stay text (``_numbers_steps``)."""
    if shape == "number":
        return value
    if shape in NUMBER_SHAPES:
        if not isinstance(value, list) or len(value) > max(lengths):
            raise _Malformed("a list too long")
        return value
    return _read(shape, lengths, value, limit)


def _numbers_steps(shape: str, value: Any, limit: int) -> Generator[None, None, Any]:
    """The numbers of a field (``_form``'s text) read, a number or a pair a step."""
    if shape == "number":
        number = _number(value, limit)
        yield
        return number
    read = []
    for item in value:
        read.append(_number(item, limit) if shape == "numbers"
                    else _read("numbers", (2,), item, limit))
        yield
    return tuple(read)


def _parse(raw: str, group: Group) -> tuple[str, dict[str, Any]]:
    if not isinstance(raw, str) or len(raw) > max_chars(group):
        raise _Malformed("too long")
    try:
        body = json.loads(raw)
    except ValueError as error:
        raise _Malformed("not JSON") from error
    if not isinstance(body, dict) or body.get("v") != 1 or body.get("t") not in _FIELDS:
        raise _Malformed("not a fair-deal message of this version")
    kind = body["t"]
    spec = _FIELDS[kind]
    if set(body) != {"v", "t", *spec}:
        raise _Malformed("the wrong fields")
    limit = _number_chars(group)
    return kind, {name: _form(*spec[name], body[name], limit) for name in spec}


Parsed = tuple[str, dict[str, Any]]
"""A message read off the wire: its type and its fields, numbers as ints."""
Unread = tuple[str, dict[str, Any], int, int]
"""A message whose form is read and whose numbers are still text: its type, its fields,
its sender's seat and the longest a number's text may be (``read_numbers_steps``)."""


def read_form(raw: str, group: Group, seat: int) -> Unread:
    """The message ``raw`` from the page at ``seat``, all but its numbers read: its JSON,
    type, fields and lists' lengths (the numbers of a deck or a proof, 52 to 269 of them,
    are read in the page's slices: ``read_numbers_steps``). Raises ``CheatDetected``
    naming ``seat`` if what it read is malformed."""
    try:
        kind, fields = _parse(raw, group)
    except _Malformed as error:
        raise CheatDetected(Fault(seat, Cheat.MALFORMED)) from error
    return kind, fields, seat, _number_chars(group)


def read_numbers_steps(unread: Unread) -> Generator[None, None, Parsed]:
    """The numbers of a message ``read_form`` read, a number (or a pair) a step, into its
    fields; the message read. Raises ``CheatDetected`` naming its sender if one is not a
    number's one spelling."""
    kind, fields, seat, limit = unread
    try:
        for name, (shape, _) in _FIELDS[kind].items():
            if shape in NUMBER_SHAPES:
                fields[name] = yield from _numbers_steps(shape, fields[name], limit)
    except _Malformed as error:
        raise CheatDetected(Fault(seat, Cheat.MALFORMED)) from error
    return kind, fields


def read_own(raw: str, group: Group, seat: int, fields: dict[str, Any]) -> Parsed:
    """This page's own message ``raw``, just made from ``fields`` (``message``), read as
    the others will read it: its form from the text, its numbers from ``fields`` (the
    text spells them; reading 269 of them back would only undo what was just done).
    Raises ``CheatDetected`` naming ``seat`` if its form is not a message's."""
    kind, read, _, _ = read_form(raw, group, seat)
    for name, (shape, _) in _FIELDS[kind].items():
        value = fields[name]
        if shape == "number":
            read[name] = int(value)
        elif shape == "numbers":
            read[name] = tuple(int(v) for v in value)
        elif shape == "pairs":
            read[name] = tuple(tuple(int(v) for v in pair) for pair in value)
    return kind, read


def parse(raw: str, group: Group, seat: int) -> Parsed:
    """Read the message ``raw`` from the page at ``seat`` whole, in one step
    (``read_form``, then ``read_numbers_steps``). Raises ``CheatDetected`` naming ``seat``
    if it is malformed."""
    return run(read_numbers_steps(read_form(raw, group, seat)))


def apply(transcript: Transcript, seat: int, parsed: Parsed) -> Play | None:
    """Add the message ``parsed`` from the page at ``seat`` to ``transcript``.

    Returns the play if it was a card played. Raises ``CheatDetected`` naming ``seat`` if
    it breaks the protocol (``OUT_OF_TURN``: it may only have come early).
    """
    kind, f = parsed
    if kind == "fair_shuffle":
        transcript.add_shuffle(seat, f["deck"], f["commit"])
    elif kind == "fair_proof":
        transcript.add_shuffle_proof(seat, ShuffleProof(
            f["u"], f["chain"], f["firsts"], f["chain_firsts"], f["z"], f["chain_z"],
            f["batch_z"]))
    elif kind == "fair_lock":
        transcript.add_lock(seat, f["deck"])
    elif kind == "fair_open":
        transcript.add_open(seat, f["round"], f["values"])
    elif kind == "fair_pass":
        transcript.add_pass(seat, f["slots"])
    elif kind == "fair_blind":
        transcript.add_blind(seat, f["values"], f["proofs"])
    elif kind == "fair_unblind":
        transcript.add_unblind(seat, f["values"])
    elif kind == "fair_play":
        return transcript.add_play(seat, f["slot"], f["card"], f["proof"])
    elif kind == "fair_complain":
        transcript.add_complaint(seat)
    elif kind == "fair_closed":
        transcript.closers.add(seat)
    elif kind == "fair_digest":
        transcript.add_digest(seat, f["sha256"], f["echo"])
    elif kind == "fair_evidence":
        transcript.add_evidence(seat, f["items"])
    else:
        transcript.add_reveal(Reveal(seat, f["shuffle"], f["slots"], f["blinds"]))
    return None


def receive(transcript: Transcript, seat: int, raw: str) -> Play | None:
    """Check the message ``raw`` from the page at ``seat`` and add it to ``transcript``
    (``parse``, then ``apply``)."""
    return apply(transcript, seat, parse(raw, transcript.group, seat))


def proof_fields(proof: ShuffleProof) -> dict[str, object]:
    """A shuffle proof as the fields of its message (``fair_proof``)."""
    return {"u": proof.commitments, "chain": proof.chain, "firsts": proof.firsts,
            "chain_firsts": proof.chain_firsts, "z": proof.responses,
            "chain_z": proof.chain_responses, "batch_z": proof.batch_responses}


_ENVELOPE = '{"v":1,"t":"fair","f":'


TAG_CHARS = 16
"""How much of the table's name an envelope carries (``tag``)."""


def tag(name: str) -> str:
    """What names a table on its envelopes: the start of its name (the draw's seed)."""
    return name[:TAG_CHARS]


def envelope(seat: int, table: str, hand: int, n: int, text: str,
             signature: tuple[int, int]) -> str:
    """A message of ``seat`` in hand number ``hand`` as it goes over a fair table's mesh
    (the seat first, so the mesh can route it unread: ``sender``; a page may hold two
    seats' keys, its person's and its computer's); ``table``: the table's ``tag`` (after a
    page left, the others draw again and deal on as a new table: what was sent to the old
    one is then dropped, not mistaken for the new one's); the page keeps a later hand's
    messages for that hand; ``n``: its number among its sender's messages of the hand;
    ``signature``: its sender's (``signing.sign``)."""
    return json.dumps({"v": 1, "t": "fair", "f": seat, "d": table, "h": hand, "n": n,
                       "m": text, "s": [_number_text(x) for x in signature]},
                      separators=(",", ":"))


def sender(text: str) -> int | None:
    """The seat an envelope says it comes from (None: not an envelope's start)."""
    if len(text) < len(_ENVELOPE) + 2 or not text.startswith(_ENVELOPE) \
            or text[len(_ENVELOPE)] not in "0123" or text[len(_ENVELOPE) + 1] != ",":
        return None
    return int(text[len(_ENVELOPE)])


def open_envelope(text: str, group: Group
                  ) -> tuple[int, str, int, int, str, int, int] | None:
    """The seat, table tag, hand number, message number, message and signature inside
    ``text`` (None: not an envelope)."""
    try:
        data = json.loads(text)
        seat, table, hand, n = data["f"], data["d"], data["h"], data["n"]
        inner, sig = data["m"], data["s"]
    except (ValueError, KeyError, TypeError):
        return None
    if not isinstance(data, dict) or data.get("v") != 1 or data.get("t") != "fair" \
            or len(data) != 8 or seat != sender(text) or not isinstance(table, str) \
            or len(table) > TAG_CHARS or type(hand) is not int \
            or type(n) is not int \
            or not 0 <= n < 1000 or not isinstance(inner, str) \
            or len(inner) > max_chars(group) or not isinstance(sig, list) or len(sig) != 2:
        return None
    try:
        t, z = (_number(x, _number_chars(group)) for x in sig)
    except _Malformed:
        return None
    return seat, table, hand, n, inner, t, z
