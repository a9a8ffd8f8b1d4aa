"""QR codes for invite links: the same symbol, module for module, as an independent encoder.

The reference is ``qrcode`` (python-qrcode, a pure-Python encoder; a test dependency only,
the page never loads it). It is asked for byte mode explicitly: given a plain string it
would switch to numeric or alphanumeric mode for digits or capitals, and even
``add_data(data, optimize=0)`` only stops it from splitting the data into segments.
"""

from __future__ import annotations

import ast
import re
import sys
import xml.etree.ElementTree as ET
from fractions import Fraction
from pathlib import Path

import pytest
import qrcode
import qrcode.util
from hypothesis import given, settings
from hypothesis import strategies as st
from qrcode.constants import ERROR_CORRECT_H, ERROR_CORRECT_L, ERROR_CORRECT_M, ERROR_CORRECT_Q

from web.p2p import qr
from web.p2p.qr import qr_matrix, qr_svg

Matrix = list[list[bool]]
LEVELS = "LMQH"
REF_LEVEL = {"L": ERROR_CORRECT_L, "M": ERROR_CORRECT_M, "Q": ERROR_CORRECT_Q,
             "H": ERROR_CORRECT_H}
FORMAT_LEVEL = {0b01: "L", 0b00: "M", 0b11: "Q", 0b10: "H"}
SVG = "{http://www.w3.org/2000/svg}"
# An invite code is base64url, at most 160 characters (web/p2p/codes.py INVITE_MAX).
CODE_160 = ("AQIDpX0_k-9zYbq4Lw1eT8sVn2RcHm7Jd5uKf" * 5)[:160]
INVITE_160 = ("https://example.org/hearts/#join=" + CODE_160)[:160]


def reference(data: str | bytes, level: str, mask: int | None = None) -> tuple[int, Matrix]:
    """python-qrcode's version and modules for ``data`` in byte mode (its own mask if None)."""
    raw = data.encode() if isinstance(data, str) else data
    code = qrcode.QRCode(version=None, error_correction=REF_LEVEL[level], border=0,
                         box_size=1, mask_pattern=mask)
    code.add_data(qrcode.util.QRData(raw, mode=qrcode.util.MODE_8BIT_BYTE), optimize=0)
    code.make(fit=True)
    return code.version, [[bool(m) for m in row] for row in code.get_matrix()]


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


def standard_penalty(matrix: Matrix) -> int:
    """ISO/IEC 18004 §7.8.3, written out plainly and apart from the module's own scoring."""
    size = len(matrix)
    lines = [list(row) for row in matrix] + [[row[c] for row in matrix] for c in range(size)]
    score = 0
    for line in lines:  # N1: 3 for a run of five modules of one colour, 1 more per extra one
        run = 1
        for i in range(1, size + 1):
            if i < size and line[i] == line[i - 1]:
                run += 1
                continue
            if run >= 5:
                score += 3 + run - 5
            run = 1
    for r in range(size - 1):  # N2: 3 for each 2×2 block of one colour
        for c in range(size - 1):
            if matrix[r][c] == matrix[r][c + 1] == matrix[r + 1][c] == matrix[r + 1][c + 1]:
                score += 3

    def light(line: list[bool], i: int) -> bool:
        return not 0 <= i < size or not line[i]  # beyond the symbol is the light quiet zone

    finder = [True, False, True, True, True, False, True]
    for line in lines:  # N3: 40 for 1:1:3:1:1 with four light modules before, and after
        for i in range(size - 6):
            if line[i:i + 7] == finder:
                score += 40 * (all(light(line, i - k) for k in range(1, 5))
                               + all(light(line, i + 6 + k) for k in range(1, 5)))
    dark = Fraction(sum(map(sum, matrix)), size * size)  # N4: 10 per whole 5% off half dark
    return score + 10 * int(abs(dark * 100 - 50) / 5)


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


# Byte counts across the versions, the 8- to 16-bit count field change (9 → 10) included.
LENGTHS = [0, 1, 7, 14, 17, 25, 32, 44, 53, 61, 77, 84, 106, 130, 154, 160, 181, 213, 230,
           271, 321, 367, 425, 520, 650]
TEXTS = ["x" * n for n in LENGTHS] + [INVITE_160, "Hearts ♥ à quatre — ☕", "12345678901234",
                                     "HELLO WORLD", "ÅØ🂡" * 20, "\x00\xff"]


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("text", TEXTS, ids=lambda t: f"{len(t.encode())}B")
def test_the_symbol_is_the_reference_symbol_module_for_module(text: str, level: str) -> None:
    ours = qr_matrix(text, level)
    found_level, mask = format_info(ours)
    # Same version, same codewords, same placement: compared under the mask we chose (the
    # reference picks masks by its own variant of the penalty rules; see the next test).
    version, theirs = reference(text, level, mask)
    assert (found_level, version_of(ours)) == (level, version)
    assert ours == theirs


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("text", TEXTS[:18], ids=lambda t: f"{len(t.encode())}B")
def test_the_mask_is_the_one_the_standard_penalty_rules_pick(text: str, level: str) -> None:
    # The reference scores each mask before it draws the format information and reads
    # nothing beyond the symbol's edge, so it often settles on another mask (31 of these 72
    # cases). The standard scores the symbol as printed, format bits and the light quiet
    # zone included: of the reference's eight masked symbols, ours must be the
    # lowest-scoring one, the first such on a tie.
    ours = qr_matrix(text, level)
    scores = [standard_penalty(reference(text, level, mask)[1]) for mask in range(8)]
    assert format_info(ours)[1] == scores.index(min(scores))
    theirs = reference(text, level)[1]
    if theirs != ours:
        assert standard_penalty(ours) <= standard_penalty(theirs)


