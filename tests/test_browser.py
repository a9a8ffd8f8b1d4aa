"""web.browser.Browser's timing helpers, with a stand-in window (no page)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from web.browser import Browser


class Pending:
    """What window.heartsLoadLater() returns: a promise, settled by the test."""

    def __init__(self) -> None:
        self.on_done: Callable[..., Any] | None = None
        self.on_failed: Callable[..., Any] | None = None

    def then(self, on_done: Callable[..., Any], on_failed: Callable[..., Any]) -> None:
        self.on_done, self.on_failed = on_done, on_failed


class Window:
    def __init__(self, pending: Pending | None = None) -> None:
        if pending is not None:
            self.heartsLoadLater = lambda: pending


def make_browser(window: Window, shown: list[str]) -> Browser:
    browser = Browser(document=None, window=window, create_proxy=lambda f: f, null=None)

    def guard(handler: Callable[..., Any], where: str) -> Callable[..., Any]:
        def guarded(*args: Any) -> None:
            try:
                handler(*args)
            except Exception as error:
                shown.append(f"{where}: {error}")
        return guarded

    browser.guard = guard
    return browser


def test_the_later_code_runs_once_loaded() -> None:
    pending, ran, shown = Pending(), list[int](), list[str]()
    make_browser(Window(pending), shown).after_later_code(lambda: ran.append(1), "tables")
    assert ran == []  # not before the zip is on sys.path
    assert pending.on_done is not None
    pending.on_done(None)
    assert ran == [1] and shown == []


def test_a_page_without_the_loader_runs_it_at_once() -> None:
    ran: list[int] = []
    make_browser(Window(), []).after_later_code(lambda: ran.append(1), "tables")
    assert ran == [1]


def test_a_failed_load_is_shown_and_the_code_never_runs() -> None:
    pending, ran, shown = Pending(), list[int](), list[str]()
    make_browser(Window(pending), shown).after_later_code(lambda: ran.append(1), "tables")
    assert pending.on_failed is not None
    pending.on_failed("HTTP 404")
    assert ran == []
    assert shown == ["tables: the page's code for private tables didn't load: HTTP 404"]


def test_each_draw_tells_the_start_script_what_was_drawn() -> None:
    """web/static/boot.js keeps a copy of the felt (or forgets it) when told of a draw; a
    page without it (pytest, an old page) is left alone."""
    told: list[tuple[str, bool]] = []
    window = Window()
    window.heartsKeepTable = lambda state, local: told.append((state, local))  # type: ignore[attr-defined]
    make_browser(window, []).keep_drawn("play", True)
    make_browser(window, []).keep_drawn("over", False)
    assert told == [("play", True), ("over", False)]
    make_browser(Window(), []).keep_drawn("play", True)  # no start script: nothing happens
