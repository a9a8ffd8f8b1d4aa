"""The version label in the page's footer: given, or a hash of the site's contents (so a
rebuild that changes nothing changes neither the label nor the worker's cache)."""

from __future__ import annotations

import hashlib
from pathlib import Path

from tools.site.offline import site_files

MARK = '<span id="version">dev</span>'


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
    if MARK in text:
        page.write_text(text.replace(MARK, f'<span id="version">{version}</span>'),
                        encoding="utf-8")
    return version
