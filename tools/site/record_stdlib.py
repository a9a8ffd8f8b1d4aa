"""Record which stdlib modules the page imports, for the small stdlibs of its starts.

``python -m tools.site.record_stdlib --first SITE``: the modules a page started the ordinary
way (a first visit) has imported once its table is ready, before private tables' code
(held back), written to ``tools/site/stdlib_first.txt``: what ``python_stdlib_plain.zip``
holds (tools/site/runtime.py). Re-record after the page imports more at start (a module
missing there still imports, a little later: see tools/site/stdlib_finder.py).

A pytest plugin: ``.venv/bin/pytest -p tools.site.record_stdlib e2e/ ...`` — before any
browser context of the tests closes, each of its pages that has Python running is asked for
``sys.modules``; the names of the stdlib modules seen (union over every page and test) are
written to ``$HEARTS_RECORD_STDLIB`` (default ``stdlib-used.txt``), one a line. Paste the
ones the snapshot lacks into ``START_STDLIB_EXTRA`` of tools/site/runtime.py (or keep the
file's list whole: modules already in the snapshot are left out of the small stdlib anyway).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

from playwright.sync_api import BrowserContext, sync_playwright

ASK = """async () => {
  if (document.documentElement.dataset.ready !== "true") return null;
  window.__stdlibUsed = undefined;
  const s = document.createElement("script");
  s.type = "py";
  s.textContent = "import js, sys\\n" +
    "js.window.__stdlibUsed = ' '.join(sorted(n for n, m in list(sys.modules.items()) " +
    "if '/lib/python' in (getattr(m, '__file__', None) or '')))";
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


FIRST = Path(__file__).resolve().parent / "stdlib_first.txt"


def record_first(site: Path) -> list[str]:
    """The stdlib modules in sys.modules of ``site``'s page at data-ready, on a first visit."""
    from tools.site.serve import serve_in_thread

    server, _ = serve_in_thread(site)
    url = f"http://127.0.0.1:{server.server_address[1]}/?speed=instant&start=plain"
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium",
                                        args=["--no-sandbox", "--disable-gpu"])
            page = browser.new_context(service_workers="block").new_page()
            page.route("**/py/hearts_later.zip.*", lambda route: None)  # (never answered)
            page.goto(url)
            page.wait_for_selector("html[data-ready='true']", state="attached",
                                   timeout=120_000)
            names = page.evaluate(ASK)
            browser.close()
    finally:
        server.shutdown()
    if not names:
        raise SystemExit("the page's Python didn't answer")
    return sorted(names.split())


def main(argv: list[str]) -> None:
    if len(argv) != 3 or argv[1] != "--first":
        raise SystemExit("usage: python -m tools.site.record_stdlib --first SITE_DIR")
    names = record_first(Path(argv[2]))
    FIRST.write_text("".join(f"{name}\n" for name in names), encoding="utf-8")
    print(f"{len(names)} modules written to {FIRST}")


if __name__ == "__main__":
    main(sys.argv)
