"""A table's short code: made to be read out, typos caught before anyone waits."""

from __future__ import annotations

import random

import pytest

from web import words
from web.p2p.codes import CodeError
from web.p2p.tablecode import ALPHABET, make_code, read_code


def test_a_code_reads_back_from_itself_its_link_and_careless_typing() -> None:
    code = make_code(random.Random(1))
    assert len(code.code) == 10 and set(code.code) <= set(ALPHABET)
    assert read_code(code.code) == code
    assert read_code(code.shown.lower()) == code
    assert read_code(f"  {code.code[:3]} {code.code[3:7]} - {code.code[7:]} ") == code
    assert read_code(code.link("https://x.example/hearts/")) == code
    assert code.link("https://x.example/") == \
        f"https://x.example/#t={code.room}&k={code.code[5:]}"


def test_one_wrong_or_swapped_character_is_a_typo() -> None:
    rng = random.Random(2)
    for _ in range(200):
        code = make_code(rng).code
        i = rng.randrange(10)
        wrong = code[:i] + rng.choice(ALPHABET.replace(code[i], "")) + code[i + 1:]
        with pytest.raises(CodeError, match="typo"):
            read_code(wrong)
        j = rng.randrange(9)
        if code[j] != code[j + 1]:
            swapped = code[:j] + code[j + 1] + code[j] + code[j + 2:]
            with pytest.raises(CodeError, match="typo"):
                read_code(swapped)


def test_a_code_of_the_wrong_length_says_what_a_code_looks_like() -> None:
    with pytest.raises(CodeError, match="ten letters"):
        read_code("ABC")


def test_a_persons_own_relays_are_ws_addresses_separated_by_commas() -> None:
    from web.friends.joining import read_relays
    from web.p2p.codes import CodeError

    assert read_relays(" wss://relay.example.org, ws://10.0.0.2:7000 ") == [
        "wss://relay.example.org", "ws://10.0.0.2:7000"]
    for typed in ("", "relay.example.org", "https://relay.example.org", "wss://",
                  ",".join(["wss://r.example"] * 6)):
        with pytest.raises(CodeError) as refused:
            read_relays(typed)
        assert str(refused.value) == words.RELAY_ADDRESS
