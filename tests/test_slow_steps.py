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


def test_the_address_asks_for_each_slow_steps_costliest_functions() -> None:
    assert options.parse("?slow=30&calls=8").calls == 8
    assert options.parse("?slow=30&calls=999").calls == 40
    assert options.parse("?slow=30&calls=many").calls == 0
    assert options.parse("?slow=30").calls == 0


def _work() -> int:
    return sum(i * i for i in range(20_000))


def test_a_slow_step_under_the_profiler_names_the_functions_that_took_it(
        capsys: pytest.CaptureFixture[str]) -> None:
    slow_steps.watch(0, calls=3)
    try:
        with slow_steps.timed("outer"), slow_steps.timed("inner"):  # one profiler: the outer's
            _work()
    finally:
        slow_steps.watch(None)
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[:3] for line in lines if line.startswith("slow step")] == [
        ["slow", "step", "inner"], ["slow", "step", "outer"]]
    calls = [line for line in lines if line.startswith("slow calls ")]
    assert len(calls) == 1 and calls[0].startswith("slow calls outer: ")
    assert "test_slow_steps._work" in calls[0]  # (its generator: the sum's work)


def test_not_profiled_unless_asked(capsys: pytest.CaptureFixture[str]) -> None:
    slow_steps.watch(0)
    try:
        with slow_steps.timed("step"):
            _work()
    finally:
        slow_steps.watch(None)
    assert "slow calls" not in capsys.readouterr().out
