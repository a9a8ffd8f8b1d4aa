"""A page's long steps are made a slice at a time, the one the others wait for most first."""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

import pytest

from hearts.steps import run
from web.p2p.fair.making import Making


def steps(name: str, n: int, trace: list[str]) -> Generator[None, None, str]:
    for i in range(n):
        trace.append(f"{name}{i}")
        yield
    return name.upper()


def one_step(job: Generator[None, None, Any]) -> tuple[bool, Any]:
    """A slice of a single step."""
    try:
        next(job)
    except StopIteration as finished:
        return True, finished.value
    return False, None


def test_the_card_played_comes_before_the_deck_and_each_is_done_once_made() -> None:
    trace: list[str] = []
    done: list[str] = []
    making = Making(one_step)
    assert making.slice_step() is None  # nothing being made
    making.start("shuffle", steps("s", 2, trace), done.append)
    making.start("play", steps("p", 1, trace), done.append, about="QS")
    assert "play" in making and making.about("play") == "QS"
    while making.slice_step() is not None:
        pass
    assert trace == ["p0", "s0", "s1"] and done == ["P", "S"]
    assert "play" not in making and making.about("play") is None


def test_a_step_done_may_start_the_next_and_a_kind_is_made_once_at_a_time() -> None:
    trace: list[str] = []
    making = Making(lambda job: (True, run(job)))
    making.start("lock", steps("l", 1, trace),
                 lambda _: making.start("open", steps("o", 1, trace), trace.append))
    with pytest.raises(AssertionError):
        making.start("lock", steps("again", 1, trace), trace.append)
    assert making.slice_step() is True and "open" in making
    assert making.slice_step() is True and trace == ["l0", "o0", "O"]
