"""The names people give themselves at tables with other people. No browser imports.

A name is what a person typed, trimmed: 1 to ``MAX_NAME`` printable characters (no line
breaks, tabs, or invisible formatting characters that could make one name look like
another's). The same check runs on the page that types it, on the host that receives it,
and on every guest that is shown it; a name that fails it is simply not used: the seat keeps
its place's name ("West").
"""

from __future__ import annotations

__all__ = ["MAX_NAME", "clean_name"]

MAX_NAME = 20


def clean_name(text: object) -> str | None:
    """The name in ``text`` (trimmed), or None if it isn't one.

    >>> clean_name("  Ana ")
    'Ana'
    >>> clean_name("Ana\\nBob") is None, clean_name("") is None, clean_name("x" * 21) is None
    (True, True, True)
    """
    if not isinstance(text, str):
        return None
    name = text.strip()
    if not 1 <= len(name) <= MAX_NAME or not name.isprintable():
        return None
    return name
