"""Invite and answer codes: short, round-tripping, and clear about every way they go wrong."""

from __future__ import annotations

import re
import string
from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.sdp import CHROMIUM_OFFER
from web.p2p.codes import (
    ANSWER_MAX,
    INVITE_MAX,
    Answer,
    Candidate,
    CodeError,
    Endpoint,
    Invite,
    answer_sdp,
    decode_answer,
    decode_invite,
    encode_answer,
    encode_invite,
    offer_sdp,
    parse_sdp,
)

MDNS = "1f4f5c1e-7c1d-4b8e-9d5e-2a7e0c3f9b11.local"
FINGERPRINT = bytes(range(32))


def endpoint(*candidates: Candidate) -> Endpoint:
    return Endpoint("y3Vb", "Qx0h5MDoA1DEk1j2jtHnZ9+/", FINGERPRINT, candidates)


def test_sdp_reduced_to_credentials_fingerprint_and_udp_candidates() -> None:
    ep = parse_sdp(CHROMIUM_OFFER)
    assert ep.ufrag == "y3Vb" and ep.pwd == "Qx0h5MDoA1DEk1j2jtHnZ9+/"
    assert ep.fingerprint[:2] == b"\x3d\x0a"
    assert ep.candidates == (Candidate("host", "192.168.1.20", 58129),
                             Candidate("host", "fd00::1:2", 49152),
                             Candidate("srflx", "203.0.113.7", 58129))


def test_rebuilt_sdp_parses_back_to_the_same_endpoint() -> None:
    ep = parse_sdp(CHROMIUM_OFFER)
    assert parse_sdp(offer_sdp(ep)) == ep
    assert "a=setup:actpass" in offer_sdp(ep)
    assert "a=setup:active" in answer_sdp(ep)
    assert "raddr 0.0.0.0 rport 0" in offer_sdp(ep)


def test_sdp_without_credentials_is_refused() -> None:
    with pytest.raises(CodeError):
        parse_sdp("v=0\r\nm=application 9 UDP/DTLS/SCTP webrtc-datachannel\r\n")


def test_invite_round_trips_within_its_limit() -> None:
    invite = Invite(0xDEADBEEF, 2, 5, 29_000_000,
                    endpoint(Candidate("host", MDNS, 50000), Candidate("host", "10.0.0.2", 5)))
    code = encode_invite(invite)
    assert len(code) <= INVITE_MAX
    assert decode_invite(code, 29_000_010) == invite
    assert decode_invite(f"https://x.example/hearts/#join={code}\n", 29_000_010) == invite


def test_answer_round_trips_within_its_limit() -> None:
    answer = Answer(7, 3, 63, endpoint(Candidate("host", MDNS, 1), Candidate("host", MDNS.replace(
        "1f", "2e"), 2)))
    code = encode_answer(answer)
    assert len(code) <= ANSWER_MAX
    assert decode_answer(code, 7) == answer


def test_typical_codes_are_short() -> None:
    two = endpoint(Candidate("host", "192.168.1.20", 58129), Candidate("srflx", "203.0.113.7", 1))
    assert len(encode_invite(Invite(1, 1, 0, 1, two))) <= 120
    assert len(encode_answer(Answer(1, 1, 0, two))) <= 110


def test_candidates_that_do_not_fit_are_left_out_relay_first() -> None:
    many = [Candidate("host", MDNS.replace("1f4f", f"{n:04x}"), n + 1) for n in range(8)]
    relay = Candidate("relay", "198.51.100.9", 3478)
    ep = decode_answer(encode_answer(Answer(1, 1, 0, endpoint(*many, relay))), 1).endpoint
    assert ep.candidates[0] == relay
    assert 1 < len(ep.candidates) < 9


def test_no_candidates_is_a_clear_error() -> None:
    with pytest.raises(CodeError, match="No network address"):
        encode_invite(Invite(1, 1, 0, 1, endpoint()))


def code_of_invite(minute: int = 1000) -> str:
    return encode_invite(Invite(42, 1, 0, minute, endpoint(Candidate("host", "10.0.0.2", 9))))


