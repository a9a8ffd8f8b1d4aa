"""The chart of a game: the four totals hand by hand, with the end score's line.

``build`` is pure geometry (unit-tested): from the per-hand scores to the lines' points in
the SVG's own units, the axis ticks and where each seat's name sits at the end of its
line (names pushed apart so they never overlap). ``svg`` and ``table_html`` write it as
markup: the picture for the eye, and the same figures as a table for a screen reader
(visually hidden), so the page only puts the strings in place.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from web import words

__all__ = ["Chart", "Line", "build", "spread", "svg", "table_html"]

WIDTH: Final = 300
"""In the SVG's units, which its text sizes are in too: on a 320 px phone the chart is
about 270 px wide, so its 11-unit numbers stay 10 px high."""
HEIGHT: Final = 220
LEFT: Final = 34.0
"""Room for the points axis' numbers."""
RIGHT: Final = 64.0
"""Room for the seats' names at the lines' ends."""
TOP: Final = 10.0
BOTTOM: Final = 24.0
"""Room for the hands axis' numbers."""
LABEL_GAP: Final = 13.0
"""The least distance between two names (their text is 11 units high)."""
_STEPS: Final = (5, 10, 20, 25, 50, 100, 200, 250, 500, 1000)


@dataclass(frozen=True)
class Line:
    """One seat's totals: the points of its line and where its name goes."""

    seat: int
    name: str
    points: tuple[tuple[float, float], ...]
    label_y: float
    total: int


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    plot: tuple[float, float, float, float]
    """The plotting area: left, top, right, bottom."""
    lines: tuple[Line, ...]
    y_ticks: tuple[tuple[int, float], ...]
    """(points, y) of the points axis' marks."""
    x_ticks: tuple[tuple[int, float], ...]
    """(hand, x) of the hands axis' marks."""
    end: tuple[int, float] | None
    """The end score and its line's y (None when it is off the scale)."""
    names: tuple[str, ...]
    totals: tuple[tuple[int, int, int, int], ...]
    """The four totals after each hand (the table twin's rows)."""


def _step(span: int) -> int:
    return next((s for s in _STEPS if span / s <= 6), _STEPS[-1])


def spread(wanted: Sequence[float], gap: float, low: float, high: float) -> list[float]:
    """Positions as near ``wanted`` as can be with at least ``gap`` between any two, all
    within ``low``..``high`` (if they fit); in the order given."""
    order = sorted(range(len(wanted)), key=lambda i: wanted[i])
    placed = [0.0] * len(wanted)
    last = low - gap
    for i in order:
        last = max(wanted[i], last + gap, low)
        placed[i] = last
    ceiling = high
    for i in reversed(order):  # pushed past the bottom: slide the crowd up, gaps kept
        placed[i] = min(placed[i], ceiling)
        ceiling = placed[i] - gap
    return placed


def build(hands: Sequence[Sequence[int]], names: Sequence[str], end_score: int = 100,
          width: int = WIDTH, height: int = HEIGHT) -> Chart:
    """The chart of a game whose finished hands scored ``hands`` (one row of 4 a hand)."""
    running = [0, 0, 0, 0]
    totals: list[tuple[int, int, int, int]] = []
    for row in hands:
        running = [running[s] + int(row[s]) for s in range(4)]
        totals.append((running[0], running[1], running[2], running[3]))
    values = [v for row in totals for v in row]
    low_value = min([0, *values])
    high_value = max([end_score, *values])
    step = _step(high_value - low_value or 1)
    lo = -(-low_value // step) * step if low_value >= 0 else (low_value // step) * step
    hi = -(-high_value // step) * step
    left, top, right, bottom = LEFT, TOP, width - RIGHT, height - BOTTOM
    count = max(len(totals), 1)

    def x(hand: int) -> float:
        return round(left + (right - left) * hand / count, 2)

    def y(value: int) -> float:
        return round(bottom - (bottom - top) * (value - lo) / (hi - lo), 2)

    ends = [y(totals[-1][s]) if totals else y(0) for s in range(4)]
    label_ys = spread(ends, LABEL_GAP, top + 4, bottom)
    lines = tuple(
        Line(s, names[s], ((x(0), y(0)), *((x(h + 1), y(row[s])) for h, row in enumerate(totals))),
             round(label_ys[s], 2), totals[-1][s] if totals else 0)
        for s in range(4))
    x_every = max(1, -(-len(totals) // 10))  # at most about ten numbers along the bottom
    x_ticks = tuple((h, x(h)) for h in range(0, len(totals) + 1, x_every))
    y_ticks = tuple((v, y(v)) for v in range(lo, hi + 1, step))
    end = (end_score, y(end_score)) if lo <= end_score <= hi else None
    return Chart(width, height, (left, top, right, bottom), lines, y_ticks, x_ticks, end,
                 tuple(names), tuple(totals))


def svg(chart: Chart, label: str = "") -> str:
    """The chart as an ``<svg>`` (``role="img"``, named by ``label`` or a sentence)."""
    e = html.escape
    left, _top, right, bottom = chart.plot
    name = label or words.chart_label(chart.names, len(chart.totals))
    parts = [f'<svg class="chart" viewBox="0 0 {chart.width} {chart.height}" role="img" '
             f'aria-label="{e(name)}" preserveAspectRatio="xMidYMid meet">']
    for value, y in chart.y_ticks:
        parts.append(f'<line class="grid" x1="{left}" y1="{y}" x2="{right}" y2="{y}"/>'
                     f'<text class="tick" x="{left - 4}" y="{y + 4}" text-anchor="end">'
                     f'{value}</text>')
    for hand, x in chart.x_ticks:
        parts.append(f'<text class="tick" x="{x}" y="{bottom + 14}" text-anchor="middle">'
                     f'{hand}</text>')
    if chart.end is not None:
        score, y = chart.end
        parts.append(f'<line class="end" x1="{left}" y1="{y}" x2="{right}" y2="{y}"/>'
                     f'<text class="end-label" x="{left + 3}" y="{y - 3}">'
                     f'{e(words.end_label(score))}</text>')
    for line in chart.lines:
        points = " ".join(f"{px},{py}" for px, py in line.points)
        last_x, last_y = line.points[-1]
        parts.append(f'<polyline class="line s{line.seat}" points="{points}"/>'
                     f'<line class="lead s{line.seat}" x1="{last_x}" y1="{last_y}" '
                     f'x2="{right + 4}" y2="{line.label_y}"/>'
                     f'<text class="name s{line.seat}" x="{right + 6}" y="{line.label_y + 4}">'
                     f'{e(line.name)}</text>')
    parts.append("</svg>")
    return "".join(parts)


def table_html(chart: Chart, caption: str = words.CHART_TABLE) -> str:
    """The chart's figures as a table, visually hidden (the chart's twin for readers)."""
    e = html.escape
    heads = "".join(f'<th scope="col">{e(n)}</th>' for n in chart.names)
    rows = "".join(
        f'<tr><th scope="row">{hand}</th>{"".join(f"<td>{v}</td>" for v in row)}</tr>'
        for hand, row in enumerate(chart.totals, start=1))
    # Hidden by a wrapper: a table grows to fit its rows whatever its height, so a hidden
    # table itself would still lengthen the dialog's scrolling by its full height.
    return (f'<div class="sr-only"><table class="chart-table"><caption>{e(caption)}</caption>'
            f'<thead><tr><th scope="col">Hand</th>{heads}</tr></thead>'
            f"<tbody>{rows}</tbody></table></div>")
