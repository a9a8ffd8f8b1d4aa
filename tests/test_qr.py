"""QR codes for invite links: segno's symbol at level M in byte mode, drawn by our SVG writer
with every dark module and only those, inside a four-module quiet zone."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest
import segno
from hypothesis import given
from hypothesis import strategies as st

from web.p2p.qr import qr_matrix, qr_svg, svg_of

Matrix = list[list[bool]]
FORMAT_LEVEL = {0b01: "L", 0b00: "M", 0b11: "Q", 0b10: "H"}
SVG = "{http://www.w3.org/2000/svg}"
# An invite code is base64url, at most 160 characters (web/p2p/codes.py INVITE_MAX).
CODE_160 = ("AQIDpX0_k-9zYbq4Lw1eT8sVn2RcHm7Jd5uKf" * 5)[:160]
INVITE_160 = ("https://example.org/hearts/#join=" + CODE_160)[:160]


def version_of(matrix: Matrix) -> int:
    return (len(matrix) - 17) // 4


def format_info(matrix: Matrix) -> tuple[str, int]:
    """The level and mask a symbol declares, read from both copies of its format bits."""
    size = len(matrix)
    first = [(i, 8) for i in range(6)] + [(7, 8), (8, 8), (8, 7)]
    first += [(8, 14 - i) for i in range(9, 15)]
    second = [(8, size - 1 - i) for i in range(8)] + [(size - 15 + i, 8) for i in range(8, 15)]
    copies = [sum(matrix[r][c] << i for i, (r, c) in enumerate(cells)) ^ 0x5412
              for cells in (first, second)]
    assert copies[0] == copies[1], "the two copies of the format information differ"
    return FORMAT_LEVEL[copies[0] >> 13], copies[0] >> 10 & 7


def dark_from_svg(svg: str) -> tuple[int, set[tuple[int, int]]]:
    """The viewBox side and the dark (row, column) squares the SVG's path draws."""
    root = ET.fromstring(svg)
    side = int(root.get("viewBox", "").split()[2])
    (path,) = root.iter(f"{SVG}path")
    dark, x, y = set(), 0.0, 0.0
    for cmd, a, b in re.findall(r"([Mmh])(-?[\d.]+)(?: (-?[\d.]+))?", path.get("d", "")):
        if cmd == "M":
            x, y = float(a), float(b)
        elif cmd == "m":
            x, y = x + float(a), y + float(b)
        else:  # a horizontal stroke one module wide, centred on the row: dark squares
            dark |= {(int(y), int(x) + k) for k in range(int(a))}
            x += float(a)
    return side, dark


def dark_modules(matrix: Matrix | tuple[bytearray, ...], quiet: int = 4) -> set[tuple[int, int]]:
    """The dark modules of a matrix, as (row, column) inside a quiet zone of ``quiet``."""
    rows: list[list[bool]] = [[bool(m) for m in row] for row in matrix]
    return {(r + quiet, c + quiet) for r, row in enumerate(rows) for c, m in enumerate(row) if m}


def segno_matrix(data: bytes) -> tuple[bytearray, ...]:
    return segno.make_qr(data, error="m", boost_error=False, mode="byte").matrix


TEXTS = ["", "x", INVITE_160, "HELLO WORLD", "12345678901234", "Hearts ♥ à quatre — ☕",
         "ÅØ🂡" * 20, "\x00\xff", "y" * 600]


@pytest.mark.parametrize("text", TEXTS, ids=lambda t: f"{len(t.encode())}B")
def test_the_svg_draws_every_dark_module_of_segnos_symbol_and_nothing_else(text: str) -> None:
    reference = segno_matrix(text.encode())
    side, dark = dark_from_svg(qr_svg(text))
    assert side == len(reference) + 8
    assert dark == dark_modules(reference)


@pytest.mark.parametrize("text", TEXTS, ids=lambda t: f"{len(t.encode())}B")
def test_the_symbol_is_byte_mode_at_level_m_in_the_smallest_version(text: str) -> None:
    matrix = qr_matrix(text)
    assert format_info(matrix)[0] == "M"  # not raised to a higher level where it would fit
    version = version_of(matrix)
    if version > 1:  # the data would not fit in byte mode at level M one version smaller
        with pytest.raises(segno.DataOverflowError):
            segno.make_qr(text.encode(), error="m", boost_error=False, mode="byte",
                          version=version - 1)


def test_a_string_is_encoded_as_utf8() -> None:
    assert qr_matrix("Dame de ♥") == qr_matrix("Dame de ♥".encode())


def test_a_160_character_invite_link_fits_in_version_9() -> None:
    assert len(INVITE_160) == 160
    matrix = qr_matrix(INVITE_160)
    assert (version_of(matrix), len(matrix)) == (9, 53)
    # A 160-character code behind a 40-character address still fits, in version 10.
    long_link = "https://friends.example.org/hearts/#join=" + CODE_160
    assert version_of(qr_matrix(long_link)) == 10


def test_too_much_data_is_refused() -> None:
    assert len(qr_matrix("x" * 2331)) == 177  # the most level M holds in byte mode
    with pytest.raises(ValueError):
        qr_matrix("x" * 2332)


def test_the_svg_is_a_labelled_image_on_a_white_square() -> None:
    svg = qr_svg(INVITE_160, title="Invite")
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    assert root.get("role") == "img"
    assert root.get("shape-rendering") == "crispEdges"
    rect = root.find(f"{SVG}rect")
    assert rect is not None
    assert (rect.get("fill"), rect.get("width"), rect.get("height")) == ("#fff", "61", "61")
    assert len(svg) < 5000  # a few kilobytes for a 53×53 symbol


@given(rows=st.integers(1, 25).flatmap(
    lambda n: st.lists(st.lists(st.booleans(), min_size=n, max_size=n), min_size=n,
                       max_size=n)))
def test_the_path_draws_any_matrix_module_for_module(rows: Matrix) -> None:
    side, dark = dark_from_svg(svg_of(rows))
    assert side == len(rows) + 8
    assert dark == dark_modules(rows)  # so the quiet zone stays light too


def test_the_svg_title_is_escaped_and_labels_the_image() -> None:
    title = 'Invite for "Ann" <seat 2> & co'
    svg = qr_svg("x", title=title)
    assert "<seat" not in svg
    assert "&quot;Ann&quot;" in svg
    root = ET.fromstring(svg)
    assert root.get("aria-label") == title
    assert root.findtext(f"{SVG}title") == title


def test_an_untitled_svg_is_still_labelled() -> None:
    root = ET.fromstring(qr_svg("x"))
    assert root.get("aria-label") == root.findtext(f"{SVG}title") == "QR code"
