"""The keyboard: which key does what at the table (the list the Keys dialog shows).

``on_key`` reads a keydown event and calls the table's command; moving along the hand is
the hand's own business (``HandView.on_key``). Keys typed into a field, and keys with
Ctrl, Alt or Meta, are the browser's.
"""

from __future__ import annotations

from collections.abc import Callable

from web import words
from web.browser import DomEvent
from web.table.controller import Table

__all__ = ["on_key"]

_AFTER_HAND = ("pass", "play-out")
"""The buttons that act on the hand (shown only when they can): Tab goes from the hand to
them, though the page puts them before it."""


def _tab(table: Table, event: DomEvent) -> bool:
    """Tab from the hand to Pass (or Play out the rest), Shift+Tab back; True if moved."""
    hand = table.view.hand
    el = table.view.el
    ready = [el[name] for name in _AFTER_HAND
             if el[name] is not None and not el[name].hidden and not el[name].disabled]
    if not ready:
        return False
    active = table.browser.el(table.browser.document.activeElement)
    if not event.shiftKey and hand.focused() is not None:
        ready[0].focus()
        return True
    if event.shiftKey and active is not None and any(active == b for b in ready):
        hand.focus()
        return True
    return False


def on_key(table: Table, event: DomEvent, open_help: Callable[[], None]) -> None:
    """Handle one keydown ``event`` (``open_help``: shows the Keys dialog)."""
    if event.ctrlKey or event.metaKey or event.altKey:
        return
    tag = str(event.target.tagName).lower() if event.target else ""
    if tag in ("input", "select", "textarea"):
        return
    browser = table.browser
    hand = table.view.hand
    key = str(event.key)
    modal = browser.query("dialog[open]") is not None
    if key == "Tab" and not modal and _tab(table, event):
        event.preventDefault()
        return
    if (event.shiftKey and len(key) == 1 and key.upper() in "SHDC" and not modal
            and hand.focused() is None):
        hand.focus()  # Shift+suit from anywhere: into the hand, at that suit
    handled, said = hand.on_key(event)
    if handled:
        event.preventDefault()
        if said:
            table.say_now(said)
        return
    lower = key.lower()
    snap = table.seat.snapshot()
    view = snap.view
    if key == "?":
        event.preventDefault()
        open_help()
    elif lower == "h" and not event.shiftKey:
        event.preventDefault()
        table.on_hint()
    elif lower == "t" and not event.shiftKey:
        event.preventDefault()
        if view is not None:
            table.say_now(words.trick_text(view, snap.shown))
    elif lower == "l" and not event.shiftKey and not modal:
        event.preventDefault()
        table.on_review(show=True)
    elif lower == "s" and not event.shiftKey:
        event.preventDefault()
        if view is not None:
            table.say_now(words.scores_text(view))
    elif lower == "u" and not event.shiftKey and not modal:
        event.preventDefault()
        table.on_undo()
    elif lower == "n" and not event.shiftKey:
        # N does what the button starting with N says: Next hand on a hand's summary,
        # New game elsewhere (asked first when a game is under way).
        summary = table.view.el["summary"]
        button = browser.query("button.primary", summary) \
            if table.dialogs.is_open(summary) else None
        if button is not None:
            event.preventDefault()
            table.on_summary_button(str(button.id))
        elif not modal:
            event.preventDefault()
            table.on_new_game()
    elif lower == "p" and not event.shiftKey and not modal:
        event.preventDefault()
        table.on_play_out()
    elif key == "Escape":
        table.on_escape()
