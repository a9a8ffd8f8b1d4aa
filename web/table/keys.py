"""The keyboard: which key does what at the table (the list the Keys dialog shows).

``on_key`` reads a keydown event and calls the table's command; moving along the hand is
the hand's own business (``HandView.on_key``). Keys typed into a field, and keys with
Ctrl, Alt or Meta, are the browser's.
"""

from __future__ import annotations

from typing import Any

from web import words
from web.table.controller import Table

__all__ = ["on_key"]


def on_key(table: Table, event: Any, open_help: Any) -> None:
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
    elif key == "Escape":
        table.on_escape()
