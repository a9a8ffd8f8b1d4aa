"""``?slow=MS``: the page names its own steps that took long (``web.slow_steps``)."""

from __future__ import annotations

import pytest

from web import options, slow_steps


def test_the_address_asks_for_the_steps_over_a_threshold() -> None:
    assert options.parse("?slow=30").slow == 30.0
    assert options.parse("?slow=soon").slow is None
    assert options.parse("?speed=instant").slow is None


def test_a_step_over_the_threshold_is_named_and_one_under_it_is_not(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    clock = iter([10.0, 10.045, 20.0, 20.010])  # a step of 45 ms, then one of 10 ms
    monkeypatch.setattr("web.slow_steps.perf_counter", lambda: next(clock))
    slow_steps.watch(30)
    try:
        with slow_steps.timed("deliver"):
            pass
        with slow_steps.timed("flush"):
            pass
    finally:
        slow_steps.watch(None)
    assert capsys.readouterr().out == "slow step deliver 45 ms\n"


def test_off_unless_asked(capsys: pytest.CaptureFixture[str]) -> None:
    slow_steps.watch(None)
    with slow_steps.timed("deliver"):
        pass
    assert capsys.readouterr().out == ""