def test_mangled_code_says_copy_again() -> None:
    code = code_of_invite()
    broken = code[:20] + ("A" if code[20] != "A" else "B") + code[21:]
    with pytest.raises(CodeError, match="copy it again"):
        decode_invite(broken, 1000)
    with pytest.raises(CodeError, match="copy it again"):
        decode_invite(code[:-7], 1000)


def test_expired_invite_and_clock_far_ahead() -> None:
    with pytest.raises(CodeError, match="expired"):
        decode_invite(code_of_invite(1000), 1000 + 181)
    with pytest.raises(CodeError, match="clock"):
        decode_invite(code_of_invite(1000), 1000 - 61)


def test_wrong_table_and_wrong_kind() -> None:
    answer = encode_answer(Answer(42, 1, 0, endpoint(Candidate("host", "10.0.0.2", 9))))
    with pytest.raises(CodeError, match="another table"):
        decode_answer(answer, 43)
    with pytest.raises(CodeError, match="answer code, not an invite"):
        decode_invite(answer, 1000)
    with pytest.raises(CodeError, match="invite code, not an answer"):
        decode_answer(code_of_invite(), 42)


def test_other_version_is_named() -> None:
    import base64
    import zlib
    code = code_of_invite()
    raw = bytearray(base64.urlsafe_b64decode(code + "=" * (-len(code) % 4)))[:-2]
    raw[0] = 2 << 4 | 1
    body = bytes(raw) + (zlib.crc32(bytes(raw)) & 0xFFFF).to_bytes(2, "big")
    other = base64.urlsafe_b64encode(body).rstrip(b"=").decode()
    with pytest.raises(CodeError, match="different version"):
        decode_invite(other, 1000)


def test_empty_and_foreign_text() -> None:
    with pytest.raises(CodeError, match="Paste"):
        decode_answer("  ", 1)
    with pytest.raises(CodeError, match="isn't an answer code"):
        decode_answer("hello, world!", 1)


def refused_in_words(decode: Callable[[str], object], code: str) -> object:
    """What ``decode`` makes of ``code``: its value, or a CodeError whose message is a
    sentence for the person (never another exception)."""
    try:
        return decode(code)
    except CodeError as error:
        assert PLAIN.fullmatch(str(error)), str(error)
        return error


PLAIN = re.compile(r"[A-Z][^\n{}<>]{10,200}[.!]")
DECODERS: tuple[Callable[[str], object], ...] = (lambda t: decode_invite(t, 1000),
                                                 lambda t: decode_answer(t, 42))


@given(st.text(max_size=300))
def test_any_text_either_decodes_or_is_refused_in_words(text: str) -> None:
    for decode in DECODERS:
        got = refused_in_words(decode, text)
        assert isinstance(got, (Invite, Answer, CodeError))


@given(st.binary(min_size=1, max_size=110))
def test_any_checksummed_bytes_decode_or_raise_code_error(body: bytes) -> None:
    import base64
    import zlib
    raw = body + (zlib.crc32(body) & 0xFFFF).to_bytes(2, "big")
    code = base64.urlsafe_b64encode(raw).rstrip(b"=").decode()
    for decode in DECODERS:
        got = refused_in_words(decode, code)
        assert isinstance(got, (Invite, Answer, CodeError))


@pytest.mark.parametrize("kind", ["invite", "answer"])
def test_every_single_typo_is_refused_or_changes_nothing(kind: str) -> None:
    """The codes' check: a code with any one character changed is refused (or, in the last
    character's unused bits, reads exactly as the code itself): a typo never seats someone
    at another table, seat or address."""
    two = endpoint(Candidate("host", "192.168.1.20", 58129),
                   Candidate("srflx", "203.0.113.7", 58129))
    if kind == "invite":
        code, decode = encode_invite(Invite(0xDEADBEEF, 2, 17, 1000, two)), DECODERS[0]
    else:
        code, decode = encode_answer(Answer(42, 2, 17, two)), DECODERS[1]
    meant = decode(code)
    alphabet = string.ascii_letters + string.digits + "-_"
    refused = 0
    for at, was in enumerate(code):
        for typed in alphabet.replace(was, ""):
            got = refused_in_words(decode, code[:at] + typed + code[at + 1:])
            refused += isinstance(got, CodeError)
            assert isinstance(got, CodeError) or got == meant, (at, typed)
    assert refused >= len(code) * (len(alphabet) - 1) - 63  # at most the last character's
