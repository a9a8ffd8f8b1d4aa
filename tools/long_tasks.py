"""What the long tasks of a DevTools CPU profile are made of.

``python tools/long_tasks.py PROFILE [--over MS]`` reads a ``.cpuprofile`` (the page's
``Profiler.stop``, e.g. ``e2e/measure.py --fair --profile FILE``) and prints, for the whole
of it and for its busy spans of ``--over`` ms or more (a run of samples with no idle one
between: a long task, or tasks back to back), where the time went, by kind:

- ``bigint``: CPython's long arithmetic (``long_pow``, ``x_mul``, ``k_mul``, ...);
- ``python gc``: CPython's cycle collector (``gc_collect_*`` on the stack);
- ``js gc``: V8's collector (``(garbage collector)``);
- ``python <-> js``: Pyodide's proxies and conversions (``JsProxy``, ``python2js``,
  ``js2python``, ``hiwire``, ``pyproxy``, ... the top frame; every call into Python
  comes through them, so their callees are not counted here);
- ``hash``, ``json``, ``str``, ``dict/list``: CPython's own (by the top frame's name);
- ``python other``: the rest of the interpreter (``_PyEval_EvalFrameDefault`` and the like);
- ``js``: JavaScript of the page and its libraries (a frame with a URL, not Pyodide's);
- ``native``: the browser's own work (``(program)``: layout, style, the DOM's setters).

Python's own functions don't show (the interpreter is one wasm module): what a task does
in Python is named by the page's ``?slow=MS`` (``web.slow_steps``); this says what the
interpreter spends it on. The attribution goes to the first rule that matches, the
kinds found on the stack first.
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["Span", "kind_of", "spans", "summarize", "wasm_exports"]

WASM = Path(__file__).resolve().parent.parent / "node_modules" / "pyodide" / "pyodide.asm.wasm"
"""Pyodide's interpreter: its exports name the profile's ``wasm-function[N]`` frames."""

ON_STACK: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("js gc", ("(garbage collector)",)),
    ("python gc", ("gc_collect", "_PyGC_Collect", "gc_collect_main", "gc_collect_region",
                   "~PyGC_", "~_PyGC")),
)
"""Kinds that own a sample when one of these names is anywhere on its stack (first wins)."""
ON_TOP: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("python <-> js", ("JsProxy", "python2js", "js2python", "hiwire", "pyproxy", "PyProxy",
                       "callPyObject", "_pyodide_core", "Js2Py", "JsMethod", "JsArray",
                       "JsObject", "create_proxy", "destroy_proxies", "wrap_generator",
                       "~Js", "~_pyproxy", "~pyproxy", "~_python2js", "~js2python")),
    ("bigint", ("~_PyLong", "~PyLong", "long_", "x_mul", "k_mul", "k_lopsided", "x_divrem",
                "v_iadd", "v_isub", "mul1", "x_add", "x_sub", "_PyLong", "PyLong", "inplace_divrem",
                "long_pow", "divrem", "l_mod", "l_divmod", "kmul")),
    ("hash", ("sha256", "SHA256", "Hacl_", "_sha2")),
    ("json", ("encoder_", "scanstring", "scanner_", "json", "escape_unicode")),
    ("str", ("unicode", "Unicode", "_PyUnicode", "str_", "utf8", "format")),
    ("dict/list", ("dict", "list", "tuple", "set_", "insertdict", "lookdict")),
)
"""Kinds that own a sample by its top frame's name (first wins)."""


