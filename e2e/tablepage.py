"""Driving the card table from tests: waits on the page's own markers, never on time."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page

ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
INPUT_STATES = ("pass", "play", "moon", "summary", "over")
RECOVERED = "the tab crashed while loading; loading it in a new tab"


def valid_hand_scores(row: list[int]) -> bool:
    """A finished hand's points: 26 shared out, or a moon (0 and three 26s)."""
    return len(row) == 4 and (sum(row) == 26 or sorted(row) == [0, 26, 26, 26])


class TablePage:
    """One browser tab on the table, with what it logged and requested."""

    def __init__(self, page: Page, origin: str, name: str) -> None:
        self.page = page
        self.origin = origin
        self.name = name
        self.errors: list[str] = []
        self.requests: list[str] = []
        self.sockets: list[str] = []
        """WebSockets the page opened (Playwright reports them apart from requests)."""
        self.recovered = False
        """A tab crashed while loading and a new one took its place (``wait_ready``)."""
        self._watch(page)

    def _watch(self, page: Page) -> None:
        page.on("console", self._on_console)
        page.on("pageerror", lambda error: self.errors.append(f"pageerror: {error}"))
        page.on("request", lambda request: self.requests.append(request.url))
        page.on("websocket", lambda socket: self.sockets.append(socket.url))

    def _on_console(self, message: Any) -> None:
        text = message.text
        if message.type == "error" or "Traceback (most recent call last)" in text:
            self.errors.append(f"console.{message.type}: {text}")

    # --- loading -------------------------------------------------------------------------

    def goto(self, query: str = "?speed=instant") -> TablePage:
        self.page.goto(f"{self.origin}/{query}")
        self.wait_ready()
        return self

    def reload(self) -> TablePage:
        self.page.reload()
        self.wait_ready()
        return self

    def load_with_storage(self, items: dict[str, str], query: str = "?speed=instant"
                          ) -> TablePage:
        """Leave the table (it saves on the way out), set localStorage, load it again."""
        # A plain same-origin document; its browser-made favicon request is answered here.
        self.page.route("**/favicon.ico", lambda route: route.fulfill(status=204))
        self.page.goto(f"{self.origin}/pyodide/pyodide-lock.json")
        self.page.evaluate("""items => { for (const [k, v] of Object.entries(items))
                                  localStorage.setItem(k, v); }""", items)
        return self.goto(query)

    def wait_ready(self) -> None:
        self.wait_loaded(60_000)
        self.wait_input()

    def wait_loaded(self, timeout: float) -> None:
        """Wait for ``data-ready``; a tab that crashes while loading gets one new tab."""
        try:
            self.page.wait_for_selector("html[data-ready='true']", state="attached",
                                        timeout=timeout)
        except PlaywrightError as error:
            if "crashed" not in str(error) or self.recovered:
                raise
            # Chromium's renderer crashed while loading: seen a few times, only with the
            # machine's two cores loaded by other work, never twice for a page. A tab that
            # crashed can't be used again: a new one in the same context (same storage)
            # opens the same address; a second crash fails the test.
            print(f"\n{self.name}: {RECOVERED}")
            url, self.recovered = self.page.url, True
            self.page = self.page.context.new_page()
            self._watch(self.page)
            self.page.goto(url)
            self.page.wait_for_selector("html[data-ready='true']", state="attached",
                                        timeout=timeout)

    def wait_input(self, timeout: float = 60_000) -> str:
        """Wait until the table waits for the person; returns the state."""
        self.page.wait_for_function(
            "states => states.includes(document.documentElement.dataset.state)",
            arg=list(INPUT_STATES), timeout=timeout)
        return self.state()

    def state(self) -> str:
        return str(self.page.evaluate("document.documentElement.dataset.state"))

    # --- reading ---------------------------------------------------------------------------

    def _cards(self, selector: str) -> list[str]:
        """The ``data-card`` of every element ``selector`` finds, in the page's order."""
        found = self.page.eval_on_selector_all(selector, "els => els.map(e => e.dataset.card)")
        return [str(card) for card in found]

    def hand(self) -> list[str]:
        return self._cards("#hand [data-card]")

    def playable(self) -> list[str]:
        return self._cards("#hand [data-card][aria-disabled='false']")

    def unplayable(self) -> list[str]:
        return self._cards("#hand [data-card][aria-disabled='true']")

    def marked(self, css_class: str) -> list[str]:
        return self._cards(f"#hand [data-card].{css_class}")

    def trick(self) -> list[str]:
        return self._cards("#trick [data-card]")

    def scores(self) -> list[int]:
        return [int(self.page.inner_text(f'[data-seat="{seat}"] .score')) for seat in range(4)]

    def focused(self) -> str | None:
        """What has the focus: a card of the hand (its notation), else the element's id."""
        found = self.page.evaluate("document.activeElement && (document.activeElement"
                                   ".dataset.card || document.activeElement.id) || null")
        return None if found is None else str(found)

    def status(self) -> str:
        return self.page.inner_text("#status")

    def storage(self, key: str) -> Any:
        text = self.page.evaluate("key => localStorage.getItem(key)", key)
        return None if text is None else json.loads(text)

    def saved_game_json(self) -> str:
        return str(self.storage("hearts.save")["game"])

    def summary_row(self) -> list[int]:
        cells = self.page.eval_on_selector_all(
            "#summary tr.current td[data-points]", "els => els.map(e => e.dataset.points)")
        return [int(c) for c in cells]

    def clock_seconds(self) -> int:
        minutes, seconds = self.page.inner_text("#stat-time").split(":")
        return int(minutes) * 60 + int(seconds)

    def no_horizontal_overflow(self) -> bool:
        return bool(self.page.evaluate(
            "document.documentElement.scrollWidth <= document.documentElement.clientWidth"))

    # --- acting -----------------------------------------------------------------------------

    def pause_clock(self) -> None:
        """Stop the page's installed clock (``page.clock.install``) about where it is."""
        for ahead_ms in (5, 50, 500):
            try:
                self.page.clock.pause_at((self.page.evaluate("Date.now()") + ahead_ms) / 1000)
                return
            except PlaywrightError:  # "Cannot fast-forward to the past": it had moved on
                continue
        raise AssertionError("the page's clock could not be paused")

    def choose_settings(self, **choices: str) -> None:
        """Open the Settings dialog, check each ``name=value`` radio button, press Done."""
        self.page.click("#settings-button")
        self.page.wait_for_selector("#settings[open]")
        for name, value in choices.items():
            self.page.check(f'#settings input[name="{name}"][value="{value}"]')
        self.page.click("#settings button[type=submit]")
        self.page.wait_for_selector("#settings:not([open])", state="attached")

    def click_card(self, notation: str) -> None:
        # force: dimmed cards carry aria-disabled, which Playwright would refuse to click
        self.page.click(f'#hand [data-card="{notation}"]', force=True)

    def pass_cards(self, cards: list[str] | None = None) -> list[str]:
        assert self.state() == "pass"
        chosen = cards or self.hand()[:3]
        for card in chosen:
            self.click_card(card)
        self.page.click("#pass")
        self.page.wait_for_function("document.documentElement.dataset.state !== 'pass'"
                                    " || document.querySelector('#pass').hidden")
        self.wait_input()
        return chosen

    def play_one(self) -> str:
        """Play the first legal card; returns it."""
        assert self.state() == "play"
        card = self.playable()[0]
        before = len(self.hand())
        self.click_card(card)
        self.page.wait_for_function(
            "n => document.querySelectorAll('#hand [data-card]').length < n"
            " || document.documentElement.dataset.state === 'summary'"
            " || document.documentElement.dataset.state === 'over'", arg=before)
        self.wait_input()
        return card

    def play_hand(self, on_trick: Any = None) -> list[int]:
        """From the pass (or first play) to the hand summary; returns the hand's scores."""
        state = self.wait_input()
        if state == "pass":
            self.pass_cards()
        while (state := self.wait_input()) == "play":
            if on_trick is not None:
                on_trick(self)
            self.play_one()
        assert state in ("summary", "over"), state
        return self.summary_row()

    def next_hand(self) -> None:
        self.page.click("#next-hand")
        self.page.wait_for_function("document.documentElement.dataset.state !== 'summary'")
        self.wait_input()

    def screenshot(self, phase: str) -> Path:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        safe = re.sub(r"[^a-z0-9-]+", "-", f"{self.name}-{phase}".lower())
        path = ARTIFACTS / f"{safe}.png"
        self.page.screenshot(path=str(path), full_page=False)
        return path
