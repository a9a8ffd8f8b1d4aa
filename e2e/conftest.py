"""Browser tests: the built site served on 127.0.0.1, Debian's Chromium driven by Playwright.

Every page a test opens is watched: any console error, uncaught page error or Python
traceback, and any request that leaves the page's origin, fails the test.
"""

from __future__ import annotations

import contextlib
import shutil
import sys
from collections.abc import Callable, Generator, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import ViewportSize

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from renderer_crashes import CRASHED, CrashLog, crashed  # noqa: E402
from tablepage import RECOVERED, TablePage  # noqa: E402

from tools.site.build import build  # noqa: E402
from tools.site.serve import serve_in_thread  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
DESKTOP: ViewportSize = {"width": 1280, "height": 860}
PHONE: ViewportSize = {"width": 360, "height": 740}


# Chromium's renderer crashes now and then (Playwright: "Target crashed"), while a page
# loads or plays: about one browser test in 700 on this 2-core machine, far more on some
# CI machines, where crashes came in runs of tests sharing one long-lived browser, while
# the tests with a browser of their own passed. The cause is not found. So each test module
# has a browser of its own, a crash closes it (the next test gets a new one), the test runs
# again (twice at most), and every crash is noted with the machine's state (printed at the end).
RENDERER_CRASHED = pytest.mark.flaky(reruns=2, only_rerun=list(CRASHED))
LAUNCH_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
               "--disable-component-update", "--disable-sync", "--no-first-run",
               "--disable-background-timer-throttling", "--disable-renderer-backgrounding",
               "--disable-backgrounding-occluded-windows",
               # a container's small /dev/shm runs out under a few Pyodide pages: use /tmp
               "--disable-dev-shm-usage"]


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if "e2e" in item.keywords:
            item.add_marker(RENDERER_CRASHED)
    if shutil.which(CHROMIUM) is not None:
        return
    skip = pytest.mark.skip(reason=f"{CHROMIUM} is missing (`make test` installs it)")
    for item in items:
        if "e2e" in item.keywords:
            item.add_marker(skip)


class Browsers:
    """The browser the tests of one module share: launched for the module's first test,
    closed after a renderer crash, when a test of another module asks, and at the end of
    the run."""

    def __init__(self, logs: Path) -> None:
        self.logs = logs
        self.crashes = CrashLog()
        self.browser: Any = None
        self.module = ""
        self.launches = 0

    def get(self, browser_type: Any, launch_args: dict[str, Any], module: str) -> Any:
        if self.browser is not None and (self.module != module
                                         or not self.browser.is_connected()):
            self.close()
        if self.browser is None:
            self.launches += 1
            log = self.logs / f"chromium-{self.launches}.log"
            self.crashes.follow(log)
            args = [*launch_args.get("args", []), "--enable-logging", f"--log-file={log}"]
            self.browser = browser_type.launch(**{**launch_args, "args": args})
            self.module = module
        return self.browser

    def close(self) -> None:
        if self.browser is not None:
            with contextlib.suppress(Exception):  # (a browser that crashed outright)
                self.browser.close()
            self.browser = None


BROWSERS: list[Browsers] = []


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item,
                              call: pytest.CallInfo[None]
                              ) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    report = yield
    if BROWSERS and report.when == "call":
        message = str(call.excinfo.value) if call.excinfo is not None else ""
        if crashed(message):
            BROWSERS[0].crashes.note(item.nodeid, message)
            BROWSERS[0].close()  # the next test (or this one's second run) gets a new one
        elif RECOVERED in report.capstdout:  # (a tab that crashed loading, opened again)
            BROWSERS[0].crashes.note(item.nodeid, RECOVERED)
    return report


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if BROWSERS and BROWSERS[0].crashes.notes:
        terminalreporter.section("Chromium renderer crashes")
        for note in BROWSERS[0].crashes.notes:
            terminalreporter.write_line(note)


@pytest.fixture(scope="session")
def site_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh build of the site in a private folder (other runs may rebuild _site)."""
    return build(tmp_path_factory.mktemp("site") / "site")


@pytest.fixture(scope="session")
def base_url(site_dir: Path) -> Iterator[str]:
    server, _ = serve_in_thread(site_dir)
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": LAUNCH_ARGS}


@pytest.fixture(scope="session")
def browsers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Browsers]:
    BROWSERS.append(Browsers(tmp_path_factory.mktemp("chromium-logs")))
    yield BROWSERS[0]
    BROWSERS[0].close()


@pytest.fixture
def browser(browsers: Browsers, browser_type: Any, browser_type_launch_args: dict[str, Any],
            request: pytest.FixtureRequest) -> Any:
    """The module's Chromium (a new one after a renderer crash)."""
    return browsers.get(browser_type, browser_type_launch_args, request.module.__name__)


@pytest.fixture
def open_table(browser: Any, base_url: str) -> Iterator[Callable[..., TablePage]]:
    """Open a fresh browser context on the table; checks its errors and requests after."""
    opened: list[tuple[Any, TablePage]] = []

    def opener(viewport: dict[str, int] | None = None, name: str = "desktop",
               **context_args: Any) -> TablePage:
        context = browser.new_context(viewport=viewport or DESKTOP,
                                      service_workers="block", **context_args)
        table = TablePage(context.new_page(), base_url, name)
        opened.append((context, table))
        return table

    yield opener
    problems = []
    for context, table in opened:
        problems += table.errors
        problems += [f"off-origin request: {url}" for url in table.requests
                     if not (url.startswith(base_url + "/") or url.startswith(("data:", "blob:")))]
        problems += [f"WebSocket opened: {url}" for url in table.sockets]
        context.close()
    assert not problems, "\n".join(problems)


@pytest.fixture
def table(open_table: Callable[..., TablePage]) -> TablePage:
    """The table on a desktop-sized page (not loaded yet)."""
    return open_table()
