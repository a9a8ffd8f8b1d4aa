"""Invite and answer codes: what two browsers must swap to connect, made short enough to copy.

WebRTC describes a connection in SDP (~600 characters). Of that, the other side only needs
the ICE user fragment and password, the DTLS certificate fingerprint and the network
candidates; the rest is the same for every table and is rebuilt here (``offer_sdp``,
``answer_sdp``). A code is those parts packed into bytes with a version byte, the table's
id, the seat it is for and a checksum, written in URL-safe base64:

- an **invite** (host → guest, also the ``#join=`` link): ≤ 160 characters, carries when
  it was made so an old one can be told apart;
- an **answer** (guest → host): ≤ 140 characters; names the table and the invite it
  answers, so the host can refuse an answer meant for another table or a used invite.

Errors are ``CodeError`` with a sentence for the person. No browser imports: pytest runs it.
"""

from __future__ import annotations

import base64
import ipaddress
import re
import uuid
import zlib
from dataclasses import dataclass

from web import words

__all__ = [
    "ANSWER_MAX",
    "INVITE_MAX",
    "VERSION",
    "Answer",
    "Candidate",
    "CodeError",
    "Endpoint",
    "Invite",
    "answer_sdp",
    "decode_answer",
    "decode_invite",
    "encode_answer",
    "encode_invite",
    "offer_sdp",
    "parse_sdp",
]

VERSION = 1
INVITE_MAX = 160
ANSWER_MAX = 140
INVITE_LIFETIME_MIN = 180
"""Minutes an invite stays usable (its maker's clock; a friend's may differ a little)."""
CLOCK_SLACK_MIN = 60
_KIND_INVITE = 1
_KIND_ANSWER = 2
_ICE_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
_KINDS = ("host", "srflx", "relay")
_FORM_IP4, _FORM_IP6, _FORM_MDNS = 0, 1, 2
_PRIORITY = {"host": 2122260223, "srflx": 1686052607, "relay": 41885439}


class CodeError(ValueError):
    """A code that can't be used; the message says why in plain words."""


@dataclass(frozen=True, slots=True)
class Candidate:
    """A network address the other side may try: ``kind`` host, srflx (STUN) or relay (TURN)."""

    kind: str
    address: str
    port: int


@dataclass(frozen=True, slots=True)
class Endpoint:
    """What one side of a connection tells the other."""

    ufrag: str
    pwd: str
    fingerprint: bytes
    """SHA-256 of the DTLS certificate (32 bytes)."""
    candidates: tuple[Candidate, ...]


@dataclass(frozen=True, slots=True)
class Invite:
    """The host's offer for one seat: table id, seat, invite number, minute made."""

    table: int
    seat: int
    ticket: int
    minute: int
    endpoint: Endpoint


@dataclass(frozen=True, slots=True)
class Answer:
    """A guest's reply to one invite."""

    table: int
    seat: int
    ticket: int
    endpoint: Endpoint


# --- SDP -----------------------------------------------------------------------------------

_CANDIDATE = re.compile(
    r"^a=candidate:\S+ 1 udp \d+ (\S+) (\d+) typ (host|srflx|relay)\b", re.IGNORECASE)


def parse_sdp(sdp: str) -> Endpoint:
    """The parts of a browser's SDP that a code carries (UDP candidates of component 1).

    Raises CodeError if the ICE credentials or a SHA-256 fingerprint are missing.
    """
    ufrag = pwd = ""
    fingerprint = b""
    candidates: list[Candidate] = []
    for raw in sdp.splitlines():
        line = raw.strip()
        if line.startswith("a=ice-ufrag:") and not ufrag:
            ufrag = line.split(":", 1)[1]
        elif line.startswith("a=ice-pwd:") and not pwd:
            pwd = line.split(":", 1)[1]
        elif line.lower().startswith("a=fingerprint:sha-256 ") and not fingerprint:
            fingerprint = bytes.fromhex(line.split(" ", 1)[1].replace(":", ""))
        elif match := _CANDIDATE.match(line):
            address, port, kind = match.group(1), int(match.group(2)), match.group(3).lower()
            candidate = Candidate(kind, address, port)
            if _form(address) is not None and candidate not in candidates:
                candidates.append(candidate)
    if not ufrag or not pwd or len(fingerprint) != 32:
        raise CodeError(words.CODE_NO_DETAILS)
    return Endpoint(ufrag, pwd, fingerprint, tuple(candidates))


