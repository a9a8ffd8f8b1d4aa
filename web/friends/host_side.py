"""The host's side of a page's session: the table it opens, and what its host does there.

A page comes to host a table three ways: it opens one for friends (an invite per seat), it
opens again the one it hosted before a reload (``resume``), or the Play online lobby left
it alone, and it plays its own game with the computers, which nobody joins: a person who
comes sits down with it at a fair table instead (``web.friends.fair_door``). ``Hosting``
holds the open table's
invites and connections; this is what the roles need of it: opening, the host's buttons
(invite, let in, share a code, begin), and closing, with the game kept if it had started.
No DOM: everything comes through the session (``web.friends.parts``).
"""

from __future__ import annotations

from collections.abc import Sequence

from hearts import Game, Phase
from hearts.game import Scores
from web import words
from web.friends.hosting import Hosting
from web.friends.parts import Parts
from web.friends.role import Event, Role
from web.p2p.fair.public import Score
from web.p2p.host import HostTable
from web.p2p.saved import resume_table
from web.p2p.tablecode import TableCode, make_code
from web.p2p.turns import TurnTimer
from web.seats.remote import RemoteSeat

__all__ = ["HostSide"]



def _between_hands(host: HostTable) -> tuple[list[Scores], int] | None:
    """A lone page's game, between two hands: the hands scored and its person's seat (a
    game over starts again from nothing); None while a hand is under way."""
    stage = host.stage()
    if stage in ("lobby", "scores", "over"):
        return ([] if stage == "over" else host.game.hand_history), 0
    return None


