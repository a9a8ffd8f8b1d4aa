"""QR codes for invite links: segno encodes, this module draws the SVG.

A host shows a friend's ``#join=`` invite link as a QR code so a phone can scan it off the
screen. It is made in the page, never by a third-party service, as invite links carry
connection details. segno (pure Python, pinned in pyproject.toml) ships in the page's zip.

The symbol is byte mode (a ``str`` is encoded as UTF-8 without an ECI header: phone
readers recognise UTF-8, and invite links are ASCII anyway) at error-correction level M,
in the smallest version that holds the data: a 160-character invite link needs version 9
(53×53 modules).

- ``qr_matrix(data)``: the modules as rows of booleans (True = dark), no quiet zone;
- ``qr_svg(data, title=...)``: a small inline ``<svg>`` with the quiet zone.
"""

from __future__ import annotations

import html
import re

import segno

__all__ = ["LEVEL", "qr_matrix", "qr_svg"]

LEVEL = "M"  # recovers ~15 % of a damaged or badly lit symbol, at a modest size
QUIET = 4    # modules of light margin on each side, as the standard requires


def qr_matrix(data: str | bytes) -> list[list[bool]]:
    """The QR code for ``data`` as rows of modules (True = dark), without the quiet zone.

    Raises ValueError (segno's DataOverflowError) if the data is too long for any version.
    """
    raw = data.encode("utf-8") if isinstance(data, str) else bytes(data)
    code = segno.make_qr(raw, error=LEVEL, boost_error=False, mode="byte")
    return [[bool(module) for module in row] for row in code.matrix]


def qr_svg(data: str | bytes, *, title: str = "") -> str:
    """``data`` as a compact inline SVG QR code with a 4-module quiet zone.

    Each run of dark modules in a row is one ``h`` segment of a single stroked path, each
    row's later runs reached by a relative move, which keeps an invite link to ~4 kB.
    ``title`` (HTML-escaped) labels it for screen readers; without one, "QR code".
    """
    return svg_of(qr_matrix(data), title=title)


def svg_of(matrix: list[list[bool]], *, title: str = "") -> str:
    """Draw ``matrix`` (rows of modules, True = dark) as :func:`qr_svg` does."""
    side = len(matrix) + 2 * QUIET
    label = html.escape(title or "QR code", quote=True)
    d = []
    for r, row in enumerate(matrix):
        end = -1  # where the pen stopped in this row; -1 before the first run
        for m in re.finditer("1+", "".join("1" if x else "0" for x in row)):
            # A stroke 1 wide along the row's centre line covers exactly its modules.
            move = (f"M{m.start() + QUIET} {r + QUIET}.5" if end < 0
                    else f"m{m.start() - end} 0")
            d.append(f"{move}h{m.end() - m.start()}")
            end = m.end()
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {side} {side}" role="img" '
            f'aria-label="{label}" shape-rendering="crispEdges"><title>{label}</title>'
            f'<rect width="{side}" height="{side}" fill="#fff"/>'
            f'<path stroke="#000" d="{"".join(d)}"/></svg>')
