"""The guest's side of a page's session: going to someone else's table and sitting at it.

A page goes to a table by an invite (it answers the host's offer, ``Joining``) or by the
table's short code (it looks in the code's room through relays, ``CodeJoining``); once the
host's connection opens it sits at the felt table as a ``RemoteSeat``, fed by the host's
messages. No DOM: everything comes through the session (``web.friends.parts``).
"""

from __future__ import annotations

import json

from web import words
from web.friends.hosting import TABLE_ROOM
from web.friends.joining import CodeJoining, Joining
from web.friends.parts import Parts
from web.friends.role import Event, Role
from web.p2p.codes import CodeError, decode_invite
from web.p2p.protocol import Intent, intent_text, peer_of
from web.p2p.tablecode import read_code
from web.seats.remote import RemoteSeat

__all__ = ["LOOK_SECONDS", "GuestSide"]

LOOK_SECONDS = 12.0
"""How long a page looks for a table by its code before saying nobody answered."""


class GuestSide:
    """This page on its way to, or seated at, a table another page runs."""

    def __init__(self, session: Parts) -> None:
        self.session = session
        self.joining: Joining | CodeJoining | None = None
        """JOINING, SEATED: the invite answered or the code looked for, and the host's
        connection."""
        self.kept: str | None = None
        """What was kept for coming back to the seat after a reload (``keep_seat``)."""

    # --- going to a table ------------------------------------------------------------------

    def join(self, code: str) -> None:
        """→ JOINING: answer the invite ``code`` (a code or a whole link)."""
        session = self.session
        try:
            invite = decode_invite(code.strip(), session.minute())
        except CodeError as problem:
            if session.role is Role.IDLE:  # the page opened with a broken link
                session.fire(Event.BAD_LINK)
            session.error = str(problem)
            session.page.on_change()
            return
        session.forget()
        session.fire(Event.JOIN)
        self.joining = Joining(invite)
        session.error = ""
        self.answer()

    def join_code(self, text: str, claim: tuple[int, str] | None = None) -> None:
        """→ JOINING: look for a table by its short code (or its ``#t=…&k=…`` link);
        ``claim``: the seat this page held there before a reload, and its secret."""
        session = self.session
        try:
            code = read_code(text)
        except CodeError as problem:
            session.error = str(problem)
            session.page.on_change()
            return
        session.forget()
        session.fire(Event.JOIN)
        joining = self.joining = CodeJoining(code, claim)
        session.error = ""

        def still() -> bool:
            return self.joining is joining and session.role is Role.JOINING

        async def read_sign() -> None:
            # The relays say at once whether the table's sign is up; with none, nobody
            # will answer in its room: said now, unless a page there is on its way to
            # this one (``web.friends.table_sign``).
            if await session.signs.look(code, still) is False and still() \
                    and not joining.room:
                session.peer.unmeet(TABLE_ROOM)
                session.seat.closed = words.NO_TABLE
                self.gone(Event.NOBODY_ANSWERED)
        session.run(read_sign(), connecting=False)

        async def look() -> None:
            reply = await session.meet(code.room, code.code)
            if self.joining is not joining:
                return
            if reply is None:
                self.gone(Event.RELAY_FAILED)
                return
            since = session.now()
            while self.joining is joining and session.role is Role.JOINING \
                    and session.now() - since < LOOK_SECONDS:
                await session.sleep(0.25)
            if self.joining is joining and session.role is Role.JOINING:
                session.peer.unmeet(TABLE_ROOM)
                session.seat.closed = words.NO_TABLE
                self.gone(Event.NOBODY_ANSWERED)
        session.run(look(), connecting=False)
        session.page.on_change()

    def answer(self) -> None:
        """Make the answer code to the invite (again, after a failure)."""
        joining, session = self.joining, self.session
        # (not held up by ``session.busy``: that may be the invites of a table this page
        # opened and has just closed for this one, still waiting for their addresses)
        if not isinstance(joining, Joining) or joining.answering or joining.conn is not None:
            return

        async def make() -> None:
            problem = await joining.make_answer(session.peer)
            if problem is not None:
                session.error = problem
        session.run(make())

    # --- the host's connection -------------------------------------------------------------

    def opened(self, conn: str) -> None:
        session = self.session
        if isinstance(self.joining, CodeJoining) and conn.startswith(f"r:{TABLE_ROOM}:"):
            self.joining.room[peer_of(conn)] = conn
            if session.role is Role.JOINING and self.joining.conn is None:
                # this page speaks first: the host's page seats it on these words
                session.peer.send(conn, intent_text(self.joining.greeting()))
        if self.joining is not None and conn == self.joining.conn \
                and session.fire(Event.CONNECTED):
            session.signs.stop()  # (the table answered: its sign no longer matters)
            session.remote = RemoteSeat(session.seat, self.send,
                                        start_over=session.leave_for_own_game)
            session.page.seat_table(session.remote)
            self.say_name()
            session.page.on_change()

    def received(self, conn: str, text: str) -> None:
        joining, session = self.joining, self.session
        if isinstance(joining, CodeJoining) and joining.conn is None \
                and session.role is Role.JOINING:
            # In a table's room only its host answers a newcomer's first words: its answer,
            # the table's state, says which page that is.
            kind = session.seat.receive(text)
            if kind is None:
                return
            joining.conn = conn
            if kind == "closed":  # turned away (a seat that couldn't be given back)
                self.gone(Event.TABLE_CLOSED)
                return
            self.opened(conn)
            session.news(kind)
            self.keep_seat()
        elif joining is not None and conn == joining.conn:
            kind = session.seat.receive(text)
            if kind == "closed":
                session.peer.close(conn)
                self.gone(Event.TABLE_CLOSED)
            elif kind is not None:
                session.news(kind)
                self.keep_seat()

    def closed(self, conn: str) -> None:
        seat = self.session.seat
        if isinstance(self.joining, CodeJoining):
            self.joining.room.pop(peer_of(conn), None)
        if self.joining is not None and conn == self.joining.conn:
            if seat.closed is None:
                seat.closed = words.HOST_LOST
            self.gone(Event.NOBODY_ANSWERED)

    def keep_seat(self) -> None:
        """At a table found by its code: keep what this page needs to come back to its seat
        after a reload (the table's code, the seat, the host's secret for it)."""
        joining, seat = self.joining, self.session.seat
        if not isinstance(joining, CodeJoining) or seat.state is None or seat.secret is None:
            return
        kept = json.dumps({"code": joining.table.code, "seat": seat.state.view.seat,
                           "secret": seat.secret})
        if kept != self.kept:
            self.kept = kept
            self.session.page.keep_seat(kept)

    def forget_seat(self) -> None:
        """Nothing to come back to: the table closed, or this person left it."""
        if self.kept is not None:
            self.kept = None
            self.session.page.keep_seat(None)

    def say_name(self) -> None:
        """Tell the host the name this person chose (if any), for their seat."""
        name = self.session.page.name()
        if name:
            self.send(Intent("name", name=name))

    def send(self, intent: Intent) -> None:
        if self.joining is not None and self.joining.conn is not None:
            self.session.peer.send(self.joining.conn, intent_text(intent))

    # --- leaving ---------------------------------------------------------------------------

    def gone(self, event: Event) -> None:
        """SEATED/JOINING → GUEST_CLOSED (``event`` says why): back to the page's own game,
        the dialog says what happened."""
        session = self.session
        if isinstance(self.joining, CodeJoining):
            session.peer.unmeet(TABLE_ROOM)
        if self.joining is not None:
            self.joining.conn = None
        self.forget_seat()
        session.fire(event)
        session.page.on_change()

    def leave_now(self) -> None:
        """Leave at once, saying so to the host; the computer takes the seat there."""
        if self.joining is not None and self.joining.conn is not None:
            self.send(Intent("leave"))
            self.session.peer.close(self.joining.conn)
        self.session.seat.closed = words.YOU_LEFT
        self.gone(Event.LEAVE)

    def hang_up(self) -> None:
        """The connection of an earlier invite or code closed (the session goes IDLE)."""
        peer = self.session.peer
        if self.joining is not None and self.joining.conn is not None:
            peer.close(self.joining.conn)
        if isinstance(self.joining, CodeJoining):
            peer.unmeet(TABLE_ROOM)