def _leb(data: bytes, at: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        byte = data[at]
        at += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return value, at


def _name(data: bytes, at: int) -> tuple[str, int]:
    size, at = _leb(data, at)
    return data[at:at + size].decode("utf-8", "replace"), at + size


def wasm_exports(data: bytes) -> dict[int, str]:
    """A wasm module's function names by index, from its imports and exports (Pyodide's
    is stripped of its name section, but exports most of CPython's functions)."""
    names: dict[int, str] = {}
    at, functions = 8, 0
    while at < len(data):
        section = data[at]
        size, at = _leb(data, at + 1)
        end = at + size
        if section == 2:  # imports: they come first among the functions
            count, p = _leb(data, at)
            for _ in range(count):
                module, p = _name(data, p)
                field, p = _name(data, p)
                kind, p = data[p], p + 1
                if kind == 0:
                    _, p = _leb(data, p)
                    names[functions] = f"{module}.{field}"
                    functions += 1
                elif kind in (1, 2):  # a table (its type first), a memory: their limits
                    p += kind == 1
                    flags, p = _leb(data, p)
                    _, p = _leb(data, p)
                    if flags & 1:
                        _, p = _leb(data, p)
                elif kind == 3:
                    p += 2
                else:
                    _, p = _leb(data, p + 1)
        elif section == 7:
            count, p = _leb(data, at)
            for _ in range(count):
                field, p = _name(data, p)
                kind, p = data[p], p + 1
                index, p = _leb(data, p)
                if kind == 0:
                    names.setdefault(index, field)
        at = end
    return names


def named(name: str, exports: Mapping[int, str]) -> str:
    """A profile's frame name, ``wasm-function[N]`` named by ``exports``: its own export
    name, or ``~NAME`` after the nearest exported function before it (static functions sit
    by their file's exported ones: after ``_PyLong_Multiply`` is long arithmetic).

    >>> named("wasm-function[5]", {3: "_PyLong_Add", 7: "x"}), named("run", {})
    ('~_PyLong_Add', 'run')
    """
    if not name.startswith("wasm-function[") or not exports:
        return name
    index = int(name[len("wasm-function["):-1])
    if index in exports:
        return exports[index]
    before = max((i for i in exports if i < index), default=None)
    return name if before is None else "~" + exports[before]


def kind_of(stack: Sequence[Mapping[str, Any]]) -> str:
    """The kind a sample counts as, from its stack (``callFrame``s, root first).

    >>> kind_of([{"functionName": "(root)", "url": ""}, {"functionName": "(program)", "url": ""}])
    'native'
    >>> kind_of([{"functionName": "run", "url": "x.js"}, {"functionName": "long_pow", "url": ""}])
    'bigint'
    >>> kind_of([{"functionName": "long_pow", "url": ""},
    ...          {"functionName": "JsProxy_Vectorcall", "url": ""}])
    'python <-> js'
    """
    names = [str(frame["functionName"]) for frame in stack]
    for kind, parts in ON_STACK:
        if any(part in name for name in names for part in parts):
            return kind
    top = stack[-1]
    name, url = str(top["functionName"]), str(top.get("url", ""))
    if name in ("(program)", "(root)"):
        return "native"
    for kind, parts in ON_TOP:
        if any(part in name for part in parts):
            return kind
    if url and not url.startswith("wasm") and "pyodide" not in url:
        return "js"
    return "python other"


Tally = defaultdict[str, float]
"""Milliseconds by kind, or by a frame's name."""


def _tally() -> Tally:
    return defaultdict(float)


def _most(tally: Tally, count: int | None = None) -> list[tuple[str, float]]:
    return sorted(tally.items(), key=lambda kv: -kv[1])[:count]


@dataclass(frozen=True)
class Span:
    """A stretch of the profile: when it starts (ms into the profile), how long, its
    samples' time by kind and by top frame."""

    start: float
    ms: float
    kinds: Tally
    tops: Tally


def _samples(profile: Mapping[str, Any], exports: Mapping[int, str]
             ) -> list[tuple[float, float, str, str]]:
    """Each sample: its time (ms into the profile), the time it stands for (ms), its
    kind (``idle`` or ``kind_of``) and its top frame's name."""
    nodes = {node["id"]: node for node in profile["nodes"]}
    parent: dict[int, int] = {}
    for node in profile["nodes"]:
        for child in node.get("children", ()):
            parent[child] = node["id"]
    kinds: dict[int, tuple[str, str]] = {}
    for node_id in nodes:
        stack, at = [], node_id
        while at in nodes:
            frame = nodes[at]["callFrame"]
            stack.append({**frame, "functionName": named(str(frame["functionName"]),
                                                         exports)})
            at = parent.get(at, -1)
        top = str(stack[0]["functionName"]) or "(anonymous)"
        kinds[node_id] = ("idle" if top == "(idle)" else kind_of(stack[::-1]), top)
    deltas = profile["timeDeltas"]
    out, now = [], 0.0
    for n, sample in enumerate(profile["samples"]):
        now += deltas[n] / 1000
        step = (deltas[n + 1] if n + 1 < len(deltas) else deltas[n]) / 1000
        out.append((now, step, *kinds[sample]))
    return out


def _marker_at(profile: Mapping[str, Any]) -> float | None:
    """When (ms into the profile) the marker function (``e2e/measure.py``'s ``MARKER``)
    first ran."""
    ids = {node["id"] for node in profile["nodes"]
           if node["callFrame"]["functionName"] == "__profileMarker"}
    now = 0.0
    for sample, delta in zip(profile["samples"], profile["timeDeltas"], strict=True):
        now += delta / 1000
        if sample in ids:
            return float(now)
    return None


def spans(recorded: Mapping[str, Any], over: float, exports: Mapping[int, str]
          ) -> tuple[Span, list[Span]]:
    """The whole profile's busy time, and its long tasks of ``over`` ms or more: the
    page's own (``longTasks``, placed by the marker) if ``recorded`` has them, else runs
    of busy samples with no idle one between (tasks back to back run together)."""
    profile = recorded.get("profile", recorded)
    samples = _samples(profile, exports)
    whole = Span(0.0, 0.0, _tally(), _tally())
    for _, step, kind, top in samples:
        if kind != "idle":
            whole.kinds[kind] += step
            whole.tops[top] += step
    whole = Span(0.0, sum(whole.kinds.values()), whole.kinds, whole.tops)
    marker = _marker_at(profile)
    if "longTasks" in recorded and marker is not None:
        shift = marker - float(recorded["marker"])  # the page's ms to the profile's
        bounds = [(t + shift, d) for t, d in recorded["longTasks"] if d >= over]
    else:
        bounds, run_start, busy = [], 0.0, 0.0
        for at, step, kind, _ in samples:
            if kind == "idle":
                if busy >= over:
                    bounds.append((run_start, at - run_start))
                busy = 0.0
                continue
            if not busy:
                run_start = at
            busy += step
        if busy >= over:
            bounds.append((run_start, samples[-1][0] - run_start))
    found = []
    for start, ms in bounds:
        kinds, tops = _tally(), _tally()
        for at, step, kind, top in samples:
            if start <= at < start + ms and kind != "idle":
                kinds[kind] += step
                tops[top] += step
        if kinds:
            found.append(Span(start, ms, kinds, tops))
    return whole, found


def _share(kinds: Tally, ms: float) -> str:
    return ", ".join(f"{kind} {v:.0f} ms ({100 * v / ms:.0f}%)"
                     for kind, v in _most(kinds))


def summarize(recorded: Mapping[str, Any], over: float, show: int,
              exports: Mapping[int, str]) -> str:
    """The report ``main`` prints."""
    whole, long_ = spans(recorded, over, exports)
    lines = [f"busy {whole.ms:.0f} ms in all: {_share(whole.kinds, whole.ms)}"]
    if long_:
        kinds: Tally = _tally()
        for span in long_:
            for kind, v in span.kinds.items():
                kinds[kind] += v
        ms = sum(kinds.values())
        tops: Tally = _tally()
        for span in long_:
            for name, v in span.tops.items():
                tops[name] += v
        lines.append(f"{len(long_)} tasks of {over:g} ms or more, {ms:.0f} ms sampled in "
                     f"them: {_share(kinds, ms)}")
        lines.append("  their top frames (ms): " + ", ".join(
            f"{name} {v:.0f}" for name, v in _most(tops, 15)))
    for span in sorted(long_, key=lambda s: -s.ms)[:show]:
        top = ", ".join(f"{name} {v:.0f}" for name, v in _most(span.tops, 6))
        lines.append(f"  at {span.start / 1000:.1f} s, {span.ms:.0f} ms: "
                     f"{_share(span.kinds, sum(span.kinds.values()))}; top frames (ms): {top}")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("profile", type=Path,
                        help="a .cpuprofile (DevTools' JSON), or e2e/measure.py's --profile")
    parser.add_argument("--wasm", type=Path, default=WASM,
                        help="the interpreter's wasm, to name its functions (Pyodide's)")
    parser.add_argument("--over", type=float, default=50, help="long span in ms (50)")
    parser.add_argument("--show", type=int, default=12, help="longest spans listed (12)")
    args = parser.parse_args()
    exports = wasm_exports(args.wasm.read_bytes()) if args.wasm.exists() else {}
    print(summarize(json.loads(args.profile.read_text()), args.over, args.show, exports))


if __name__ == "__main__":
    main()
