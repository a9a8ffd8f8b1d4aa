"""Brotli copies of the first visit's files, for the page to unpack itself.

GitHub Pages compresses with gzip only, and Chromium's ``DecompressionStream`` has no
brotli; but brotli at its best (quality 11) packs the wasm 22 % and the precompiled stdlib
27 % smaller than gzip does. So the build writes ``NAME.br`` beside them, and on a first
visit ``web/static/start.mjs`` streams those (and our zip's) through a small brotli decoder in wasm
(``static/brotli/``, from the npm package ``brotli-dec-wasm``): about 1.1 MB less to
download before the game starts, for ~0.1 MB of decoder and ~0.1 s of unpacking that
overlaps the download.

Node's zlib does the packing (quality 11 takes ~25 s for the wasm), so each packed file is
kept in a cache under the sha256 of what it packs.
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DECODER = ROOT / "node_modules" / "brotli-dec-wasm"
DECODER_FILES = ("pkg/brotli_dec_wasm.js", "pkg/brotli_dec_wasm_bg.wasm", "LICENSE-MIT.txt")
CACHE = ROOT / "node_modules" / ".cache" / "hearts-brotli"
KEEP = 16  # packed files kept in the cache (each build makes five)

PACK = """
const fs = require("fs"), zlib = require("zlib");
const [source, target] = process.argv.slice(1);
const bytes = fs.readFileSync(source);
const packed = zlib.brotliCompressSync(bytes, { params: {
  [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
  [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } });
if (!zlib.brotliDecompressSync(packed).equals(bytes)) throw new Error("round trip failed");
fs.writeFileSync(target, packed);
"""


def pack(source: Path, data: bytes | None = None) -> Path:
    """Write ``source`` (or ``data`` in its place) brotli-packed to ``source.br``, from the
    cache when it has it."""
    if data is None:
        data = source.read_bytes()
    digest = hashlib.sha256(data).hexdigest()[:32]
    cached = CACHE / f"{digest}.br"
    if not cached.exists():
        CACHE.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=CACHE, prefix="packing-") as work:
            unpacked, packed = Path(work) / "unpacked", Path(work) / "packed.br"
            unpacked.write_bytes(data)
            subprocess.run(["node", "-e", PACK, str(unpacked), str(packed)], check=True)
            packed.replace(cached)
        _prune()
    target = source.with_name(source.name + ".br")
    shutil.copyfile(cached, target)
    return target


def add_decoder(static: Path) -> None:
    """Copy the decoder (its module, its wasm and its licence) into ``static/brotli/``."""
    folder = static / "brotli"
    folder.mkdir(exist_ok=True)
    for name in DECODER_FILES:
        source = DECODER / name
        if not source.exists():
            raise SystemExit(f"{source} is missing: run `npm ci` first")
        shutil.copy2(source, folder / Path(name).name)


def _prune() -> None:
    """Keep the newest few packed files."""
    packed = sorted(CACHE.glob("*.br"), key=lambda p: p.stat().st_mtime, reverse=True)
    for old in packed[KEEP:]:
        old.unlink(missing_ok=True)
