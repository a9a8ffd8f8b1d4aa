"""Errors are visible, never silent.

An exception that escapes the page's Python (an event handler, the computers' turn loop,
the clock, start-up) is caught here, logged to the console with the position, and shown
as a friendly dialog: what happened in plain words, a "Copy details" button (the position's
text form and the traceback, for a bug report), "New game", and "Close" to carry on.

The report is also stored (``hearts.crash``) together with the last position known to be
fine, so the next visit can offer to go back to it.

While the error dialog is open the table takes no input: whatever state the error left
behind can't be played into.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import json
import traceback
from collections.abc import Callable
from typing import Any

from web import formats, words
from web.browser import Browser, DomEvent, Element

__all__ = ["Reporter", "report_text"]

TITLE = "Something went wrong"


def report_text(error: BaseException, position: str, version: str = "", where: str = ""
                ) -> str:
    """The details a bug report needs: where, the position's text form, the traceback."""
    trace = "".join(traceback.format_exception(type(error), error, error.__traceback__))
    lines = ["Hearts error report"]
    if version:
        lines.append(f"version: {version}")
    if where:
        lines.append(f"while: {where}")
    lines.append(f"position: {position or '(no game yet)'}")
    return "\n".join(lines) + "\n\n" + trace


def _game_of(save: str | None) -> object:
    """The stored game (and the page's state around it) of a save, without the clock."""
    if save is None or formats._too_deep(save):
        return save
    try:
        data = json.loads(save)
    except ValueError:
        return save
    if isinstance(data, dict):
        data.pop("clock_ms", None)
    return data


