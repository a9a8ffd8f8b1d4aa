"""``tools/long_tasks.py`` says what a CPU profile's long tasks are made of: a small
profile made by hand, whose answer is known, read back."""

from __future__ import annotations

from typing import Any

from tools.long_tasks import spans, wasm_exports


def _frame(name: str, url: str = "") -> dict[str, Any]:
    return {"functionName": name, "url": url}


# (root) → (idle) | (program) | __profileMarker | run (a page's script) →
# wasm-function[7] (the interpreter's long arithmetic, after an exported _PyLong_Multiply)
NODES = [
    {"id": 1, "callFrame": _frame("(root)"), "children": [2, 3, 4, 5]},
    {"id": 2, "callFrame": _frame("(idle)")},
    {"id": 3, "callFrame": _frame("(program)")},
    {"id": 4, "callFrame": _frame("__profileMarker", "page.js")},
    {"id": 5, "callFrame": _frame("run", "http://x/static/room.mjs"), "children": [6]},
    {"id": 6, "callFrame": _frame("wasm-function[7]", "wasm://wasm/1")},
]
EXPORTS = {5: "_PyLong_Multiply", 9: "_PyLong_Rshift"}


def _profile(samples: list[int]) -> dict[str, Any]:
    return {"nodes": NODES, "samples": samples, "timeDeltas": [1000] * len(samples)}


def test_a_long_task_placed_by_the_marker_is_told_by_kind() -> None:
    # ms 1: the marker (at the page's 500.0 ms); 2-3 idle; 4-63 a task of 60 ms: 45 of
    # long arithmetic and 15 of the browser's own; then idle
    samples = [4, 2, 2] + [6] * 45 + [3] * 15 + [2] * 10
    recorded = {"profile": _profile(samples), "marker": 500.0,
                "longTasks": [[503.0, 60.0], [600.0, 20.0]]}  # (the second: too short)
    whole, long_ = spans(recorded, 50, EXPORTS)
    assert len(long_) == 1 and long_[0].ms == 60.0 and long_[0].start == 4.0
    assert dict(long_[0].kinds) == {"bigint": 45.0, "native": 15.0}
    assert dict(long_[0].tops) == {"~_PyLong_Multiply": 45.0, "(program)": 15.0}
    assert whole.ms == 61.0  # the marker's own millisecond is the page's script: js
    assert whole.kinds["js"] == 1.0


def test_without_the_pages_long_tasks_busy_runs_stand_for_them() -> None:
    samples = [2] + [6] * 30 + [3] * 30 + [2] + [6] * 10 + [2]
    whole, long_ = spans(_profile(samples), 50, EXPORTS)
    assert [(span.start, span.ms) for span in long_] == [(2.0, 60.0)]
    assert whole.kinds["bigint"] == 40.0


def test_the_interpreters_functions_are_named_from_its_exports() -> None:
    # a module of one imported function and two exported ones, by hand
    def leb(n: int) -> bytes:
        return bytes([n])

    def name(text: str) -> bytes:
        return leb(len(text)) + text.encode()

    imports = leb(1) + name("env") + name("now") + b"\x00" + leb(0)
    exports = leb(2) + name("_PyLong_Add") + b"\x00" + leb(3) + name("memory") + b"\x02" + leb(0)
    module = (b"\x00asm\x01\x00\x00\x00" + b"\x02" + leb(len(imports)) + imports
              + b"\x07" + leb(len(exports)) + exports)
    assert wasm_exports(module) == {0: "env.now", 3: "_PyLong_Add"}