class HostSide:
    """This page as the host of a private table (one at a time)."""

    def __init__(self, session: Parts) -> None:
        self.session = session
        self.hosting: Hosting | None = None
        """HOSTING: the table this page runs."""
        self.left: tuple[Game, bool] | None = None
        """HOST_CLOSED: the game of the table closed, and whether its hand had just ended."""
        self.resumed = False
        """The table was carried over from before a reload (the dialog says so)."""

    # --- opening ---------------------------------------------------------------------------

    def host_table(self, resumed: HostTable | None = None, online: TableCode | None = None
                   ) -> None:
        """IDLE → HOSTING: open a table (or ``resumed``), an invite for each other seat; or,
        dealt alone in the lobby (``online``), a game with the computers at once, which
        people who come join at a fair table of that code."""
        session = self.session
        ice = session.page.ice()
        if ice is None or (online is None and not session.fire(Event.HOST)):
            return  # (dealt in the lobby: the session has made this page the host)
        host = resumed or HostTable(Game.new(), grace=session.grace, level=session.page.level())
        self.resumed = resumed is not None
        if online is None:
            hosting = self.open(host)
            session.run(hosting.make_invites([1, 2, 3], ice, session.page.base()))
            return
        self.open(host, online)
        self.begin(step_aside=False)  # (the dialog stepped aside when dealt)
        # A person who comes sits down with this page at a fair table, once its hand is
        # over: they never join this game, which this page deals.
        session.fair_side.sit(online, carried=lambda: _between_hands(host))

    def carry_on(self, code: TableCode, history: Sequence[Score], seat: int) -> None:
        """HOSTING (the session is there already): a fair table's game that every other
        person left goes on here against the computers, the hands scored as they were. The
        host's seat is South: the scores turn with it, so each stays with its seat's
        person (a game's pass goes by the hand's number, never by a seat)."""
        turned = [tuple(row[(s + seat) % 4] for s in range(4)) for row in history]
        game = Game(self.session.rng.randrange(2 ** 53), history=turned)
        self.host_table(HostTable(game, grace=self.session.grace,
                                  level=self.session.page.level()), online=code)
        self.resumed = False

    def open(self, host: HostTable, online: TableCode | None = None) -> Hosting:
        """HOSTING: run ``host`` (``online``: a lone page's game in that code's room: no
        copy kept, since people who come carry it on at a fair table). Whenever another
        person sits at it, each has a turn timer: nobody stalls the others."""
        session, page = self.session, self.session.page
        host.turns = TurnTimer(session.turn)
        if online is not None:
            host.online = True
        hosting = self.hosting = Hosting(
            host, session.seat, session.peer, table_id=session.rng.getrandbits(32),
            now=session.now, minute=session.minute,
            keep=page.keep if online is None else lambda text: None, told=session.told,
            warn=page.warn, on_news=session.news, on_change=page.on_change)
        hosting.room = online
        host.names[0] = page.name()
        host.broadcast()
        hosting.flush()
        # The host plays its own seat on the felt table, through the same messages as a guest.
        session.remote = RemoteSeat(session.seat, hosting.local, deal=hosting.new_game,
                                    alone=online is not None,
                                    start_over=hosting.new_game, on_level=self.set_level)
        page.seat_table(session.remote)
        session.run(hosting.run(pace=session.pace, sleep=session.sleep), connecting=False)
        return hosting

    def resume(self, text: str | None) -> None:
        """A table this page hosted before it reloaded: open it again where it was."""
        if text is None:
            return
        page = self.session.page
        table = resume_table(text, grace=self.session.grace)
        if table is None:
            page.keep(None)
            return
        table.set_level(page.level())
        page.show(True)
        self.host_table(table)

    # --- the host's buttons ----------------------------------------------------------------

    def invite(self, seat: int) -> None:
        session = self.session
        ice = session.page.ice()
        if self.hosting is not None and not session.busy and ice is not None:
            session.error = ""
            session.run(self.hosting.make_invite(seat, ice, session.page.base()))

    def refresh(self) -> None:
        """Remake the open invites made with other ICE servers than the ones chosen now
        (their codes would carry the wrong network addresses)."""
        session = self.session
        if self.hosting is None or session.busy or self.hosting.host.closed:
            return
        ice = session.page.ice()
        stale = self.hosting.stale(ice) if ice is not None else []
        if stale:
            assert ice is not None
            session.run(self.hosting.make_invites(stale, ice, session.page.base()))

    def let_in(self, seat: int, code: str) -> None:
        if self.hosting is not None and not self.session.busy:
            self.session.error = ""
            self.session.run(self.hosting.let_in(seat, code))

    def share_code(self) -> None:
        """HOSTING: friends may come in by the table's short code or its link, which pages
        find through relays; the table seats each one as they arrive."""
        hosting, session = self.hosting, self.session
        if hosting is None or hosting.room is not None or hosting.host.closed:
            return
        code = hosting.room = make_code(session.rng)

        async def meet() -> None:
            await session.meet(code.room, code.code)
        session.run(meet(), connecting=False)
        # its sign on the relays: a code looked up after the table closed is told so at
        # once (``web.friends.table_sign``)
        session.run(session.signs.post(code), connecting=False)

    def begin(self, step_aside: bool = True) -> None:
        """Start the game (``step_aside``: the host pressed Start, so the dialog closes; a
        table dealt online starts by itself and leaves a dialog the person opened open)."""
        if self.hosting is not None:
            self.hosting.host.start()
            self.hosting.flush()
            if step_aside:
                self.session.page.show(False)

    def set_level(self, level: str) -> None:
        if self.hosting is not None:
            self.hosting.host.set_level(level)

    # --- closing ---------------------------------------------------------------------------

    def close(self) -> None:
        """HOSTING → HOST_CLOSED: the other pages are told it is closed (no page carries it
        on), the game kept if it began."""
        hosting, session = self.hosting, self.session
        if hosting is None:
            return
        host = hosting.host
        session.signs.take_down()
        told = host.guests() > 0
        host.close()
        hosting.flush()
        hosting.hang_up_all()
        session.page.keep(None)
        if host.started:
            self.left = (host.game, 0 in host.waiting_ready)
        session.seat.closed = words.table_closed(told=told, solo=self.left is not None)
        self.hosting = None
        session.fire(Event.CLOSE)

    def can_go_solo(self) -> bool:
        """Whether this page's hosted game can carry on as the single-player game."""
        role = self.session.role
        host = self.hosting.host if self.hosting is not None else None
        if role is Role.HOSTING and host is not None:
            game = host.game if host.started and not host.closed else None
        elif role is Role.HOST_CLOSED and self.left is not None:
            game = self.left[0]
        else:
            game = None
        return game is not None and game.phase is not Phase.GAME_OVER

    def solo(self) -> None:
        """Close the table if it is open and carry its game on here, alone."""
        if not self.can_go_solo():
            return
        session = self.session
        if self.hosting is not None:
            session.leave()
        assert self.left is not None
        game, scored = self.left
        session.fire(Event.SOLO)
        session.forget()
        session.error = ""
        session.page.adopt(game, scored)

    def forget(self) -> None:
        """Close the table this page opened, before anyone has played (the session goes
        IDLE)."""
        if self.hosting is not None:
            self.session.signs.take_down()
            self.hosting.host.close()
            self.hosting.flush()
            self.hosting.hang_up_all()
            self.hosting = None

    def forget_game(self) -> None:
        """No game kept from a closed table, in memory or in storage."""
        self.left = None
        self.session.page.keep(None)
