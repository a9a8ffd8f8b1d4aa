"""The Settings dialog: computer speed and level, card colours, sound, the coach; kept.

The form's radio buttons are the page's; this reads a change, keeps it (``Records``), tells
the seat about a new computer level, and sets what the CSS draws from.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from web import store
from web.browser import Browser
from web.storage import Records

__all__ = ["SettingsForm"]


class SettingsForm:
    """The ``#settings`` dialog's form and the display settings it controls."""

    def __init__(self, browser: Browser, records: Records, *, instant: bool,
                 on_level: Callable[[str], None],
                 on_sound: Callable[[], None] = lambda: None) -> None:
        self.browser = browser
        self.records = records
        self.instant = instant
        self.on_level = on_level
        self.on_sound = on_sound

    def apply(self) -> None:
        """Settings the CSS draws from: card colours, and the speed of every animation."""
        settings = self.records.settings
        root = self.browser.document.documentElement
        root.classList.toggle("four-colour", settings.deck == "four")
        root.dataset.speed = "instant" if self.instant else settings.speed

    def sync(self) -> None:
        """Check the radio buttons that match the settings (before the dialog opens)."""
        s = self.records.settings
        for name, value in (("speed", s.speed), ("level", s.level), ("deck", s.deck)):
            box = self.browser.query(f'#settings input[name="{name}"][value="{value}"]')
            if box is not None:
                box.checked = True
        for name, on in (("sound", s.sound), ("coach", s.coach)):
            box = self.browser.query(f'#settings input[name="{name}"]')
            if box is not None:
                box.checked = on

    def on_change(self, event: Any) -> None:
        target = event.target
        name, value = str(target.name), str(target.value)
        settings = self.records.settings
        if name == "speed" and value in store.SPEEDS:
            settings.speed = value
        elif name == "level" and value in store.LEVELS:
            settings.level = value
            self.on_level(value)
        elif name == "deck" and value in store.DECKS:
            settings.deck = value
        elif name == "sound":
            settings.sound = bool(target.checked)
            self.on_sound()
        elif name == "coach":
            settings.coach = bool(target.checked)
        self.apply()
        self.records.keep_stats()
