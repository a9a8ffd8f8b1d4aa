"""What the table says to screen readers, and the sentences it says.

Two live regions: ``#status`` (polite, also the visible line under the table) and
``#alert`` (assertive, for the person's mistakes and errors). While the computers play,
polite messages are *batched*: ``queue`` collects them and ``flush`` writes them as one
message when a trick ends or the turn comes back to the person, so a screen reader hears
one sentence group per trick instead of being interrupted by every card.

The sentence builders are pure functions of the engine's ``PlayerView``.
"""

from __future__ import annotations

from typing import Any

from hearts import Card, PlayerView, Trick

__all__ = ["NAMES", "Announcer", "cards_text", "last_trick_text", "reason_text",
           "scores_text", "trick_text"]

NAMES = ("You", "West", "North", "East")
_NBSP = "\u00a0"


class Announcer:
    """Writes to the polite and assertive live regions (elements given by the page)."""

    def __init__(self, polite: Any, assertive: Any) -> None:
        self.polite = polite
        self.assertive = assertive
        self.pending: list[str] = []

    def queue(self, text: str) -> None:
        """Keep ``text`` for the next ``flush`` (used while the computers play)."""
        if text:
            self.pending.append(text)

    def flush(self) -> None:
        """Say everything queued, as one polite message."""
        if self.pending:
            text = " ".join(self.pending)
            self.pending = []
            self._write(self.polite, text)
            self._write(self.assertive, "")

    def say(self, text: str) -> None:
        """Say ``text`` politely now (after anything still queued)."""
        self.queue(text)
        self.flush()

    def alert(self, text: str) -> None:
        """Say ``text`` assertively now: a refused move, an error."""
        self._write(self.assertive, text)

    @staticmethod
    def _write(region: Any, text: str) -> None:
        # The same words again would be no change to the region, so nothing would be
        # read: vary them invisibly.
        if text and str(region.textContent) == text:
            text += _NBSP
        region.textContent = text


def _who(seat: int, me: int = 0) -> str:
    """How seat ``me``'s page names ``seat`` ("You", "West", …)."""
    return "You" if seat == me else NAMES[seat] if seat else "South"


def reason_text(reason: str) -> str:
    """A reason as the tail of a card's name: "You must follow diamonds." → "you must …"."""
    reason = reason.rstrip(".")
    return reason[:1].lower() + reason[1:]


def _plays_text(trick: Trick, me: int = 0) -> str:
    parts = []
    for number, (seat, card) in enumerate(trick.plays()):
        verb = "led" if number == 0 else "played"
        parts.append(f"{_who(seat, me)} {verb} the {card.name}")
    return ", ".join(parts)


def trick_text(view: PlayerView, shown: Trick | None = None) -> str:
    """The cards on the table now (the T key); ``shown``: a finished trick still on show."""
    if shown is not None:
        winner = shown.winner if shown.winner is not None else 0
        took = "you take it" if winner == view.seat else f"{_who(winner, view.seat)} takes it"
        return f"On the table: {_plays_text(shown, view.seat)}; {took}."
    trick = view.trick
    if trick is None or not trick.cards:
        if view.my_turn:
            return "No cards on the table: it's your lead."
        if view.to_play is not None:
            return f"No cards on the table: {_who(view.to_play, view.seat)} leads."
        return "No cards on the table."
    tail = " Your turn." if view.my_turn else ""
    return f"On the table: {_plays_text(trick, view.seat)}.{tail}"


def last_trick_text(view: PlayerView) -> str:
    """The last finished trick of this hand (the L key)."""
    if not view.tricks:
        return "No trick has been finished yet this hand."
    trick = view.tricks[-1]
    winner = trick.winner if trick.winner is not None else 0
    took = "You took it" if winner == view.seat else f"{_who(winner, view.seat)} took it"
    points = trick.points
    worth = f", {points} point{'s' if points != 1 else ''}" if points else ""
    return f"Last trick: {_plays_text(trick, view.seat)}. {took}{worth}."


def scores_text(view: PlayerView) -> str:
    """Total scores and this hand's points so far (the S key)."""
    totals = ", ".join(f"{_who(s, view.seat)} {view.scores[s]}" for s in range(4))
    taken = [f"{_who(s, view.seat)} {view.hand_points[s]}" for s in range(4)
             if view.hand_points[s]]
    hand = f" This hand so far: {', '.join(taken)}." if taken else \
        " No points taken yet this hand."
    return f"Scores: {totals}.{hand}"


def cards_text(cards: tuple[Card, ...] | list[Card]) -> str:
    """ "the 2 of hearts, the 9 of clubs and the Ace of spades" """
    names = [f"the {c.name}" for c in cards]
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]
