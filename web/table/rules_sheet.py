"""How to play, from the More menu: the page's one copy of the rules in a dialog.

The rules text is ``index.html``'s ``<article id="rules">`` below the table, readable
without JavaScript. The menu's How to play lends that same article to the
``#rules-sheet`` dialog while it is open (its heading is the dialog's title) and puts it
back in its place when the dialog closes, so the page never holds two copies to keep alike.
"""

from __future__ import annotations

from web.browser import Browser, Element
from web.table.dialogs import Dialogs

__all__ = ["RulesSheet"]


class RulesSheet:
    """The How to play dialog and the article it shows."""

    def __init__(self, browser: Browser, dialogs: Dialogs) -> None:
        self.browser = browser
        self.dialogs = dialogs
        self.dialog = browser.element("rules-sheet")
        self.article = browser.element("rules")
        self.home: Element | None = None
        """The node the article came back before (its place below the table)."""

    def wire(self) -> None:
        self.dialogs.watch(self.dialog)
        self.browser.listen(self.dialog, "close", lambda event: self._put_back())
        button = self.browser.element("rules-button")
        self.browser.listen(button, "click", lambda event: self.open())
        button.disabled = False

    def open(self) -> None:
        if self.dialogs.is_open(self.dialog):
            return
        parent = self.article.parentElement
        if parent is not None and parent != self.dialog:
            marker = self.browser.document.createElement("span")
            marker.hidden = True
            parent.insertBefore(marker, self.article)
            self.home = marker
            self.dialog.appendChild(self.article)
        self.dialogs.open(self.dialog, self.browser.element("rules-title"))

    def _put_back(self) -> None:
        home = self.home
        if home is not None and home.parentElement is not None:
            home.parentElement.insertBefore(self.article, home)
            home.remove()
        self.home = None
