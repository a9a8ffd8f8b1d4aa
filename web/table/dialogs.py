"""Modal dialogs (hand summary, game over, settings, keyboard help).

Each is a ``<dialog>`` opened with ``showModal()``: the rest of the page is inert, so
Tab stays inside; Esc closes it (or, for a dialog that must not just vanish, calls the
page's handler), and so does its close control at the top (``[data-close]``, in reach
however far the dialog is scrolled); a dialog where nothing would be lost also closes on a
tap outside it. When it closes, focus goes back to where it was before it opened — or, if
that element is gone (the hand was redrawn), to a fallback the page gives. On a touch
screen no text field takes the focus by itself: that would open the keyboard over the
dialog before the person has read it.
"""

from __future__ import annotations

from collections.abc import Callable

from web.browser import Browser, DomEvent, Element

__all__ = ["Dialogs"]

_FOCUSABLE = "button, input, select, textarea, a[href], [tabindex]:not([tabindex='-1'])"
_TYPED = "input:not([readonly]):not([type='radio']):not([type='checkbox']), textarea"
"""Fields a person types into (what a tap outside must not throw away)."""


class Dialogs:
    """Opens and closes the page's dialogs and puts the focus back."""

    def __init__(self, browser: Browser, fallback: Callable[[], None]) -> None:
        self.browser = browser
        self.document = browser.document
        self.fallback = fallback
        self._openers: dict[str, Element | None] = {}
        self._escape: dict[str, Callable[[], None]] = {}
        self._pressed_outside = False
        """The pointer went down outside the dialog: a click ending there closes it (a drag
        from inside the dialog that ends outside doesn't)."""

    def watch(self, dialog: Element, on_escape: Callable[[], None] | None = None,
              light: bool = True) -> None:
        """Listen to ``dialog``'s close (focus return), Esc and its close control
        (``on_escape`` if given, else it closes); ``light``: a tap outside it closes it too,
        unless a field in it has been typed into."""
        name = str(dialog.id)
        if on_escape is not None:
            self._escape[name] = on_escape
        self.browser.listen(dialog, "cancel", lambda event: self._on_cancel(dialog, event))
        self.browser.listen(dialog, "close", lambda event: self._on_close(dialog))
        self.browser.listen(dialog, "keydown", lambda event: self._on_key(dialog, event))
        self.browser.listen(dialog, "click", lambda event: self._on_click(dialog, event, light))
        if light:
            self.browser.listen(dialog, "pointerdown", lambda event: self._on_down(dialog, event))

    def dismiss(self, dialog: Element) -> None:
        """The person asked to close ``dialog`` (Esc, its close control, a tap outside)."""
        handler = self._escape.get(str(dialog.id))
        if handler is not None:
            handler()
        else:
            self.close(dialog)

    @staticmethod
    def _outside(dialog: Element, event: DomEvent) -> bool:
        """A pointer event on the backdrop (it is the dialog's own, outside its box)."""
        if event.target != dialog:
            return False
        box = dialog.getBoundingClientRect()
        x, y = float(event.clientX), float(event.clientY)
        return not (box.left <= x <= box.right and box.top <= y <= box.bottom)

    def _on_down(self, dialog: Element, event: DomEvent) -> None:
        self._pressed_outside = self._outside(dialog, event)

    def _on_click(self, dialog: Element, event: DomEvent, light: bool) -> None:
        close = self.browser.el(event.target.closest("[data-close]")) is not None
        outside = light and self._pressed_outside and self._outside(dialog, event)
        typed = any(str(field.value) for field in dialog.querySelectorAll(_TYPED))
        if close or (outside and not typed):
            self.dismiss(dialog)

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
        if target is not None and target.matches(_TYPED) and \
                self.browser.media("(pointer: coarse)"):
            # A touch screen: the keyboard would cover the dialog; its title takes the
            # focus, and a tap on the field opens the keyboard when the person wants it.
            target = self.browser.query("h2", dialog)
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