class Reporter:
    """Catches the page's unexpected exceptions and shows them; guards input meanwhile."""

    def __init__(self, browser: Browser) -> None:
        self.browser = browser
        self.document = browser.document
        self.window = browser.window
        self.errors = 0
        self.details = ""
        self.good: str | None = None
        """The save (JSON) of the last position reached without an error."""
        self._position: Callable[[], str] = lambda: ""
        self._snapshot: Callable[[], str] = lambda: ""
        self._new_game: Callable[[], None] | None = None
        self._resume: Callable[[], None] | None = None
        self._storage: Any = None
        self._panel: Element | None = None
        self._banner: Element | None = None
        self._tasks: set[asyncio.Future[None]] = set()

    # --- wiring ----------------------------------------------------------------------------

    def use(self, storage: Any) -> None:
        """Where to keep the report: the page's storage (``get``/``set``/``remove``/
        ``freeze``; failures are its business). Until ``connect``, the position is the
        stored save's text."""
        self._storage = storage
        self._position = lambda: str(storage.get(formats.KEY_SAVE))[:2000]

    def connect(self, *, position: Callable[[], str], snapshot: Callable[[], str],
                new_game: Callable[[], None], resume: Callable[[], None] | None = None
                ) -> None:
        """Tell the reporter about the running table; offer the way back if the last
        visit ended in an error. ``resume`` lets the table go on after Close (a
        computer's turn that was cut short by the error is due again)."""
        self._position, self._snapshot, self._new_game = position, snapshot, new_game
        self._resume = resume
        stored = self._read(formats.KEY_CRASH)
        crash = formats.load_crash(stored)
        if crash is None:
            if stored is not None:
                self._remove(formats.KEY_CRASH)
        elif not self.errors:
            self._offer(crash, self._read(formats.KEY_SAVE))
        self.mark_good()

    def _read(self, key: str) -> str | None:
        if self._storage is None:
            return None
        value = self._storage.get(key)
        return value if isinstance(value, str) else None

    def _write(self, key: str, value: str) -> bool:
        return self._storage is not None and bool(self._storage.set(key, value))

    def _remove(self, key: str) -> None:
        if self._storage is not None:
            self._storage.remove(key)

    @property
    def showing(self) -> bool:
        """True while the error dialog is open: the table ignores input."""
        return self._panel is not None and bool(self._panel.open)

    def guard(self, handler: Callable[..., Any], *, mark: bool = True,
              where: str = "") -> Callable[..., None]:
        """``handler`` made safe for an event listener: input is ignored while the error
        dialog is open; an exception is reported instead of escaping to the console."""
        label = where or getattr(handler, "__name__", "an event")

        def guarded(*args: Any) -> None:
            if self.showing:
                return
            try:
                handler(*args)
            except Exception as error:
                self.report(error, label)
                return
            if mark:
                self.mark_good()

        return guarded

    def mark_good(self) -> None:
        """Remember the current position as fine (called after work ends without error)."""
        if self.errors:
            return  # after an error nothing is known to be fine until the person chooses
        with contextlib.suppress(Exception):
            self.good = self._snapshot() or self.good

    # --- reporting ---------------------------------------------------------------------------

    def report(self, error: BaseException, where: str = "") -> None:
        """Log, store and show ``error``. Never raises."""
        self.errors += 1
        try:
            try:
                position = self._position()
            except Exception as inner:
                position = f"(unavailable: {inner!r})"
            version = ""
            label = self.browser.by_id("version")
            if label is not None:
                version = str(label.textContent)
            text = report_text(error, position, version, where)
            if self.errors == 1:
                self.details = text
            else:
                self.details += f"\n--- error {self.errors} ---\n{text}"
            self.window.console.error(text)
            crash = formats.Crash(self.details, self.good)
            self._write(formats.KEY_CRASH, formats.dump_crash(crash))
            self._show()
        except Exception as failure:  # the reporter itself failed: the console is all we have
            with contextlib.suppress(Exception):
                self.window.console.error(f"Hearts: error while reporting an error: {failure!r}"
                                          f"\n{''.join(traceback.format_exception(error))}")

    def _show(self) -> None:
        panel = self._panel
        if panel is None:
            panel = self._panel = self.document.createElement("dialog")
            panel.id = "error-panel"
            panel.className = "error-panel"
            panel.setAttribute("aria-labelledby", "error-title")
            panel.setAttribute("aria-describedby", "error-explain")
            panel.innerHTML = (
                f'<h2 id="error-title">{TITLE}</h2>'
                f'<p id="error-explain">{html.escape(words.CRASH_NOW)}</p>'
                '<div class="error-actions">'
                '<button type="button" id="error-copy">Copy details</button>'
                '<button type="button" id="error-new" class="primary">New game</button>'
                '<button type="button" id="error-close">Close</button></div>'
                '<p id="error-copied" class="error-copied" role="status"></p>'
                '<details><summary>Details</summary>'
                '<textarea id="error-details" readonly rows="8" spellcheck="false" '
                'aria-label="Error details"></textarea></details>')
            self.document.body.appendChild(panel)
            self._on(panel, "#error-copy", lambda: self.copy(self.details, "#error-copied",
                                                             "#error-details"))
            self._on(panel, "#error-new", self._start_over)
            self._on(panel, "#error-close", self._close_and_resume)
        self.browser.one("#error-details", panel).value = self.details
        self.browser.one("#error-copied", panel).textContent = ""
        self.document.documentElement.dataset.error = "true"
        if not panel.open:
            panel.showModal()
            self.browser.one("#error-new", panel).focus()

    def _on(self, root: Element, selector: str, action: Callable[[], None]) -> None:
        def handler(event: DomEvent) -> None:
            try:
                action()
            except Exception as error:
                self.window.console.error(f"Hearts: {selector} failed: {error!r}")

        # Not browser.listen: its guard ignores input while this very dialog is open.
        self.browser.one(selector, root).addEventListener("click", self.browser.proxy(handler))

    def _close(self) -> None:
        if self._panel is not None and self._panel.open:
            self._panel.close()
        self.document.documentElement.dataset.error = "closed"

    def _close_and_resume(self) -> None:
        """Close: the person carries on with the table as it is (an error again reopens
        the dialog, where New game always works)."""
        self._close()
        if self._resume is not None:
            try:
                self._resume()
            except Exception as error:
                self.report(error, "carrying on after an error")

    def _start_over(self) -> None:
        """New game: in place if the table still works, else by reloading without a save."""
        self._close()
        self._remove(formats.KEY_CRASH)
        self.errors = 0
        try:
            if self._new_game is None:
                raise RuntimeError("the table never started")
            self._new_game()
            self.mark_good()
        except Exception:
            self._remove(formats.KEY_SAVE)
            if self._storage is not None:
                self._storage.freeze()
            self.window.location.reload()

    def copy(self, text: str, status_selector: str, box_selector: str) -> None:
        """Copy ``text`` to the clipboard (or select it for copying by hand)."""
        task = asyncio.ensure_future(self._copy(text, status_selector, box_selector))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _copy(self, text: str, status_selector: str, box_selector: str) -> None:
        copied = await self.browser.copy(text, self.browser.query(box_selector))
        status = self.browser.query(status_selector)
        if status is not None:
            status.textContent = words.CRASH_COPIED if copied else words.CRASH_NOT_COPIED

    # --- the next visit ------------------------------------------------------------------------

    def _offer(self, crash: formats.Crash, current: str | None) -> None:
        """A notice at the top: the last visit hit an error; go back to the good position?"""
        banner = self._banner = self.document.createElement("div")
        banner.id = "restore"
        banner.className = "notice restore"
        banner.setAttribute("role", "alert")
        can_restore = crash.good is not None and _game_of(crash.good) != _game_of(current)
        said = words.CRASH_BEFORE_RESTORE if can_restore else words.CRASH_BEFORE_KEPT
        buttons = ('<button type="button" id="restore-go" class="primary">Go back to that '
                   'position</button>' if can_restore else "")
        banner.innerHTML = (
            f"<p>{html.escape(said)}</p><div class=\"error-actions\">{buttons}"
            '<button type="button" id="restore-copy">Copy details</button>'
            '<button type="button" id="restore-dismiss">Dismiss</button></div>'
            '<p id="restore-copied" class="error-copied" role="status"></p>'
            '<details><summary>Details</summary><textarea id="restore-details" readonly '
            'rows="6" spellcheck="false" aria-label="Error details"></textarea></details>')
        self.browser.one("#restore-details", banner).value = crash.details
        anchor = self.browser.by_id("notice")
        if anchor is not None:
            anchor.after(banner)
        else:
            self.document.body.prepend(banner)
        if can_restore:
            self._on(banner, "#restore-go", lambda: self._restore(crash))
        self._on(banner, "#restore-copy",
                 lambda: self.copy(crash.details, "#restore-copied", "#restore-details"))
        self._on(banner, "#restore-dismiss", self._dismiss)

    def _restore(self, crash: formats.Crash) -> None:
        if crash.good is None or not self._write(formats.KEY_SAVE, crash.good):
            return
        self._remove(formats.KEY_CRASH)
        self._storage.freeze()  # leaving the page must not save over the restored game
        self.window.location.reload()

    def _dismiss(self) -> None:
        self._remove(formats.KEY_CRASH)
        if self._banner is not None:
            self._banner.remove()
            self._banner = None
