"""Record which stdlib modules the page imports, for the snapshot start's small stdlib.

A pytest plugin: ``.venv/bin/pytest -p tools.site.record_stdlib e2e/ ...`` — before any
browser context of the tests closes, each of its pages that has Python running is asked for
``sys.modules``; the names of the stdlib modules seen (union over every page and test) are
written to ``$HEARTS_RECORD_STDLIB`` (default ``stdlib-used.txt``), one a line. Paste the
ones the snapshot lacks into ``START_STDLIB_EXTRA`` of tools/site/runtime.py (or keep the
file's list whole: modules already in the snapshot are left out of the small stdlib anyway).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from playwright.sync_api import BrowserContext

ASK = """async () => {
  if (document.documentElement.dataset.ready !== "true") return null;
  window.__stdlibUsed = undefined;
  const s = document.createElement("script");
  s.type = "py";
  s.textContent = "import js, sys\\n" +
    "js.window.__stdlibUsed = ' '.join(sorted(n for n, m in list(sys.modules.items()) " +
    "if '/lib/python3' in (getattr(m, '__file__', None) or '')))";
  document.body.append(s);
  for (let i = 0; i < 100 && window.__stdlibUsed === undefined; i++)
    await new Promise(r => setTimeout(r, 50));
  return window.__stdlibUsed ?? null;
}"""

SEEN: set[str] = set()
_close = BrowserContext.close


def _recording_close(self: BrowserContext, *args: Any, **kwargs: Any) -> None:
    for page in self.pages:
        try:
            names = page.evaluate(ASK)
        except Exception:  # a page that is gone or never started Python
            continue
        if names:
            SEEN.update(names.split())
    _close(self, *args, **kwargs)


BrowserContext.close = _recording_close  # type: ignore[method-assign]


def pytest_sessionfinish() -> None:
    out = Path(os.environ.get("HEARTS_RECORD_STDLIB", "stdlib-used.txt"))
    old = set(out.read_text().split()) if out.exists() else set()
    out.write_text("".join(f"{name}\n" for name in sorted(SEEN | old)))
