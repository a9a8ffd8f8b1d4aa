"""Offline, sub-path, updates, installability and the fast start, in Chromium.

These tests let the service worker run (the table's tests block it). Every request a
context makes — the page's and the worker's — must stay on the site's origin.
"""

from __future__ import annotations

import json
import struct
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import DESKTOP
from tablepage import TablePage

from tools.site.build import build
from tools.site.serve import serve_in_thread
from web import formats

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(300)]


class Site:
    """A folder served on its own port, optionally under a sub-path."""

    def __init__(self, root: Path, path: str = "") -> None:
        self.server, _ = serve_in_thread(root)
        self.origin = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.url = self.origin + path  # what TablePage.goto appends "/?..." to

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def serve() -> Iterator[Callable[..., Site]]:
    sites: list[Site] = []

    def start(root: Path, path: str = "") -> Site:
        sites.append(Site(root, path))
        return sites[-1]

    yield start
    for site in sites:
        site.stop()


@pytest.fixture
def open_pwa(browser: Any) -> Iterator[Callable[[Site], TablePage]]:
    """A fresh context with service workers allowed; checks errors and origins after."""
    opened: list[tuple[Any, TablePage, list[str], Site]] = []

    def opener(site: Site) -> TablePage:
        context = browser.new_context(viewport=DESKTOP, service_workers="allow")
        urls: list[str] = []
        context.on("request", lambda request: urls.append(request.url))
        table = TablePage(context.new_page(), site.url, "pwa")
        opened.append((context, table, urls, site))
        return table

    yield opener
    problems = []
    for context, table, urls, site in opened:
        problems += table.errors
        problems += [f"off-origin request: {url}" for url in urls
                     if not url.startswith((site.origin + "/", "data:", "blob:"))]
        context.close()
    assert not problems, "\n".join(problems)


def wait_offline_ready(table: TablePage) -> None:
    """Wait until the service worker controls the page (it has cached the whole site) and
    the page has fetched what it fetches after its table is up (a first visit's second zips,
    which come packed with brotli, not from the worker's cache: a test that rebuilds the
    site next must not pull it from under that fetch)."""
    table.page.wait_for_function("navigator.serviceWorker.controller !== null",
                                 timeout=60_000)
    table.page.evaluate("window.heartsLoadLater && window.heartsLoadLater()")


def started_from_snapshot(table: TablePage) -> bool:
    return start_kind(table) == "snapshot"


def start_kind(table: TablePage) -> str:
    return str(table.page.evaluate("document.documentElement.dataset.start"))


def test_after_one_visit_it_loads_and_plays_offline(
        open_pwa: Callable[[Site], TablePage], site_dir: Path,
        serve: Callable[..., Site]) -> None:
    table = open_pwa(serve(site_dir))
    requests: list[str] = []
    table.page.on("request", lambda r: requests.append(r.url))
    table.goto("?speed=instant&seed=5")
    # A first visit starts the ordinary way on the small stdlib, without the snapshot.
    assert start_kind(table) == "plain"
    assert not any(url.endswith(("/snapshot.bin.gz", "/python_stdlib.zip"))
                   for url in requests if "/sw.js" not in url), requests
    table.pass_cards()
    table.play_one()
    hand = table.hand()
    wait_offline_ready(table)
    failed: list[str] = []
    table.page.context.on("requestfailed", lambda request: failed.append(request.url))
    table.page.context.set_offline(True)
    before = len(requests)
    # (the hand boot.js painted from its copy of the table, before Python was up)
    table.page.add_init_script("""document.addEventListener("DOMContentLoaded", () => {
        window.heartsPainted = document.documentElement.dataset.painted !== "true" ? null
          : [...document.querySelectorAll("#hand [data-card]")].map(e => e.dataset.card); })""")
    table.page.wait_for_function("localStorage.getItem('hearts.felt') !== null")
    table.reload()
    assert table.hand() == hand  # the game resumed where it was
    assert table.page.evaluate("window.heartsPainted") == hand  # and was on the screen at once
    assert started_from_snapshot(table)  # which the worker had cached meanwhile,
    # unpacked: the page read it from the cache, without asking for the .gz
    assert not any("/snapshot.bin" in url for url in requests[before:]), requests[before:]
    row = table.play_hand()      # and a whole hand plays with no network
    assert sum(row) == 26 or sorted(row) == [0, 26, 26, 26]
    # Everything came from the cache (the worker's own update check may fail offline).
    assert [url for url in failed if not url.endswith("/sw.js")] == []


