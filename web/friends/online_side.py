"""Play online's side of a page's session: into the lobby, and out of it to a table.

The lobby (``web.friends.online``'s ``Online``, on the relays) finds the table; this is
what the roles see of it: LOOKING while it looks, then the table it found — a fair one
(FAIR: a new one, or one under way that seats this page between two hands), or this page's
own game with the computers (HOSTING) until a person comes — or NO_RELAY when no relay
answered. No DOM: everything comes through the session (``web.friends.parts``).
"""

from __future__ import annotations

from web import words
from web.friends.online import Dealt, Invited, Unreachable
from web.friends.parts import Parts
from web.friends.role import FELT_TABLE_ROLES as AT_TABLE
from web.friends.role import Event, Role

__all__ = ["OnlineSide"]


class OnlineSide:
    """This page looking for players, if it is."""

    def __init__(self, session: Parts) -> None:
        self.session = session

    def play_online(self) -> None:
        """IDLE → LOOKING: into the lobby, to be seated with whoever else is waiting (only
        while the dialog stays open: closing it stops looking)."""
        session = self.session
        if session.role is Role.LOOKING or (session.role in AT_TABLE and not
                                            session.can_join()):
            session.page.show(True)  # at a table: the dialog shows it (and Leave the table)
            return
        if not session.may_join():
            return
        session.forget()
        session.error = ""
        if session.fire(Event.PLAY_ONLINE):
            session.run(self._look_for_players(), connecting=False)
        session.page.on_change()

    async def _look_for_players(self) -> None:
        """LOOKING → the table the lobby found: a fair one, or a game with the computers
        dealt here; or NO_RELAY, when no relay could be reached."""
        session = self.session
        found = await session.online.look()
        # None: this look was stopped (the dialog closed), perhaps while the person began
        # another one that is still going; that one is not this one's to end
        if found is None or session.role is not Role.LOOKING:
            return
        if isinstance(found, Unreachable):
            session.error = words.no_relay(session.page.relays())
            session.fire(Event.RELAY_FAILED)
        elif isinstance(found, Invited) and (found.people or found.late):
            if session.fire(Event.FAIR_FOUND):
                session.fair_side.sit(found.code, found.people or 4, late=found.late)
        elif isinstance(found, Dealt) and found.people:
            if session.fire(Event.FAIR_FOUND):
                session.fair_side.sit(found.code, found.people + 1)
        elif isinstance(found, Dealt) and session.page.ice() is not None:
            if session.fire(Event.DEALT):
                session.host_side.host_table(online=found.code)
        else:
            session.fire(Event.LEAVE)