def _sdp(endpoint: Endpoint, setup: str) -> str:
    fingerprint = ":".join(f"{b:02X}" for b in endpoint.fingerprint)
    lines = ["v=0", "o=- 1 2 IN IP4 127.0.0.1", "s=-", "t=0 0", "a=group:BUNDLE 0",
             "a=msid-semantic: WMS", "m=application 9 UDP/DTLS/SCTP webrtc-datachannel",
             "c=IN IP4 0.0.0.0"]
    for number, c in enumerate(endpoint.candidates, start=1):
        extra = " raddr 0.0.0.0 rport 0" if c.kind != "host" else ""
        lines.append(f"a=candidate:{number} 1 udp {_PRIORITY[c.kind] - number} {c.address} "
                     f"{c.port} typ {c.kind}{extra} generation 0")
    lines += [f"a=ice-ufrag:{endpoint.ufrag}", f"a=ice-pwd:{endpoint.pwd}",
              "a=ice-options:trickle", f"a=fingerprint:sha-256 {fingerprint}",
              f"a=setup:{setup}", "a=mid:0", "a=sctp-port:5000", "a=max-message-size:262144"]
    return "\r\n".join(lines) + "\r\n"


def offer_sdp(endpoint: Endpoint) -> str:
    """An offer SDP a browser accepts as the remote description, rebuilt from ``endpoint``."""
    return _sdp(endpoint, "actpass")


def answer_sdp(endpoint: Endpoint) -> str:
    """An answer SDP rebuilt from ``endpoint`` (the guest takes the DTLS client role)."""
    return _sdp(endpoint, "active")


# --- packing ---------------------------------------------------------------------------------

def _form(address: str) -> int | None:
    if address.lower().endswith(".local"):
        try:
            uuid.UUID(address[:-6])
        except ValueError:
            return None
        return _FORM_MDNS
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return None
    return _FORM_IP4 if ip.version == 4 else _FORM_IP6


def _pack_candidate(c: Candidate) -> bytes:
    form = _form(c.address)
    if form is None or c.kind not in _KINDS or not 0 < c.port < 65536:
        raise CodeError(words.CODE_BAD_ADDRESS)
    if form == _FORM_MDNS:
        body = uuid.UUID(c.address[:-6]).bytes
    else:
        body = ipaddress.ip_address(c.address).packed
    return bytes([_KINDS.index(c.kind) | form << 2]) + body + c.port.to_bytes(2, "big")


def _pack_ice(text: str) -> bytes:
    """ICE credentials use 64 characters only: 6 bits each, after a length byte."""
    if not 0 < len(text) < 256 or any(ch not in _ICE_CHARS for ch in text):
        raise CodeError(words.CODE_BAD_PASSWORD)
    bits = 0
    for ch in text:
        bits = bits << 6 | _ICE_CHARS.index(ch)
    size = (len(text) * 6 + 7) // 8
    bits <<= size * 8 - len(text) * 6
    return bytes([len(text)]) + bits.to_bytes(size, "big")


class _Reader:
    def __init__(self, data: bytes) -> None:
        self.data = data
        self.at = 0

    def take(self, n: int) -> bytes:
        if self.at + n > len(self.data):
            raise CodeError(words.CODE_INCOMPLETE)
        out = self.data[self.at:self.at + n]
        self.at += n
        return out

    def byte(self) -> int:
        return self.take(1)[0]

    def ice(self) -> str:
        length = self.byte()
        size = (length * 6 + 7) // 8
        bits = int.from_bytes(self.take(size), "big") >> (size * 8 - length * 6)
        chars = [_ICE_CHARS[bits >> (6 * (length - 1 - i)) & 63] for i in range(length)]
        return "".join(chars)

    def candidate(self) -> Candidate:
        head = self.byte()
        kind, form = head & 3, head >> 2
        if kind >= len(_KINDS) or form > _FORM_MDNS:
            raise CodeError(words.CODE_DAMAGED)
        if form == _FORM_MDNS:
            address = f"{uuid.UUID(bytes=self.take(16))}.local"
        else:
            address = str(ipaddress.ip_address(self.take(4 if form == _FORM_IP4 else 16)))
        return Candidate(_KINDS[kind], address, int.from_bytes(self.take(2), "big"))


def _pack(kind: int, head: bytes, endpoint: Endpoint, limit: int) -> str:
    """Head, endpoint and as many candidates as fit in ``limit`` characters (best first)."""
    if len(endpoint.fingerprint) != 32:
        raise CodeError(words.CODE_NO_FINGERPRINT)
    fixed = (bytes([VERSION << 4 | kind]) + head + _pack_ice(endpoint.ufrag)
             + _pack_ice(endpoint.pwd) + endpoint.fingerprint)
    packed = [_pack_candidate(c) for c in _by_usefulness(endpoint.candidates)]
    if not packed:
        raise CodeError(words.CODE_NO_NETWORK)
    chosen = b""
    for part in packed:
        if len(_text(fixed + chosen + part)) <= limit:
            chosen += part
    if not chosen:
        raise CodeError(words.CODE_TOO_LONG)
    return _text(fixed + chosen)


