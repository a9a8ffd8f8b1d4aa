"""What the table says to screen readers, and the sentences it says.

Two live regions: ``#status`` (polite, also the visible line under the table) and
``#alert`` (assertive, for the person's mistakes and errors, and for news of the people at
the table, drawn apart). While the computers play,
polite messages are *batched*: ``queue`` collects them and ``flush`` writes them as one
message when a trick ends or the turn comes back to the person, so a screen reader hears
one sentence group per trick instead of being interrupted by every card.

The sentences themselves are written in ``web.words``.
"""

from __future__ import annotations

from web.browser import Element

__all__ = ["Announcer"]

_NBSP = "\u00a0"


class Announcer:
    """Writes to the polite and assertive live regions (elements given by the page)."""

    def __init__(self, polite: Element, assertive: Element) -> None:
        self.polite = polite
        self.assertive = assertive
        self.pending: list[str] = []
        self.written: dict[str, str] = {}
        """Each region's text as last written here, by ``"polite"``/``"assertive"`` (only
        this class writes them; before its first write, the page is read)."""
        self.news_kept = False
        """News just told (``tell``) outlives the next ``flush``: the turn that often comes
        with it (the person's time ran out and the next move is theirs) mustn't wipe it in
        the same moment, unseen and unheard."""

    def queue(self, text: str) -> None:
        """Keep ``text`` for the next ``flush`` (used while the computers play)."""
        if text:
            self.pending.append(text)

    def flush(self) -> None:
        """Say everything queued, as one polite message."""
        if self.pending:
            text = " ".join(self.pending)
            self.pending = []
            self._write("polite", text)
            if self.news_kept:
                self.news_kept = False
            else:
                self._write("assertive", "")

    def say(self, text: str) -> None:
        """Say ``text`` politely now (after anything still queued)."""
        self.queue(text)
        self.flush()

    def alert(self, text: str) -> None:
        """Say ``text`` assertively now: a refused move, an error."""
        self.news_kept = False
        self.assertive.classList.remove("news")
        self._write("assertive", text)

    def tell(self, text: str) -> None:
        """Say ``text`` assertively now as news of the table (someone came, left or was
        replaced): the same region as an alert, drawn as news rather than as a mistake."""
        self.news_kept = bool(text)
        self.assertive.classList.toggle("news", bool(text))
        self._write("assertive", text)

    def _write(self, which: str, text: str) -> None:
        """Write ``text`` to the ``which`` region (one call out of Python, none when
        an empty region is emptied again)."""
        region = self.polite if which == "polite" else self.assertive
        was = self.written.get(which)
        if was is None:
            was = str(region.textContent)
        if not text and not was:
            self.written[which] = ""
            return
        # The same words again would be no change to the region, so nothing would be
        # read: vary them invisibly.
        if text and was == text:
            text += _NBSP
        region.textContent = text
        self.written[which] = text