def test_under_a_sub_path_it_plays_and_survives_the_server_stopping(
        open_pwa: Callable[[Site], TablePage], site_dir: Path,
        serve: Callable[..., Site], tmp_path: Path) -> None:
    (tmp_path / "hearts").symlink_to(site_dir, target_is_directory=True)
    site = serve(tmp_path, "/hearts")
    table = open_pwa(site)
    table.goto("?speed=instant&seed=8")
    assert table.page.url.startswith(site.origin + "/hearts/")
    table.pass_cards()
    table.play_one()
    hand = table.hand()
    wait_offline_ready(table)
    assert table.page.evaluate("navigator.serviceWorker.controller.scriptURL") \
        == site.origin + "/hearts/sw.js"
    site.stop()
    table.reload()
    assert table.hand() == hand
    table.play_one()


def test_an_update_switches_version_and_keeps_the_game_and_stats(
        open_pwa: Callable[[Site], TablePage], serve: Callable[..., Site],
        tmp_path: Path) -> None:
    folder = build(tmp_path / "site", version="v1")
    table = open_pwa(serve(folder))
    stats = formats.dump_stats(formats.Stats(played=3, won=1, best=41, total_ms=600_000))
    table.load_with_storage({formats.KEY_STATS: stats}, "?speed=instant&seed=9")
    assert table.page.inner_text("#version") == "v1"
    table.pass_cards()
    table.play_one()
    table.play_one()
    game_before = table.saved_game_json()  # saved after every move
    hand = table.hand()
    wait_offline_ready(table)

    build(folder, version="v2")
    table.goto("?speed=instant")  # served by the v1 worker, which finds v2 meanwhile
    assert table.page.inner_text("#version") == "v1"
    table.page.wait_for_selector("#update-notice", timeout=60_000)
    assert "Update ready" in table.page.inner_text("#update-notice")
    table.page.click("#update-reload")
    table.wait_ready()
    assert table.page.inner_text("#version") == "v2"
    assert table.saved_game_json() == game_before
    assert table.hand() == hand
    assert table.page.inner_text("#stat-won") == "Won 1 of 3"
    assert table.page.inner_text("#stat-best") == "41"
    assert table.storage(formats.KEY_STATS)["played"] == 3
    table.play_one()
    names = table.page.evaluate("caches.keys()")
    assert len(names) == 1, names  # the old version's cache is gone


# Every state the page's new service worker goes through (window.workerStates), from the
# moment it registers. Polling getRegistration() instead can miss a worker whose install
# fails at once: a first install that fails leaves no registration at all.
WORKER_STATES = """(() => {
    window.workerStates = [];
    const register = ServiceWorkerContainer.prototype.register;
    ServiceWorkerContainer.prototype.register = function (...args) {
        return register.apply(this, args).then(reg => {
            const worker = reg.installing || reg.waiting || reg.active;
            if (worker) {
                window.workerStates.push(worker.state);
                worker.addEventListener("statechange",
                                        () => window.workerStates.push(worker.state));
            }
            return reg;
        });
    }; })();"""


def test_a_half_deployed_site_is_not_cached(
        open_pwa: Callable[[Site], TablePage], serve: Callable[..., Site],
        tmp_path: Path) -> None:
    """A file that isn't the one the build listed (a host mid-deploy) fails the install:
    nothing is cached, the page plays on, and a later visit tries again."""
    folder = build(tmp_path / "site")
    style = folder / "static" / "style.css"
    style.write_text(style.read_text(encoding="utf-8") + "\n/* newer */\n", encoding="utf-8")
    table = open_pwa(serve(folder))
    table.page.add_init_script(WORKER_STATES)
    table.goto("?speed=instant&seed=6")
    table.page.wait_for_function(
        "['redundant', 'activated'].includes((window.workerStates || []).at(-1))",
        timeout=120_000)
    state = table.page.evaluate("window.workerStates.at(-1)")
    assert state == "redundant"
    assert table.page.evaluate("caches.keys()") == []
    table.pass_cards()
    table.play_one()


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_the_manifest_is_valid_and_its_icons_load(
        open_pwa: Callable[[Site], TablePage], site_dir: Path,
        serve: Callable[..., Site]) -> None:
    site = serve(site_dir)
    table = open_pwa(site)
    table.goto()
    page = table.page
    cdp = page.context.new_cdp_session(page)
    app = cdp.send("Page.getAppManifest")
    assert app["url"] == site.url + "/manifest.webmanifest"
    assert app["errors"] == [], app["errors"]
    wait_offline_ready(table)
    errors = [e["errorId"] for e in
              cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]]
    assert [e for e in errors if e != "in-incognito"] == []  # (Playwright's contexts are)
    manifest = json.loads(app["data"])
    assert manifest["display"] == "standalone"
    assert manifest["start_url"] == manifest["scope"] == "./"
    assert manifest["theme_color"] == page.get_attribute('meta[name="theme-color"]', "content")
    purposes = {icon["purpose"] for icon in manifest["icons"]}
    assert {"any", "maskable"} <= purposes
    sizes = {icon["sizes"] for icon in manifest["icons"] if icon["type"] == "image/png"}
    assert {"192x192", "512x512"} <= sizes
    for icon in manifest["icons"]:
        response = page.request.get(f"{site.url}/{icon['src']}")
        assert response.ok, icon
        assert response.headers["content-type"] == icon["type"]
        if icon["type"] == "image/png":
            width, height = png_size(response.body())
            assert f"{width}x{height}" == icon["sizes"]
    for link in ('link[rel="icon"]', 'link[rel="apple-touch-icon"]'):
        href = page.evaluate(f"document.querySelector('{link}').href")
        assert page.request.get(href).ok, href


