"""The version label in the page's footer: given, or a hash of the site's contents (so a
rebuild that changes nothing changes neither the label nor the worker's cache). It goes
into the page's head too (``<meta name="hearts-version">``), where web/static/boot.js reads
it: a copy of the table it saved under another version is not painted."""

from __future__ import annotations

import hashlib
import html
from pathlib import Path

from tools.site.offline import site_files

MARK = '<span id="version">dev</span>'
HEAD_MARK = '<meta name="hearts-version" content="dev">'


def label(site: Path) -> str:
    """Eight hex digits of the hash of every site file's path and bytes."""
    h = hashlib.sha256()
    for path in site_files(site):
        h.update(path.relative_to(site).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()[:8]


def stamp(site: Path, version: str | None = None) -> str:
    """Write the label into ``site/index.html`` (``version``, else :func:`label`)."""
    page = site / "index.html"
    text = page.read_text(encoding="utf-8")
    version = version or label(site)
    stamped = text.replace(MARK, f'<span id="version">{html.escape(version)}</span>').replace(
        HEAD_MARK, f'<meta name="hearts-version" content="{html.escape(version)}">')
    if stamped != text:
        page.write_text(stamped, encoding="utf-8")
    return version
