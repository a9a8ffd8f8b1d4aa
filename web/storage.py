"""The page's storage: localStorage that may be missing, disabled or full, injected.

``Storage`` wraps any object with localStorage's ``getItem``/``setItem``/``removeItem`` (the
browser's, or a dict-backed one in tests): a failure turns into ``ok = False`` instead of
an exception, and the game plays on. ``Records`` keeps the page's data in it, in the
formats of ``web.formats``: settings, stats, the single-player game and a private table that
this page hosts, and the record of finished games (``web.record.history``).
Pure Python: pytest runs it with ``MemoryStorage``.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

from web import formats, words
from web.record import history

__all__ = ["MemoryStorage", "Records", "Storage"]

KEY_TABLE = "hearts.friends-table"
KEY_RELAYS = "hearts.relays"
"""The person's own relay addresses, as typed (checked when read: ``read_relays``)."""
KEY_NAME = "hearts.name"
"""The name the person chose for tables with others (checked where it is used:
``web.p2p.names.clean_name``, loaded with the tables' code, after the start)."""
"""The private table this page hosts (``web.p2p.saved.table_json``), so a reload carries it on."""


class MemoryStorage:
    """A localStorage stand-in for tests (and a page without one)."""

    def __init__(self, items: dict[str, str] | None = None) -> None:
        self.items = dict(items or {})

    def getItem(self, key: str) -> str | None:
        return self.items.get(key)

    def setItem(self, key: str, value: str) -> None:
        self.items[key] = value

    def removeItem(self, key: str) -> None:
        self.items.pop(key, None)


class Storage:
    """localStorage with failures as a flag (``ok``)."""

    def __init__(self, local: Callable[[], Any]) -> None:
        """``local``: returns the localStorage object (it may raise, e.g. when disabled)."""
        self.ok = True
        try:
            self._ls: Any = local()
            probe = "hearts.probe"
            self._ls.setItem(probe, "1")
            self._ls.removeItem(probe)
        except Exception:
            self.ok = False
            self._ls = None

    def get(self, key: str) -> str | None:
        if self._ls is None:
            return None
        try:
            value = self._ls.getItem(key)
        except Exception:  # can't read: writing now could overwrite what is there
            self.ok = False
            self._ls = None
            return None
        return value if isinstance(value, str) else None

    def set(self, key: str, value: str) -> bool:
        if self._ls is None:
            return False
        try:
            self._ls.setItem(key, value)
        except Exception:
            self.ok = False
            return False
        return True

    def remove(self, key: str) -> None:
        if self._ls is not None:
            with contextlib.suppress(Exception):
                self._ls.removeItem(key)

    def remove_starting(self, prefix: str) -> None:
        """Remove every key that starts with ``prefix``."""
        if self._ls is not None:
            with contextlib.suppress(Exception):
                keys = [self._ls.key(i) for i in range(int(self._ls.length))]
                for key in keys:
                    if isinstance(key, str) and key.startswith(prefix):
                        self._ls.removeItem(key)

    def freeze(self) -> None:
        """Write nothing more (the page is reloading onto what was just stored)."""
        self._ls = None


class Records:
    """What the page keeps, read once at start and written after every change."""

    def __init__(self, storage: Storage, notify: Callable[[str], None]) -> None:
        """``notify``: shows a notice (the first failed write, unreadable data)."""
        self.storage = storage
        self.notify = notify
        self.told = not storage.ok
        """Whether the person has been told that storage failed."""
        notes: list[str] = []
        self.settings, note = formats.load_settings(storage.get(formats.KEY_SETTINGS))
        notes += [note] if note else []
        self.stats, note = formats.load_stats(storage.get(formats.KEY_STATS))
        notes += [note] if note else []
        self.record, note = history.load_record(storage.get(history.KEY_RECORD))
        notes += [note] if note else []
        self.saved, note = formats.load_save(storage.get(formats.KEY_SAVE))
        notes += [note] if note else []
        if note:
            storage.remove(formats.KEY_SAVE)
        if not storage.ok:
            notes.append(words.STORAGE_LOST)
        self.notes = " ".join(notes)
        """What start-up had to reset, in words ("" if nothing)."""

    def keep_game(self, saved: formats.Saved) -> None:
        self.storage.set(formats.KEY_SAVE, formats.dump_save(saved))
        self._check()

    def keep_stats(self) -> None:
        self.storage.set(formats.KEY_STATS, formats.dump_stats(self.stats))
        self.storage.set(formats.KEY_SETTINGS, formats.dump_settings(self.settings))
        self._check()

    def keep_record(self) -> None:
        self.storage.set(history.KEY_RECORD, history.dump_record(self.record))
        self._check()

    def last_hand(self) -> str | None:
        """The stored record of the last finished hand (``formats.dump_last_hand``), if any."""
        return self.storage.get(formats.KEY_COACH)

    def keep_last_hand(self, text: str) -> None:
        self.storage.set(formats.KEY_COACH, text)
        self._check()

    def table(self) -> str | None:
        """The private table this page hosted before it reloaded (its JSON), if any."""
        return self.storage.get(KEY_TABLE)

    def keep_table(self, text: str | None) -> None:
        """Store (or with None forget) the hosted table."""
        if text is None:
            self.storage.remove(KEY_TABLE)
        else:
            self.storage.set(KEY_TABLE, text)
            self._check()

    def relays(self) -> str:
        """The person's own relay addresses as they typed them ("" if none)."""
        return (self.storage.get(KEY_RELAYS) or "")[:500]

    def name(self) -> str:
        """The name the person chose for tables with others, as stored ("" if none)."""
        return (self.storage.get(KEY_NAME) or "")[:100]

    def keep_name(self, name: str) -> None:
        """Store the person's name ("": none, their seat's place again)."""
        if name:
            self.storage.set(KEY_NAME, name)
            self._check()
        else:
            self.storage.remove(KEY_NAME)

    def keep_relays(self, text: str) -> None:
        """Store the person's own relays ("": the public ones again)."""
        if text:
            self.storage.set(KEY_RELAYS, text[:500])
            self._check()
        else:
            self.storage.remove(KEY_RELAYS)

    def _check(self) -> None:
        """The first failed write (storage full) gets a notice; the game plays on."""
        if not self.storage.ok and not self.told:
            self.told = True
            self.notify(words.STORAGE_FULL)