def test_a_damaged_snapshot_falls_back_to_the_ordinary_start(
        open_table: Callable[..., TablePage]) -> None:
    table = open_table()
    table.page.route("**/snapshot.bin.gz",
                     lambda route: route.fulfill(status=200, body=b"\x1f\x8bnot a snapshot"))
    warnings: list[str] = []
    table.page.on("console", lambda m: warnings.append(m.text) if m.type == "warning" else None)
    table.goto("?start=snapshot&speed=instant&seed=4")
    assert table.page.evaluate("document.documentElement.dataset.start") == "plain"
    assert any("without the snapshot" in text for text in warnings), warnings
    table.pass_cards()
    table.play_one()


def test_a_first_visit_whose_packed_wasm_is_damaged_starts_the_ordinary_way(
        open_table: Callable[..., TablePage]) -> None:
    """The first visit's wasm comes packed with brotli and unpacked as it arrives: a copy
    damaged on the way fails that start, and the next one plays."""
    table = open_table()

    def damaged(route: Any) -> None:
        packed = route.fetch().body()
        half = len(packed) // 2
        route.fulfill(status=200, body=packed[:half] + bytes(4096) + packed[half + 4096:])

    table.page.route("**/pyodide.asm.wasm.br", damaged)
    warnings: list[str] = []
    table.page.on("console", lambda m: warnings.append(m.text) if m.type == "warning" else None)
    table.goto("?speed=instant&seed=4")
    assert table.page.evaluate("document.documentElement.dataset.start") == "whole"
    assert any("on the whole stdlib" in text and "brotli" in text.lower() for text in warnings), \
        warnings
    table.pass_cards()
    table.play_one()


def test_the_snapshot_reseeds_random(open_table: Callable[..., TablePage]) -> None:
    """Each start from the snapshot draws different numbers (its state was frozen)."""
    draws = []
    for _ in range(2):
        table = open_table()
        table.goto("?start=snapshot&speed=instant")
        assert table.page.evaluate("document.documentElement.dataset.start") == "snapshot"
        # PyScript runs a Python script added later in the same interpreter.
        table.page.evaluate('''() => { const s = document.createElement("script");
            s.type = "py";
            s.textContent = "import js, random\\njs.window.heartsRandom = random.random()";
            document.body.append(s); }''')
        table.page.wait_for_function("window.heartsRandom !== undefined")
        draws.append(table.page.evaluate("window.heartsRandom"))
    assert draws[0] is not None and draws[0] != draws[1]



@pytest.mark.parametrize(("start", "small"), [("snapshot", "python_stdlib_start.zip"),
                                              ("plain", "python_stdlib_plain.zip.br")])
def test_a_module_left_out_of_the_start_stdlib_still_imports(
        open_table: Callable[..., TablePage], start: str, small: str) -> None:
    """Each start's small stdlib holds what the page imports; anything else comes from the
    whole stdlib, fetched once on demand, with a console warning naming it."""
    table = open_table()
    warnings: list[str] = []
    table.page.on("console", lambda m: warnings.append(m.text) if m.type == "warning" else None)
    requests: list[str] = []
    table.page.on("request", lambda r: requests.append(r.url))
    table.goto(f"?start={start}&speed=instant")
    assert start_kind(table) == start
    assert not any(url.endswith("/python_stdlib.zip") for url in requests), requests
    assert any(url.endswith("/" + small) for url in requests), requests
    # nothing the page imports was missing, no start failed
    assert not any(text.startswith("Hearts:") for text in warnings), warnings
    # colorsys fetches the whole stdlib; email is then imported from the small one (as
    # private tables' code may do later, or may have done already: forgotten first), and
    # its part email.mime, not in the small one, comes from the whole one.
    table.page.evaluate('''() => { const s = document.createElement("script");
        s.type = "py";
        s.textContent = "import js, sys, colorsys\\n"
          + "for name in [m for m in sys.modules if m.split('.')[0] == 'email']:\\n"
          + "    del sys.modules[name]\\n"
          + "import email.mime.text\\n"
          + "js.window.heartsHls = colorsys.rgb_to_hls(1, 0, 0)[0]";
        document.body.append(s); }''')
    table.page.wait_for_function("window.heartsHls !== undefined")
    assert table.page.evaluate("window.heartsHls") == 0
    assert any("colorsys is not in the start's stdlib" in text for text in warnings), warnings
    assert sum(url.endswith("/python_stdlib.zip") for url in requests) == 1
    table.pass_cards()  # and the game plays on
    table.play_one()


