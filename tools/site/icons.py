"""The app's icons and manifest: an SVG and PNGs (192/512, maskable 192/512, Apple 180)
rendered by a small signed-distance rasteriser and PNG writer, standard library only."""

from __future__ import annotations

import hashlib
import json
import math
import os
import shutil
import struct
import zlib
from collections.abc import Callable, Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ICON_CACHE = ROOT / "node_modules" / ".cache" / "hearts-icons"
THEME = "#0f5132"      # as index.html's theme-color
FELT = (23, 100, 58)   # --felt
RED = (196, 16, 43)    # --red
CARD = (255, 255, 255)


def _png(width: int, height: int, rows: Iterable[bytes]) -> bytes:
    """An 8-bit RGBA PNG from rows of width*4 bytes."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))
    raw = b"".join(b"\0" + row for row in rows)
    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def _box(px: float, py: float, cx: float, cy: float, hw: float, hh: float, r: float) -> float:
    """Signed distance to a rounded rectangle (centre, half sizes, corner radius)."""
    qx = abs(px - cx) - hw + r
    qy = abs(py - cy) - hh + r
    outside = math.hypot(max(qx, 0.0), max(qy, 0.0))
    return outside + min(max(qx, qy), 0.0) - r


class _Heart:
    """The heart: a square turned 45° with a circle on each upper side (the classic shape)."""

    def __init__(self, cx: float, cy: float, width: float) -> None:
        d = width / (1 + math.sqrt(2))          # half diagonal of the square
        self.cx, self.d = cx, d
        self.cy = cy + (1.5 + 1 / math.sqrt(2) - 2) / 2 * d  # centred on its own height
        self.h = d / math.sqrt(2)               # half side of the square = circle radius
        self.circles = ((cx - d / 2, self.cy - d / 2), (cx + d / 2, self.cy - d / 2))

    def sd(self, px: float, py: float) -> float:
        dx, dy = px - self.cx, py - self.cy
        u, v = (dx + dy) / math.sqrt(2), (dx - dy) / math.sqrt(2)
        qx, qy = abs(u) - self.h, abs(v) - self.h
        dist = math.hypot(max(qx, 0.0), max(qy, 0.0)) + min(max(qx, qy), 0.0)
        for ox, oy in self.circles:
            dist = min(dist, math.hypot(px - ox, py - oy) - self.h)
        return dist

    def svg(self) -> str:
        s = 2 * self.h
        (lx, ly), (rx, ry) = self.circles
        return (f'<g fill="rgb{RED}"><rect x="{self.cx - self.h:.2f}" y="{self.cy - self.h:.2f}" '
                f'width="{s:.2f}" height="{s:.2f}" '
                f'transform="rotate(45 {self.cx:.2f} {self.cy:.2f})"/>'
                f'<circle cx="{lx:.2f}" cy="{ly:.2f}" r="{self.h:.2f}"/>'
                f'<circle cx="{rx:.2f}" cy="{ry:.2f}" r="{self.h:.2f}"/></g>')


def _layout(maskable: bool) -> tuple[float, float, float, float, _Heart]:
    """(background corner radius, card half width, half height, corner radius, heart), in a
    unit square. A maskable icon fills the square; its card stays in the 80 % safe circle."""
    scale = 0.78 if maskable else 1.0
    hw, hh = 0.30 * scale, 0.40 * scale
    return (0.0 if maskable else 0.2, hw, hh, 0.06 * scale, _Heart(0.5, 0.5, 0.46 * scale))


def icon_svg(maskable: bool = False) -> str:
    radius, hw, hh, r, heart = _layout(maskable)
    return ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1">'
            f'<rect width="1" height="1" rx="{radius}" fill="rgb{FELT}"/>'
            f'<rect x="{0.5 - hw:.3f}" y="{0.5 - hh:.3f}" width="{2 * hw:.3f}" '
            f'height="{2 * hh:.3f}" rx="{r:.3f}" fill="rgb{CARD}"/>'
            f"{heart.svg()}</svg>\n")


def icon_png(size: int, maskable: bool = False) -> bytes:
    """The icon as a PNG of ``size`` pixels, anti-aliased by signed distance."""
    radius, hw, hh, r, heart = _layout(maskable)
    layers: list[tuple[tuple[int, int, int], Callable[[float, float], float]]] = [
        (FELT, lambda x, y: _box(x, y, 0.5, 0.5, 0.5, 0.5, radius)),
        (CARD, lambda x, y: _box(x, y, 0.5, 0.5, hw, hh, r)),
        (RED, heart.sd),
    ]
    rows = []
    for j in range(size):
        y = (j + 0.5) / size
        row = bytearray()
        for i in range(size):
            x = (i + 0.5) / size
            color = (0.0, 0.0, 0.0)
            alpha = 0.0
            for rgb, sd in layers:
                cover = 0.5 - sd(x, y) * size
                if cover <= 0.0:
                    break  # each layer lies inside the one below it
                cover = min(cover, 1.0)
                color = tuple(c + (v - c) * cover for c, v in zip(color, rgb, strict=True))
                alpha = alpha + (1.0 - alpha) * cover
            if alpha > 0:
                row += bytes(round(c) for c in color) + bytes((round(alpha * 255),))
            else:
                row += b"\0\0\0\0"
        rows.append(bytes(row))
    return _png(size, size, rows)


ICONS = (  # file, size, maskable
    ("icon-192.png", 192, False),
    ("icon-512.png", 512, False),
    ("maskable-192.png", 192, True),
    ("maskable-512.png", 512, True),
    ("apple-touch-icon.png", 180, True),
)


def icons(out: Path) -> None:
    """Write ``out/icons/``: the SVG (also the favicon) and the PNG sizes (rendering takes
    a few seconds, so they are cached by this file's hash)."""
    folder = out / "icons"
    folder.mkdir(exist_ok=True)
    (folder / "icon.svg").write_text(icon_svg(), encoding="utf-8")
    cached = ICON_CACHE / hashlib.sha256(Path(__file__).read_bytes()).hexdigest()[:24]
    if not all((cached / name).exists() for name, _, _ in ICONS):
        cached.mkdir(parents=True, exist_ok=True)
        for name, size, maskable in ICONS:
            part = cached / f"{name}.{os.getpid()}.part"  # (builds may run side by side)
            part.write_bytes(icon_png(size, maskable))
            part.replace(cached / name)
    for name, _, _ in ICONS:
        shutil.copyfile(cached / name, folder / name)


def manifest(out: Path) -> None:
    """The web app manifest; every URL relative, so the site works under any sub-path."""
    data = {
        "name": "Hearts",
        "short_name": "Hearts",
        "description": "Hearts against three computer players. Works offline.",
        "id": "./",
        "start_url": "./",
        "scope": "./",
        "display": "standalone",
        "orientation": "any",
        "background_color": THEME,
        "theme_color": THEME,
        "categories": ["games"],
        "icons": [
            {"src": "icons/icon.svg", "sizes": "any", "type": "image/svg+xml", "purpose": "any"},
            *({"src": f"icons/{name}", "sizes": f"{size}x{size}", "type": "image/png",
               "purpose": "maskable" if maskable else "any"}
              for name, size, maskable in ICONS if name != "apple-touch-icon.png"),
        ],
    }
    (out / "manifest.webmanifest").write_text(json.dumps(data, indent=1) + "\n",
                                              encoding="utf-8")
