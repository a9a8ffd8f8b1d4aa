"""tools/bench_start.py's report: medians per visit and network, and the comparison of two
builds measured in the same runs. No browser: runs made up here."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tools import bench_start


def visit(ready: float, table: float, cls: float = 0.0, to_ready: float = 4e6) -> dict[str, Any]:
    return {"fcp": 100.0, "table": table, "ready": ready, "cls": cls, "download": None,
            "interp_start": None, "interp_end": None, "pyscript_got": None,
            "import_start": None, "import_end": None, "bytes": to_ready + 1e5,
            "bytes_to_ready": to_ready}


def run(scale: float) -> dict[str, dict[str, Any]]:
    return {"cold": visit(5000 * scale, 5200 * scale, 0.07, 4.6e6 * scale),
            "sw": visit(1500 * scale, 300 * scale)}


RUNS = {"9mbps": [[run(1.0), run(1.2), run(0.9)], [run(2.0), run(2.4), run(1.8)]]}


def test_the_comparison_gives_medians_of_each_build_and_their_ratio() -> None:
    lines = bench_start.compare(["9mbps"], ["this", "main"], RUNS)
    assert lines[0].startswith("| median of 3 runs | visit | network | this | main | ratio |")
    rows = {tuple(cell.strip() for cell in line.strip("|").split("|")[:3]): line
            for line in lines[2:]}
    # medians: run(1.0) of this, run(2.0) of main
    assert rows[("playable, s", "cold", "9mbps")].endswith("| 5.00 | 10.00 | 0.50 |")
    assert rows[("table on the screen, s", "sw", "9mbps")].endswith("| 0.30 | 0.60 | 0.50 |")
    assert rows[("MB by playable", "cold", "9mbps")].endswith("| 4.60 | 9.20 | 0.50 |")
    # a CLS of 0 has no ratio (nothing to divide by), not a crash
    assert rows[("CLS", "sw", "9mbps")].endswith("| 0.000 | 0.000 | - |")
    assert ("playable, s", "again", "9mbps") not in rows  # no such visit in these runs
    assert ("MB by playable", "cold", "9mbps") in rows


def test_a_visit_that_downloads_nothing_has_no_bytes_row() -> None:
    nothing = {"9mbps": [[{"sw": visit(1500, 300, to_ready=0)}],
                         [{"sw": visit(1600, 320, to_ready=0)}]]}
    lines = bench_start.compare(["9mbps"], ["this", "main"], nothing)
    assert not any("MB by playable" in line for line in lines)
    assert any("| CLS | sw |" in line for line in lines)  # a CLS of 0 is a figure


def test_saved_runs_are_read_back_and_checked(tmp_path: Path) -> None:
    saved = tmp_path / "bench.txt"
    saved.write_text(json.dumps(RUNS, indent=1) + "\nserved with gzip like GitHub Pages\n",
                     encoding="utf-8")
    assert bench_start.saved_runs(saved, ["9mbps"], 2) == RUNS
    with pytest.raises(SystemExit, match="no runs of 3 sites"):
        bench_start.saved_runs(saved, ["9mbps"], 3)
    with pytest.raises(SystemExit, match=r"1\.6mbps"):
        bench_start.saved_runs(saved, ["1.6mbps"], 2)
