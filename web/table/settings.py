"""The Settings dialog: computer speed and level, card colours, sound, the coach, house
rules; kept in storage.

The form's radio buttons are the page's; this reads a change, keeps it (``Records``), tells
the seat about a new computer level, and sets what the CSS draws from. The house rules are
for the next new game (``LocalSeat.new_game`` reads them): the game in progress keeps its own.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any, Final

from hearts import Rules
from hearts.rules import MoonScoring, PassCycle
from web import formats
from web.browser import Browser, DomEvent
from web.storage import Records

__all__ = ["HOUSE_BOXES", "SettingsForm", "house_rule_change"]

HOUSE_BOXES: Final = {
    "rule-qs": ("qs_breaks_hearts", False),
    "rule-first": ("no_points_on_first_trick", True),
    "rule-lead": ("must_break_hearts", True),
    "rule-jd": ("jd_bonus", False),
}
"""The house rules' checkboxes: the ``Rules`` field each sets, and whether a tick means the
field is false (the boxes name the change from the standard game: "points allowed on the
first trick" is ``no_points_on_first_trick`` false)."""
_SELECTS: Final = ("rule-moon", "rule-end", "rule-pass")


def house_rule_change(rules: Rules, name: str, value: str, checked: bool) -> Rules | None:
    """``rules`` with the form's control ``name`` set to ``value`` / ``checked``; None if
    ``name`` is no house rule or ``value`` is not one the form offers."""
    if name in HOUSE_BOXES:
        field, inverted = HOUSE_BOXES[name]
        changes: dict[str, Any] = {field: checked != inverted}
        return replace(rules, **changes)
    if name == "rule-moon" and value in {m.value for m in MoonScoring}:
        return replace(rules, moon_scoring=MoonScoring(value))
    if name == "rule-pass" and value in {c.value for c in PassCycle}:
        return replace(rules, pass_cycle=PassCycle(value))
    if name == "rule-end" and value in {str(n) for n in formats.END_SCORES}:
        return replace(rules, end_score=int(value))
    return None


def house_rule_values(rules: Rules) -> dict[str, str | bool]:
    """What each house-rule control shows for ``rules`` (a box's tick, a select's value)."""
    values: dict[str, str | bool] = {
        name: getattr(rules, field) != inverted for name, (field, inverted) in HOUSE_BOXES.items()}
    values["rule-moon"] = rules.moon_scoring.value
    values["rule-end"] = str(rules.end_score)
    values["rule-pass"] = rules.pass_cycle.value
    return values


class SettingsForm:
    """The ``#settings`` dialog's form and the display settings it controls."""

    def __init__(self, browser: Browser, records: Records, *, instant: bool,
                 on_level: Callable[[str], None],
                 on_sound: Callable[[], None] = lambda: None,
                 level_note: Callable[[], str] = lambda: "") -> None:
        """``level_note``: what to say under the level ("" for nothing: a daily deal is
        played at its own level, whatever is chosen here)."""
        self.browser = browser
        self.level_note = level_note
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
        note = self.browser.query("#level-note")
        if note is not None:
            note.textContent = self.level_note()
            note.hidden = not note.textContent
        for name, on in (("sound", s.sound), ("coach", s.coach), ("play_out", s.play_out)):
            box = self.browser.query(f'#settings input[name="{name}"]')
            if box is not None:
                box.checked = on
        for control_name, shown in house_rule_values(s.rules).items():
            control = self.browser.query(f'#settings [name="{control_name}"]')
            if control is None:
                continue
            if isinstance(shown, bool):
                control.checked = shown
            else:
                control.value = shown

    def on_change(self, event: DomEvent) -> None:
        target = event.target
        name, value = str(target.name), str(target.value)
        rules: Rules | None
        settings = self.records.settings
        if name == "speed" and value in formats.SPEEDS:
            settings.speed = value
        elif name == "level" and value in formats.LEVELS:
            settings.level = value
            self.on_level(value)
        elif name == "deck" and value in formats.DECKS:
            settings.deck = value
        elif name == "sound":
            settings.sound = bool(target.checked)
            self.on_sound()
        elif name == "coach":
            settings.coach = bool(target.checked)
        elif name == "play_out":
            settings.play_out = bool(target.checked)
        elif name in HOUSE_BOXES or name in _SELECTS:
            rules = house_rule_change(settings.rules, name, value,
                                      bool(getattr(target, "checked", False)))
            if rules is not None:
                settings.rules = rules
        self.apply()
        self.records.keep_stats()
