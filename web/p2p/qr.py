"""QR codes (ISO/IEC 18004) for invite links, drawn in pure Python.

A host shows a friend's ``#join=`` invite link as a QR code so a phone can scan it off the
screen. It is drawn here, with the standard library only, because the page runs on Pyodide
and must not send invite links (which carry connection details) to any third-party
service or pull in a package for one picture.

What it covers: byte mode (a ``str`` is encoded as UTF-8 without an ECI header: phone
readers recognise UTF-8, and invite links are ASCII anyway), error-correction levels L, M,
Q and H (M by default), and versions 1–40, picking the smallest that fits. The mask is
chosen by the standard's penalty rules. A 160-character invite link needs version 9
(53×53 modules) at level M.

- ``qr_matrix(data)``: the modules as rows of booleans (True = dark), no quiet zone;
- ``qr_svg(data, title=...)``: a small inline ``<svg>`` with the quiet zone.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from itertools import pairwise

__all__ = ["qr_matrix", "qr_svg"]

_LEVEL_BITS = {"L": 0b01, "M": 0b00, "Q": 0b11, "H": 0b10}
_LEVEL_INDEX = {"L": 0, "M": 1, "Q": 2, "H": 3}

# ISO/IEC 18004 Table 9, per version 1–40 (index 0 unused): EC codewords in each block, and
# the number of blocks, for levels L, M, Q, H. Everything else follows from the version.
_EC_PER_BLOCK = (
    (0, 7, 10, 15, 20, 26, 18, 20, 24, 30, 18, 20, 24, 26, 30, 22, 24, 28, 30, 28, 28, 28,
     28, 30, 30, 26, 28, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30),
    (0, 10, 16, 26, 18, 24, 16, 18, 22, 22, 26, 30, 22, 22, 24, 24, 28, 28, 26, 26, 26, 26,
     28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28),
    (0, 13, 22, 18, 26, 18, 24, 18, 22, 20, 24, 28, 26, 24, 20, 30, 24, 28, 28, 26, 30, 28,
     30, 30, 30, 30, 28, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30),
    (0, 17, 28, 22, 16, 22, 28, 26, 26, 24, 28, 24, 28, 22, 24, 24, 30, 28, 28, 26, 28, 30,
     24, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30),
)
_BLOCKS = (
    (0, 1, 1, 1, 1, 1, 2, 2, 2, 2, 4, 4, 4, 4, 4, 6, 6, 6, 6, 7, 8, 8, 9, 9, 10, 12, 12, 12,
     13, 14, 15, 16, 17, 18, 19, 19, 20, 21, 22, 24, 25),
    (0, 1, 1, 1, 2, 2, 4, 4, 4, 5, 5, 5, 8, 9, 9, 10, 10, 11, 13, 14, 16, 17, 17, 18, 20, 21,
     23, 25, 26, 28, 29, 31, 33, 35, 37, 38, 40, 43, 45, 47, 49),
    (0, 1, 1, 2, 2, 4, 4, 6, 6, 8, 8, 8, 10, 12, 16, 12, 17, 16, 18, 21, 20, 23, 23, 25, 27,
     29, 34, 34, 35, 38, 40, 43, 45, 48, 51, 53, 56, 59, 62, 65, 68),
    (0, 1, 1, 2, 4, 4, 4, 5, 6, 8, 8, 11, 11, 16, 16, 18, 16, 19, 21, 25, 25, 25, 34, 30, 32,
     35, 37, 40, 42, 45, 48, 51, 54, 57, 60, 63, 66, 70, 74, 77, 81),
)


def _gf_tables() -> tuple[list[int], list[int]]:
    """GF(256) for x^8+x^4+x^3+x^2+1: powers of α and their logs, so multiplying is adding.

    The powers are stored twice over so that a sum of two logs needs no modulo.
    """
    exp, log, x = [0] * 510, [0] * 256, 1
    for i in range(255):
        exp[i] = exp[i + 255] = x
        log[x] = i
        x = (x << 1) ^ (0x11D if x & 0x80 else 0)
    return exp, log


_EXP, _LOG = _gf_tables()

# Penalty rule N3: dark-light-dark×3-light-dark with four light modules on one side looks
# like a finder pattern to a reader. A lookahead so that overlapping matches all count.
_FINDER_LIKE = re.compile("(?=00001011101|10111010000)")
_RUN = re.compile("0{5,}|1{5,}")
_MASKS: tuple[Callable[[int, int], bool], ...] = (  # Table 10, r = row, c = column
    lambda r, c: (r + c) % 2 == 0,
    lambda r, c: r % 2 == 0,
    lambda r, c: c % 3 == 0,
    lambda r, c: (r + c) % 3 == 0,
    lambda r, c: (r // 2 + c // 3) % 2 == 0,
    lambda r, c: r * c % 2 + r * c % 3 == 0,
    lambda r, c: (r * c % 2 + r * c % 3) % 2 == 0,
    lambda r, c: ((r + c) % 2 + r * c % 3) % 2 == 0,
)


def _raw_codewords(version: int) -> int:
    """All codewords (data + EC) a version holds: its modules minus the function patterns."""
    bits = (16 * version + 128) * version + 64
    if version >= 2:
        n = version // 7 + 2
        bits -= (25 * n - 10) * n - 55
        if version >= 7:
            bits -= 36  # the two version information blocks
    return bits // 8  # remainder bits are not codewords


def _data_capacity(version: int, level: int) -> int:
    """Data codewords of a version at a level."""
    return _raw_codewords(version) - _EC_PER_BLOCK[level][version] * _BLOCKS[level][version]


def _alignment_positions(version: int) -> list[int]:
    """Row/column centres of the alignment patterns (Annex E), evenly spaced from the end."""
    if version == 1:
        return []
    n = version // 7 + 2
    step = 26 if version == 32 else (version * 4 + n * 2 + 1) // (n * 2 - 2) * 2
    size = version * 4 + 17
    return [6] + [size - 7 - i * step for i in range(n - 2, -1, -1)]


def _rs_remainder(data: list[int], degree: int) -> list[int]:
    """Reed–Solomon EC codewords: ``data`` times x^degree modulo the generator polynomial."""
    gen = [1]  # product of (x - α^i), i < degree; highest coefficient first
    for i in range(degree):
        shifted = zip([*gen, 0], [0, *gen], strict=True)  # gen·x + gen·α^i
        gen = [a ^ (_EXP[_LOG[b] + i] if b else 0) for a, b in shifted]
    rem = [0] * degree
    for byte in data:
        factor = byte ^ rem[0]
        rem = [*rem[1:], 0]
        if factor:
            for j in range(degree):
                if gen[j + 1]:
                    rem[j] ^= _EXP[_LOG[gen[j + 1]] + _LOG[factor]]
    return rem


def _codewords(data: bytes, version: int, level: int) -> list[int]:
    """The final codeword sequence: header, data and padding, split in blocks, EC, interleaved."""
    bits = [0, 1, 0, 0]  # byte mode
    count_bits = 8 if version <= 9 else 16
    bits += [(len(data) >> i) & 1 for i in range(count_bits - 1, -1, -1)]
    bits += [(b >> i) & 1 for b in data for i in range(7, -1, -1)]
    capacity = _data_capacity(version, level)
    bits += [0] * min(4, capacity * 8 - len(bits))  # terminator, cut short if the symbol is full
    bits += [0] * (-len(bits) % 8)
    words = [int("".join(map(str, bits[i:i + 8])), 2) for i in range(0, len(bits), 8)]
    words += [0xEC, 0x11] * ((capacity - len(words)) // 2) + [0xEC] * ((capacity - len(words)) % 2)

    # Blocks: the later ("long") ones carry one data codeword more than the first ones.
    n_blocks, ec_len = _BLOCKS[level][version], _EC_PER_BLOCK[level][version]
    n_short = n_blocks - capacity % n_blocks
    short_len = capacity // n_blocks
    blocks: list[list[int]] = []
    pos = 0
    for b in range(n_blocks):
        length = short_len + (b >= n_short)
        blocks.append(words[pos:pos + length])
        pos += length
    out = [blk[i] for i in range(short_len + 1) for blk in blocks if i < len(blk)]
    ecs = [_rs_remainder(blk, ec_len) for blk in blocks]
    return out + [ec[i] for i in range(ec_len) for ec in ecs]


def _bch(value: int, poly: int, poly_bits: int) -> int:
    """``value`` followed by its BCH check bits for generator ``poly``."""
    rem = value << (poly_bits - 1)
    for shift in range(rem.bit_length() - poly_bits, -1, -1):
        if rem >> (shift + poly_bits - 1) & 1:
            rem ^= poly << shift
    return value << (poly_bits - 1) | rem


def _draw_format(grid: list[list[bool]], level: str, mask: int) -> None:
    """Both copies of the 15-bit format information, plus the always-dark module."""
    size = len(grid)
    bits = _bch(_LEVEL_BITS[level] << 3 | mask, 0x537, 11) ^ 0x5412
    bit = [bool(bits >> i & 1) for i in range(15)]
    # Copy 1 wraps round the top-left finder: down column 8, then left along row 8.
    for i, (r, c) in enumerate([*((i, 8) for i in range(6)), (7, 8), (8, 8), (8, 7),
                                *((8, 14 - i) for i in range(9, 15))]):
        grid[r][c] = bit[i]
    # Copy 2 is split: bits 0–7 under the top-right finder, 8–14 beside the bottom-left one.
    for i in range(8):
        grid[8][size - 1 - i] = bit[i]
    for i in range(8, 15):
        grid[size - 15 + i][8] = bit[i]
    grid[size - 8][8] = True


def _penalty(grid: list[list[bool]]) -> int:
    """Score a masked symbol by the four penalty rules of ISO/IEC 18004 §7.8.3 (lower wins)."""
    rows = ["".join("1" if m else "0" for m in row) for row in grid]
    lines = rows + ["".join(col) for col in zip(*rows, strict=True)]
    score = sum(len(m.group()) - 2 for line in lines for m in _RUN.finditer(line))  # N1 = 3
    score += 3 * sum(  # N2: each 2×2 block of one colour
        1 for a, b in pairwise(rows) for i in range(len(a) - 1)
        if a[i] == a[i + 1] == b[i] == b[i + 1])
    # N3: the quiet zone counts as light, so patterns at the symbol's edge are found too.
    score += 40 * sum(len(_FINDER_LIKE.findall(f"0000{line}0000")) for line in lines)
    dark = sum(row.count("1") for row in rows)
    total = len(rows) ** 2
    return score + 10 * (abs(20 * dark - 10 * total) // total)  # N4: each 5% off half dark


def qr_matrix(data: str | bytes, level: str = "M") -> list[list[bool]]:
    """The QR code for ``data`` as rows of modules (True = dark), without the quiet zone.

    Uses the smallest version that holds the data at ``level`` ("L", "M", "Q" or "H").
    Raises ValueError if the level is unknown or the data is too long for any version.
    """
    if level not in _LEVEL_BITS:
        raise ValueError(f"Unknown error-correction level {level!r}; use L, M, Q or H.")
    raw = data.encode("utf-8") if isinstance(data, str) else bytes(data)
    li = _LEVEL_INDEX[level]
    for version in range(1, 41):
        header = 4 + (8 if version <= 9 else 16)
        if header + 8 * len(raw) <= 8 * _data_capacity(version, li):
            break
    else:
        most = _data_capacity(40, li) - 3  # the 20-bit mode + count header takes 2.5 bytes
        raise ValueError(f"{len(raw)} bytes are too many for a QR code at level {level} "
                         f"(at most {most} bytes fit).")

    size = version * 4 + 17
    grid = [[False] * size for _ in range(size)]
    function = [[False] * size for _ in range(size)]  # modules the data must flow around

    def put(r: int, c: int, dark: bool) -> None:
        grid[r][c], function[r][c] = dark, True

    for fr, fc in ((3, 3), (3, size - 4), (size - 4, 3)):  # finders with light separators
        for r in range(fr - 4, fr + 5):
            for c in range(fc - 4, fc + 5):
                if 0 <= r < size and 0 <= c < size:
                    put(r, c, max(abs(r - fr), abs(c - fc)) not in (2, 4))
    centres = _alignment_positions(version)
    for ar in centres:
        for ac in centres:
            if function[ar][ac]:  # would sit on a finder (timing is not drawn yet)
                continue
            for r in range(ar - 2, ar + 3):
                for c in range(ac - 2, ac + 3):
                    put(r, c, max(abs(r - ar), abs(c - ac)) != 1)
    for i in range(8, size - 8):  # timing patterns; agree with any alignment pattern they cross
        put(6, i, i % 2 == 0)
        put(i, 6, i % 2 == 0)
    # Reserve the format areas; each mask candidate below writes its own format bits.
    for r in range(9):
        function[r][8] = function[8][r] = True
    for i in range(8):
        function[8][size - 1 - i] = function[size - 1 - i][8] = True
    if version >= 7:  # two 6×3 copies of the 18-bit version information
        bits = _bch(version, 0x1F25, 13)
        for i in range(18):
            a, b = size - 11 + i % 3, i // 3
            put(b, a, bool(bits >> i & 1))
            put(a, b, bool(bits >> i & 1))

    # Data flows up and down in two-module columns from the bottom right, skipping column 6.
    words = _codewords(raw, version, li)
    n_bits, i = len(words) * 8, 0
    for right in range(size - 1, 0, -2):
        if right <= 6:  # column 6 is the vertical timing pattern: shift pairs left of it
            right -= 1
        upward = (right + 1) & 2 == 0
        for vert in range(size):
            r = size - 1 - vert if upward else vert
            for c in (right, right - 1):
                if not function[r][c] and i < n_bits:
                    grid[r][c] = bool(words[i >> 3] >> (7 - (i & 7)) & 1)
                    i += 1

    best: list[list[bool]] = []
    best_score = -1
    for mask, flip in enumerate(_MASKS):
        candidate = [[grid[r][c] ^ (not function[r][c] and flip(r, c)) for c in range(size)]
                     for r in range(size)]
        _draw_format(candidate, level, mask)  # scored as printed, format bits included
        score = _penalty(candidate)
        if best_score < 0 or score < best_score:
            best, best_score = candidate, score
    return best


def qr_svg(data: str | bytes, level: str = "M", *, title: str = "") -> str:
    """``data`` as a compact inline SVG QR code with a 4-module quiet zone.

    Each run of dark modules in a row is one ``h`` segment of a single stroked path, each
    row's later runs reached by a relative move, which keeps an invite link to ~4 kB.
    ``title`` (HTML-escaped) labels it for screen readers; without one, "QR code".
    """
    matrix = qr_matrix(data, level)
    side = len(matrix) + 8
    label = html.escape(title or "QR code", quote=True)
    d = []
    for r, row in enumerate(matrix):
        end = -1  # where the pen stopped in this row; -1 before the first run
        for m in re.finditer("1+", "".join("1" if x else "0" for x in row)):
            # A stroke 1 wide along the row's centre line covers exactly its modules.
            move = f"M{m.start() + 4} {r + 4}.5" if end < 0 else f"m{m.start() - end} 0"
            d.append(f"{move}h{m.end() - m.start()}")
            end = m.end()
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {side} {side}" role="img" '
            f'aria-label="{label}" shape-rendering="crispEdges"><title>{label}</title>'
            f'<rect width="{side}" height="{side}" fill="#fff"/>'
            f'<path stroke="#000" d="{"".join(d)}"/></svg>')
