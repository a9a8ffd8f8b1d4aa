"""News as a table hears it (``web.table.seat.News``): what a seat told, how often it drew."""

from __future__ import annotations


class Heard:
    """News as a table hears it: what it was told."""

    def __init__(self) -> None:
        self.told: list[str] = []
        self.drawn = 0

    def say(self, text: str, show: bool = False) -> None: ...
    def flush(self) -> None: ...
    def alert(self, text: str) -> None: ...
    def cue(self, name: str | None) -> None: ...

    def tell(self, text: str) -> None:
        self.told.append(text)

    def changed(self, fresh: str | None = None) -> None:
        self.drawn += 1
