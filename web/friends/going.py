"""Going to a table: whether this page may go now, and on its way there. No DOM.

A page goes to a table by an invite, by the table's short code, or back to the seat it held
before a reload (a friend's table, claimed with its secret, or a fair table's, claimed with
its key). It may go only while that loses nothing (``can_join``); else the dialog says why.
Until a table seats it, closing the dialog stops the way there (``on_the_way``). The work
itself is the guest's side's (``web.friends.guest_side``) and a fair table's
(``web.friends.fair_side``); this decides which, and when.
"""

from __future__ import annotations

import json

from web import words
from web.friends.fair_back import Kept
from web.friends.fair_side import FairSide
from web.friends.guest_side import GuestSide
from web.friends.host_side import HostSide
from web.friends.joining import CodeJoining
from web.friends.parts import Parts
from web.friends.role import Event, Role

__all__ = ["Going"]


class Going:
    """This page's way to a table, from the person's asking to the table seating it."""

    def __init__(self, session: Parts, host: HostSide, guest: GuestSide,
                 fair: FairSide) -> None:
        self.session = session
        self.host = host
        self.guest = guest
        self.fair = fair

    def can_join(self) -> bool:
        """Whether joining a table now loses nothing: not while seated at a friend's table,
        nor while hosting a game that has started."""
        session = self.session
        if session.role is Role.SEATED:
            return session.seat.state is None
        if session.role is Role.FAIR:
            return False
        hosting = self.host.hosting
        if session.role is Role.HOSTING and hosting is not None:
            return not hosting.host.started
        return True

    def may_join(self) -> bool:
        """Open the dialog; whether this page may go to another table now (if not, the
        dialog says why)."""
        session = self.session
        session.page.show(True)
        if self.can_join():
            return True
        session.error = words.SEATED_ALREADY
        session.page.on_change()
        return False

    def join(self, code: str) -> None:
        """Take a seat with the invite ``code`` (a code or a whole link)."""
        if self.may_join():
            self.guest.join(code)

    def join_code(self, text: str) -> None:
        """Look for a table by its short code (or its ``#t=…&k=…`` link)."""
        if self.may_join():
            self.guest.join_code(text)

    def back_to_table(self, kept: str) -> None:
        """Back to the seat this page held before it reloaded (``kept``: what
        ``GuestSide.keep_seat`` kept); a kept seat that doesn't read is forgotten."""
        fair = Kept.read(kept)
        if fair is not None:  # a fair table's seat, claimed with its key
            if self.may_join():
                self.fair.back(fair)
            return
        try:
            data = json.loads(kept)
            code, seat, secret = str(data["code"]), int(data["seat"]), str(data["secret"])
        except (ValueError, KeyError, TypeError):
            self.session.page.keep_seat(None)
            return
        if self.may_join():
            self.guest.join_code(code, claim=(seat, secret))

    def dialog_closed(self) -> None:
        """The person closed the dialog: whatever it was on the way to stops there —
        looking for players, waiting to be let in at a table under way, looking up a
        table's code (the table, if it saw this page, sees it go and frees the seat)."""
        session = self.session
        if self.on_the_way():
            session.forget()
            session.error = ""
            session.page.on_change()
            return
        session.fire(Event.DIALOG_CLOSED)

    def on_the_way(self) -> bool:
        """Whether this page is on its way to a table that hasn't seated it yet and that
        only the open dialog speaks of: let in at one under way, or a code looked up (an
        invite answered waits for the host, who may take a while to paste the answer)."""
        role = self.session.role
        if role is Role.FAIR:
            fair = self.fair.fair
            return fair is not None and fair.seat is None and fair.door.late
        return role is Role.JOINING and isinstance(self.guest.joining, CodeJoining)
