"""When an online table's host page goes: which page carries the table on, and how.

Only the host's page holds the hands, so the hand in play can't go on without it. What every
page does hold is public: the scores of each finished hand, the rules, and who sits where —
the host sends the people's page ids (``HostTable.roster``) with each state. When the host's page
leaves, each page left works out the same successor from that (the person in the lowest
seat it can still reach, ``successor``); the successor's page opens the table again with
itself in the host's seat (``next_game``: the seats turned so it is South, the scores as
they stood, the interrupted hand dealt afresh) and the others wait for its first state.
Pure: pytest runs it.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Sequence

from hearts import Game, Phase, PlayerView

__all__ = ["next_game", "successor"]


def successor(roster: Sequence[str | None], me: int, reachable: Collection[str]) -> int | None:
    """The seat whose page carries the table on: the lowest guest seat whose person this
    page (at seat ``me``) can still reach (``reachable``: page ids), itself included;
    None if no person is left."""
    seats = [seat for seat in range(1, 4) if seat < len(roster) and roster[seat] is not None
             and (seat == me or roster[seat] in reachable)]
    return min(seats) if seats else None


def next_game(view: PlayerView, rng: random.Random) -> Game | None:
    """The game from where ``view`` left it, seen from its seat as the new South: every
    finished hand's scores turned with the seats, the hand in play dealt again. None if the
    game was over."""
    if view.phase is Phase.GAME_OVER:
        return None
    me = view.seat
    history = [tuple(row[(seat + me) % 4] for seat in range(4)) for row in view.hand_history]
    try:
        return Game(rng.randrange(2**53), view.rules, history=history)
    except ValueError:  # the history already ends the game
        return None