def test_a_first_visit_gets_the_rest_of_its_stdlib_once_the_table_is_up(
        open_table: Callable[..., TablePage]) -> None:
    """The first visit's stdlib holds what the page imports until its table is ready; the
    rest of what it may import (email, importlib.metadata, …) comes after, in
    python_stdlib_later.zip.br, and imports from there without the whole stdlib."""
    table = open_table()
    warnings: list[str] = []
    table.page.on("console", lambda m: warnings.append(m.text) if m.type == "warning" else None)
    table.goto("?start=plain&speed=instant")
    assert start_kind(table) == "plain"
    table.page.wait_for_selector("#open-table:not([disabled])", state="attached")
    later = table.page.evaluate("""() => performance.getEntriesByType("resource")
        .filter(r => r.name.endsWith("/python_stdlib_later.zip.br")).map(r => r.startTime)""")
    ready_ms = float(table.page.evaluate("document.documentElement.dataset.readyMs"))
    assert len(later) == 1 and later[0] >= ready_ms  # asked for after the table was ready
    table.page.evaluate('''() => { const s = document.createElement("script");
        s.type = "py";
        s.textContent = "import js, email.message, importlib.metadata, statistics\\n"
          + "js.window.heartsFrom = email.message.__file__";
        document.body.append(s); }''')
    table.page.wait_for_function("window.heartsFrom !== undefined")
    assert "/python_stdlib_later.zip/" in table.page.evaluate("window.heartsFrom")
    assert not any(url.endswith("/python_stdlib.zip") for url in table.requests)
    assert not any(text.startswith("Hearts:") for text in warnings), warnings
    table.pass_cards()  # and the game plays on
    table.play_one()


@pytest.mark.parametrize("start", ["snapshot", "plain"])
def test_pyscripts_own_modules_start_precompiled(
        open_table: Callable[..., TablePage], start: str) -> None:
    """PyScript writes its package at every start; the build's .pyc of it are in its
    __pycache__ first, on both starts (the snapshot start without fetching our zips, whose
    modules it has imported already). Pyodide writes no bytecode itself, so those files
    are the build's."""
    table = open_table()
    requests: list[str] = []
    table.page.on("request", lambda r: requests.append(r.url))
    table.goto(f"?start={start}&speed=instant")
    assert start_kind(table) == start
    fetched_zip = any(url.endswith("/py/hearts.zip.br") for url in requests)
    assert fetched_zip == (start != "snapshot"), requests
    # private tables: on an ordinary start from the second zip, once the table is drawn
    table.page.wait_for_selector("#open-table:not([disabled])", state="attached")
    fetched_later = any(url.endswith("/py/hearts_later.zip.br") for url in requests)
    assert fetched_later == (start != "snapshot"), requests
    table.page.evaluate('''() => { const s = document.createElement("script");
        s.type = "py";
        s.textContent = [
          "import js, os, sys, pyscript",
          "folder = os.path.dirname(pyscript.__spec__.cached)",
          "names = sorted(os.listdir(folder))",
          "heads = [open(os.path.join(folder, n), 'rb').read(8)[4:8] for n in names]",
          "js.window.heartsPyc = js.JSON.parse(__import__('json').dumps({",
          "  'names': names, 'checked': all(h == b'\\\\x03\\\\0\\\\0\\\\0' for h in heads),",
          "  'writes': not sys.dont_write_bytecode,",
          "  'left': '_pyscript_cache' in sys.modules}))",
        ].join("\\n");
        document.body.append(s); }''')
    table.page.wait_for_function("window.heartsPyc !== undefined")
    found = table.page.evaluate("window.heartsPyc")
    assert not found["writes"] and not found["left"], found
    assert "__init__." + found["names"][0].split(".", 1)[1] in found["names"], found
    assert len(found["names"]) >= 10 and found["checked"], found
