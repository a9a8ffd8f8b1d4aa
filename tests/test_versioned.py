"""The one bounded reader of versioned JSON that both lobbies use."""

from __future__ import annotations

from web.friends.versioned import versioned_json


def test_an_object_of_the_version_reads() -> None:
    assert versioned_json('{"v":4,"came":1}', 60, 4) == {"v": 4, "came": 1}


def test_what_a_stranger_could_send_instead_is_refused() -> None:
    for text in ('{"v":4,"x":"' + "a" * 60 + '"}',  # too long
                 "not json", "[4]", '"v"',  # not an object
                 '{"v":3}', '{"v":"4"}', '{"v":4.0}', '{"v":true}', "{}",  # another version
                 "[" * 59):  # unfinished
        assert versioned_json(text, 60, 4) is None, text


def test_nesting_deeper_than_python_reads_is_refused_not_raised() -> None:
    assert versioned_json("[" * 100_000 + "]" * 100_000, 10**6, 4) is None
