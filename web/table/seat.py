"""The seat this page plays: one interface, whoever runs the game.

The table (``web.table.controller.Table``) asks its seat for a ``SeatSnapshot`` and sends
it the person's intents; it never asks which kind of seat it has. Three kinds exist:
``web.seats.solo.LocalSeat`` (South of a game against three computers, run and saved in
this page), ``web.seats.remote.RemoteSeat`` (a seat at a private or online table, whose game
runs on the host's page — or in this page's ``HostTable`` when this page hosts) and
``web.seats.fair.FairSeat`` (a seat at a fair table, where no page holds the game).

A seat tells the table what happened through ``News``: sentences to say (batched into one
message per ``flush``), and that the table must be drawn again. The table checks an intent
against the snapshot first (``web.table.model.refusal``) and says why not itself, so a seat
only receives intents the person may make; the game's owner checks them all again.
"""

from __future__ import annotations

from typing import Protocol

from hearts import Card
from web import words
from web.table.model import SeatSnapshot

__all__ = ["QUIET", "News", "Seat", "toggle_pick"]


class News(Protocol):
    """How a seat tells the table what happened."""

    def say(self, text: str, show: bool = False) -> None:
        """Queue ``text`` for the screen reader; ``show``: it tells what just happened at
        the table (a card, a trick, a pass), so the felt shows it at once too."""

    def flush(self) -> None:
        """Say everything queued, as one message (one per trick, one per move)."""

    def alert(self, text: str) -> None:
        """Say ``text`` assertively now: the host turned a move down, an error."""

    def tell(self, text: str) -> None:
        """Say ``text`` assertively now, as news: someone came, left or was replaced."""

    def changed(self, fresh: str | None = None) -> None:
        """Draw the table again (``fresh``: a card just played, animated in)."""

    def cue(self, name: str | None) -> None:
        """Play the sound ``name`` (``web.table.sound.CUES``; None: no sound)."""


class _Quiet:
    """News for a seat no table shows: nothing to say, nothing to draw."""

    def say(self, text: str, show: bool = False) -> None: ...
    def flush(self) -> None: ...
    def alert(self, text: str) -> None: ...
    def tell(self, text: str) -> None: ...
    def changed(self, fresh: str | None = None) -> None: ...
    def cue(self, name: str | None) -> None: ...


QUIET: News = _Quiet()


def toggle_pick(picked: list[str], card: Card, news: News) -> None:
    """Pick ``card`` to pass, or put it back (three at most); say how many are picked and
    draw again. ``picked``: the cards' notation, changed in place."""
    if card.notation in picked:
        picked.remove(card.notation)
    elif len(picked) < 3:
        picked.append(card.notation)
    news.say(words.chosen_text(len(picked)))
    news.changed()


class Seat(Protocol):
    """The seat this page plays. Intents are only sent when the snapshot allows them."""

    def snapshot(self) -> SeatSnapshot:
        """What the table shows for this seat now."""

    def attach(self, news: News) -> None:
        """The table shows this seat from now on; moves due (the computers') may start."""

    def detach(self) -> None:
        """The table shows another seat: stop what is in flight (it resumes on attach)."""

    def toggle(self, card: Card) -> None:
        """Choose ``card`` to pass, or put it back."""

    def pass_cards(self) -> None:
        """Pass the three chosen cards."""

    def play(self, card: Card) -> None:
        """Play ``card`` (legal: the table checked the snapshot)."""

    def hinted(self) -> None:
        """The person asked for a hint (counted where a result is shared)."""

    def play_out(self) -> None:
        """Play the rest of the hand, the person's cards too (only when the snapshot's
        ``can_play_out``)."""

    def choose_moon(self, choice: str) -> None:
        """The person shot the moon: score it as ``choice`` (``MoonScoring`` text; only
        when the snapshot's ``may_choose_moon``)."""

    def next_hand(self) -> None:
        """The person has seen the hand's summary."""

    def new_game(self) -> None:
        """Deal a new game (only when the snapshot's ``can_deal``)."""

    def start_over(self) -> None:
        """The error dialog's New game: a fresh start at once, whatever the moment."""

    def react(self, key: str) -> None:
        """Say a preset reaction to the table (``snapshot().chat``)."""

    def undo(self) -> None:
        """Take back the person's last card (only when the snapshot's ``can_undo``)."""

    def set_level(self, level: str) -> None:
        """The computer level chosen in the settings (for the computers this page runs)."""

    def tick(self, now_ms: float, visible: bool) -> None:
        """The clock's heartbeat (twice a second): time spent on this seat's game."""

    def save(self) -> None:
        """Keep what must survive the page closing (called when the page is hidden)."""
