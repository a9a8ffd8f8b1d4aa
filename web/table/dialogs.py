"""Modal dialogs (hand summary, game over, settings, keyboard help).

Each is a ``<dialog>`` opened with ``showModal()``: the rest of the page is inert, so
Tab stays inside; Esc closes it (or, for a dialog that must not just vanish, calls the
page's handler); when it closes, focus goes back to where it was before it opened — or, if
that element is gone (the hand was redrawn), to a fallback the page gives.
"""

from __future__ import annotations

from collections.abc import Callable

from web.browser import Browser, DomEvent, Element

__all__ = ["Dialogs"]

_FOCUSABLE = "button, input, select, textarea, a[href], [tabindex]:not([tabindex='-1'])"


class Dialogs:
    """Opens and closes the page's dialogs and puts the focus back."""

    def __init__(self, browser: Browser, fallback: Callable[[], None]) -> None:
        self.browser = browser
        self.document = browser.document
        self.fallback = fallback
        self._openers: dict[str, Element | None] = {}
        self._escape: dict[str, Callable[[], None]] = {}

    def watch(self, dialog: Element, on_escape: Callable[[], None] | None = None) -> None:
        """Listen to ``dialog``'s close (focus return) and Esc (``on_escape`` if given)."""
        name = str(dialog.id)
        if on_escape is not None:
            self._escape[name] = on_escape
        self.browser.listen(dialog, "cancel", lambda event: self._on_cancel(dialog, event))
        self.browser.listen(dialog, "close", lambda event: self._on_close(dialog))
        self.browser.listen(dialog, "keydown", lambda event: self._on_key(dialog, event))

    def is_open(self, dialog: Element) -> bool:
        return bool(dialog.open)

    def open(self, dialog: Element, focus: Element | None = None) -> None:
        """Show ``dialog`` modally, remembering the focus; focus ``focus`` inside it."""
        if dialog.open:
            return
        active = self.browser.el(self.document.activeElement)
        if active is not None and active != self.document.body and \
                self.browser.el(active.closest("dialog")) is None:
            self._openers[str(dialog.id)] = active
        dialog.showModal()
        target = self.browser.el(focus) if focus is not None else None
        if target is not None:
            self.browser.focus(target, scroll=False)
        # A dialog taller than the screen (the game's end on a phone) opens at its top, its
        # title in sight: focusing a button low down would scroll the title away. (The
        # summary's main button stays in sight anyway: its actions are sticky.)
        dialog.scrollTop = 0

    def close(self, dialog: Element) -> None:
        if dialog.open:
            dialog.close()

    def _on_key(self, dialog: Element, event: DomEvent) -> None:
        """Tab and Shift+Tab go round inside the dialog instead of out to the browser."""
        if str(event.key) != "Tab" or event.altKey or event.ctrlKey or event.metaKey:
            return
        stops = [el for el in dialog.querySelectorAll(_FOCUSABLE)
                 if not el.disabled and el.getClientRects().length]
        if not stops:
            return
        active = self.browser.el(self.document.activeElement)
        first, last = stops[0], stops[-1]
        if event.shiftKey and (active == first or not dialog.contains(active)):
            event.preventDefault()
            last.focus()
        elif not event.shiftKey and (active == last or not dialog.contains(active)):
            event.preventDefault()
            first.focus()

    def _on_cancel(self, dialog: Element, event: DomEvent) -> None:
        handler = self._escape.get(str(dialog.id))
        if handler is not None:
            event.preventDefault()
            handler()

    def _on_close(self, dialog: Element) -> None:
        opener = self._openers.pop(str(dialog.id), None)
        if self.browser.el(self.document.querySelector("dialog[open]")) is not None:
            return  # another dialog is still open: it keeps the focus
        if opener is not None and opener.isConnected and not getattr(opener, "disabled", False) \
                and not opener.hidden:
            opener.focus()
        else:
            self.fallback()