@settings(max_examples=60)
@given(data=st.one_of(st.text(max_size=120), st.binary(max_size=200)),
       level=st.sampled_from(LEVELS))
def test_any_text_or_bytes_encode_as_the_reference_does(data: str | bytes, level: str) -> None:
    ours = qr_matrix(data, level)
    assert ours == reference(data, level, format_info(ours)[1])[1]


def test_a_string_is_encoded_as_utf8() -> None:
    assert qr_matrix("Dame de ♥") == qr_matrix("Dame de ♥".encode())


@pytest.mark.parametrize(("version", "expected"), [(7, 0x07C94), (10, 0x0A4D3), (40, 0x28C69)])
def test_versions_from_7_carry_both_version_information_blocks(version: int,
                                                               expected: int) -> None:
    # The largest byte count for each version at level L, so that version is the one chosen.
    matrix = qr_matrix(b"v" * (qr._data_capacity(version, 0) - (2 if version < 10 else 3)), "L")
    size = len(matrix)
    assert version_of(matrix) == version
    cells = [(i // 3, size - 11 + i % 3) for i in range(18)]  # left of the top-right finder
    for r_c in (cells, [(c, r) for r, c in cells]):  # and its mirror, above the bottom-left
        assert sum(matrix[r][c] << i for i, (r, c) in enumerate(r_c)) == expected


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("version", [1, 2, 6, 7, 9, 10, 26, 27, 40])
def test_the_smallest_version_that_holds_the_data_is_used(version: int, level: str) -> None:
    # python-qrcode's table of data bits per version, less the 4-bit mode and count field.
    count_bits = 8 if version < 10 else 16
    most = (qrcode.util.BIT_LIMIT_TABLE[REF_LEVEL[level]][version] - 4 - count_bits) // 8
    assert version_of(qr_matrix(b"q" * most, level)) == version
    if version < 40:
        assert version_of(qr_matrix(b"q" * (most + 1), level)) == version + 1


@pytest.mark.parametrize(("level", "most"), [("L", 2953), ("M", 2331), ("Q", 1663), ("H", 1273)])
def test_too_much_data_is_refused_with_a_sentence(level: str, most: int) -> None:
    assert len(qr_matrix("x" * most, level)) == 177
    sentence = rf"^{most + 1} bytes are too many for .* \(at most {most} bytes fit\)\.$"
    with pytest.raises(ValueError, match=sentence):
        qr_matrix("x" * (most + 1), level)


def test_an_unknown_level_is_refused() -> None:
    with pytest.raises(ValueError, match="Unknown error-correction level 'X'"):
        qr_matrix("hi", "X")


def test_a_160_character_invite_link_fits_in_version_9_at_level_m() -> None:
    assert len(INVITE_160) == 160
    matrix = qr_matrix(INVITE_160)
    assert (version_of(matrix), len(matrix)) == (9, 53)
    # A 160-character code behind a 40-character address still fits, in version 10.
    long_link = "https://friends.example.org/hearts/#join=" + CODE_160
    assert version_of(qr_matrix(long_link)) == 10


def test_the_svg_draws_the_matrix_inside_a_four_module_quiet_zone() -> None:
    svg = qr_svg(INVITE_160, title="Invite")
    matrix = qr_matrix(INVITE_160)
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    assert root.get("role") == "img"
    assert root.get("shape-rendering") == "crispEdges"
    rect = root.find(f"{SVG}rect")
    assert rect is not None
    assert rect.get("fill") == "#fff"
    side, dark = dark_from_svg(svg)
    assert side == len(matrix) + 8
    assert dark == {(r + 4, c + 4) for r, row in enumerate(matrix)
                    for c, m in enumerate(row) if m}
    assert len(svg) < 5000  # a few kilobytes for a 53×53 symbol


@given(data=st.text(max_size=80), level=st.sampled_from(LEVELS))
def test_the_svg_path_always_reconstructs_the_matrix(data: str, level: str) -> None:
    matrix = qr_matrix(data, level)
    assert dark_from_svg(qr_svg(data, level))[1] == {
        (r + 4, c + 4) for r, row in enumerate(matrix) for c, m in enumerate(row) if m}


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


def test_the_module_uses_the_standard_library_only() -> None:
    # It runs on Pyodide, where nothing else is installed.
    source = Path(qr.__file__).read_text(encoding="utf-8")
    imported = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            imported |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            imported.add(node.module.split(".")[0])
    assert imported <= sys.stdlib_module_names | {"__future__"}