def _by_usefulness(candidates: tuple[Candidate, ...]) -> list[Candidate]:
    """The first candidate of each kind first (relay, srflx, host), then the others."""
    firsts: list[Candidate] = []
    for kind in ("relay", "srflx", "host"):
        firsts += [c for c in candidates if c.kind == kind][:1]
    return firsts + [c for c in candidates if c not in firsts]


def _text(body: bytes) -> str:
    check = (zlib.crc32(body) & 0xFFFF).to_bytes(2, "big")
    return base64.urlsafe_b64encode(body + check).rstrip(b"=").decode("ascii")


def _clean(code: str) -> str:
    """The code alone, from a pasted code or a whole invite link, whitespace dropped."""
    text = "".join(code.split())
    if "#join=" in text:
        text = text.split("#join=", 1)[1]
    return text


def _unpack(code: str, kind: int, limit: int) -> _Reader:
    text = _clean(code)
    what = "invite" if kind == _KIND_INVITE else "answer"
    if not text:
        raise CodeError(words.code_missing(what))
    if len(text) > limit or not re.fullmatch(r"[A-Za-z0-9_-]+", text):
        raise CodeError(words.code_not_one(what))
    try:
        raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except ValueError as error:
        raise CodeError(words.CODE_DAMAGED) from error
    if len(raw) < 3:
        raise CodeError(words.CODE_INCOMPLETE)
    body, check = raw[:-2], raw[-2:]
    if (zlib.crc32(body) & 0xFFFF).to_bytes(2, "big") != check:
        raise CodeError(words.CODE_DAMAGED_OR_INCOMPLETE)
    if body[0] >> 4 != VERSION:
        raise CodeError(words.CODE_OTHER_VERSION)
    if body[0] & 15 != kind:
        other = "an answer" if kind == _KIND_INVITE else "an invite"
        raise CodeError(words.code_other_kind(other, what))
    reader = _Reader(body)
    reader.at = 1
    return reader


def _endpoint(reader: _Reader) -> Endpoint:
    ufrag, pwd = reader.ice(), reader.ice()
    fingerprint = reader.take(32)
    candidates = []
    while reader.at < len(reader.data):
        candidates.append(reader.candidate())
    if not candidates:
        raise CodeError(words.CODE_NO_ADDRESS)
    return Endpoint(ufrag, pwd, fingerprint, tuple(candidates))


def _seat_byte(seat: int, ticket: int) -> bytes:
    if not 1 <= seat <= 3 or not 0 <= ticket < 64:
        raise ValueError("seat must be 1-3 and ticket 0-63")
    return bytes([seat << 6 | ticket])


def encode_invite(invite: Invite) -> str:
    """The invite code (≤ INVITE_MAX characters). Raises CodeError if it can't be made."""
    head = (invite.table.to_bytes(4, "big") + _seat_byte(invite.seat, invite.ticket)
            + invite.minute.to_bytes(4, "big"))
    return _pack(_KIND_INVITE, head, invite.endpoint, INVITE_MAX)


def decode_invite(code: str, minute: int) -> Invite:
    """The invite in ``code`` (a code or a whole link), checked against the time ``minute``.

    Raises CodeError for a damaged, wrong-kind, other-version or expired code.
    """
    reader = _unpack(code, _KIND_INVITE, INVITE_MAX + 8)
    table = int.from_bytes(reader.take(4), "big")
    seat_byte = reader.byte()
    made = int.from_bytes(reader.take(4), "big")
    seat = seat_byte >> 6
    if seat == 0:
        raise CodeError(words.CODE_DAMAGED)
    if minute - made > INVITE_LIFETIME_MIN:
        raise CodeError(words.CODE_EXPIRED)
    if made - minute > CLOCK_SLACK_MIN:
        raise CodeError(words.CODE_FROM_FUTURE)
    return Invite(table, seat, seat_byte & 63, made, _endpoint(reader))


def encode_answer(answer: Answer) -> str:
    """The answer code (≤ ANSWER_MAX characters). Raises CodeError if it can't be made."""
    head = answer.table.to_bytes(4, "big") + _seat_byte(answer.seat, answer.ticket)
    return _pack(_KIND_ANSWER, head, answer.endpoint, ANSWER_MAX)


def decode_answer(code: str, table: int) -> Answer:
    """The answer in ``code``; raises CodeError if damaged or made for another ``table``.

    Whether its invite is still open is the host's to check (``Answer.ticket``).
    """
    reader = _unpack(code, _KIND_ANSWER, ANSWER_MAX + 8)
    their_table = int.from_bytes(reader.take(4), "big")
    seat_byte = reader.byte()
    if their_table != table:
        raise CodeError(words.CODE_OTHER_TABLE)
    seat = seat_byte >> 6
    if seat == 0:
        raise CodeError(words.CODE_DAMAGED)
    return Answer(table, seat, seat_byte & 63, _endpoint(reader))
