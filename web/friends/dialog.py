""""Play with friends": the dialog, a thin view over the private-table ``Session``.

Its markup is ``index.html``'s ``<template id="friends-sheet">`` (and one
``friends-invite`` row per seat); ``render`` shows the session, each button's
``data-act`` names the session's transition it asks for. An invite is read from the
address when the page opens, when only the fragment changes (a link opened in a tab
already showing the game), or pasted into the dialog.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from hearts import SEAT_NAMES
from web import words
from web.browser import Browser
from web.friends.network import NetworkChoices, attr
from web.friends.peer import BrowserPeer
from web.friends.session import PageHooks, Role, Session
from web.options import Options
from web.p2p.names import clean_name
from web.storage import Records
from web.table.controller import Table
from web.table.local import LocalSeat
from web.tasks import Tasks

__all__ = ["FriendsDialog", "start"]

ROLE_NAMES = {Role.IDLE: "", Role.HOSTING: "host", Role.HOST_CLOSED: "host",
              Role.JOINING: "guest", Role.SEATED: "guest", Role.GUEST_CLOSED: "guest",
              Role.LOOKING: "looking", Role.NO_RELAY: "looking", Role.FAIR: "fair"}


class FriendsDialog:
    """The ``#friends`` dialog."""

    def __init__(self, browser: Browser, dialog: Any, on_begin: Callable[[], None],
                 keep_relays: Callable[[str], None], keep_name: Callable[[str], None],
                 name: str = "") -> None:
        """``keep_relays(text)``: store the person's own relays ("" for the public ones);
        ``keep_name(name)``: store the name they chose (``name``: the one stored)."""
        self.keep_name = keep_name
        self.name = clean_name(name) or ""
        """The name the person chose for tables with others ("" for none)."""
        self.browser = browser
        self.dialog = dialog
        self.on_begin = on_begin
        self.session: Session | None = None
        self.tasks = Tasks()
        self.network = NetworkChoices(browser, dialog, self.error, keep_relays)

    def q(self, selector: str) -> Any:
        return self.browser.query(selector, self.dialog)

    def build(self) -> None:
        """Fill the dialog from its templates (once, at start)."""
        self.dialog.append(self.browser.by_id("friends-sheet").content.cloneNode(True))
        self.network.name_servers()
        invites = self.q("#fr-invites")
        begin = self.q("#fr-begin").parentElement  # the seats' rows go above Start the game
        row = self.browser.by_id("friends-invite").content
        for seat in (1, 2, 3):
            clone = row.cloneNode(True)
            invites.insertBefore(clone, begin)
            box = invites.querySelectorAll(".fr-invite")[seat - 1]
            box.dataset.inviteSeat = str(seat)
            for name in box.querySelectorAll(".fr-name"):
                name.textContent = SEAT_NAMES[seat]
            for selector, prefix in ((".fr-kind", "fr-kind"), (".fr-new", "fr-invite"),
                                     (".invite-link", "fr-link"), (".answer", "fr-code"),
                                     (".fr-qr-box", "fr-qr")):
                self.browser.query(selector, box).id = f"{prefix}-{seat}"
            for button in box.querySelectorAll("[data-act]"):
                button.dataset.seat = str(seat)
            box.querySelector(".fr-copy").dataset.copy = f"fr-link-{seat}"
        self.intro = str(self.q("#fr-intro").textContent)
        self.q("#my-name").value = self.name
        self.q("#fr-name-note").textContent = words.NAME_KEPT

    def name_changed(self) -> None:
        """The person typed a name: kept and shown at their table if it is one, else
        refused in words (the name before it stays)."""
        typed = str(self.q("#my-name").value)
        name = clean_name(typed)
        if name is None and typed.strip():
            self.q("#fr-name-note").textContent = words.NAME_RULE
            return
        self.name = name or ""
        self.q("#my-name").value = self.name
        self.q("#fr-name-note").textContent = words.NAME_KEPT
        self.keep_name(self.name)
        if self.session is not None:
            self.session.rename()

    # --- what the session asks of the page ---------------------------------------------------

    def base(self) -> str:
        location = self.browser.window.location
        return f"{location.origin}{location.pathname}"

    def show(self, wanted: bool) -> None:
        if wanted and not self.dialog.open:
            self.dialog.showModal()
        elif not wanted and self.dialog.open:
            self.dialog.close()

    def error(self, text: str) -> None:
        if self.session is not None:
            self.session.error = text
        self.q("#fr-error").textContent = text

    # --- the person's clicks ---------------------------------------------------------------

    def on_click(self, event: Any) -> None:
        session = self.session
        target = self.browser.el(event.target.closest("[data-act]"))
        if target is None or session is None:
            return
        act = attr(target, "data-act")
        seat = int(attr(target, "data-seat") or 0)
        actions: dict[str, Callable[[], None]] = {
            "invite": lambda: session.host_side.invite(seat),
            "letin": lambda: session.host_side.let_in(seat, str(self.q(f"#fr-code-{seat}").value)),
            "answer": session.guest_side.answer,
            "begin": session.host_side.begin,
            "host": session.open_table,
            "join": lambda: session.join(str(self.q("#fr-paste-code").value)),
            "share": session.host_side.share_code,
            "joincode": lambda: session.join_code(str(self.q("#join-code").value)),
            "solo": session.host_side.solo,
            "online": session.play_online,
            "leave": session.leave,
            "close": lambda: self.show(False),
            "copy": lambda: self.copy(attr(target, "data-copy")),
        }
        action = actions.get(act)
        if action is not None:
            if act in ("invite", "letin", "answer", "begin", "join", "host", "share",
                       "joincode"):
                self.error("")
            action()
            self.render()
            if act == "begin":
                self.on_begin()  # the dialog steps aside: the focus goes to the table

    def copy(self, element_id: str) -> None:
        field = self.q(f"#{element_id}")
        if field is None:
            return

        async def run() -> None:
            copied = await self.browser.copy(str(field.value), field)
            self.q("#fr-status").textContent = (
                "Copied." if copied else "Selected: copy it with your device's Copy command.")
        self.tasks.spawn(run())

    def read_link(self) -> None:
        """An invite link (``#join=CODE``) or a table's link (``#t=…&k=…``) in the address:
        take it out of the address bar and join."""
        location = self.browser.window.location
        fragment = str(location.hash)
        by_code = fragment.startswith("#t=")
        if not (fragment.startswith("#join=") or by_code) or self.session is None:
            return
        self.browser.window.history.replaceState(None, "", str(location.pathname)
                                                 + str(location.search))
        if by_code:
            self.session.join_code(fragment)
        else:
            self.session.join(fragment)
        self.render()

    # --- drawing ---------------------------------------------------------------------------

    def render(self) -> None:
        """Show the session: its role, the invites or the invitation, errors, the log."""
        session = self.session
        if session is None:
            return
        d = self.dialog.dataset
        role = session.role
        hosting = session.hosting
        d.role = ROLE_NAMES[role]
        ended = session.fair_ended if role is Role.GUEST_CLOSED else None
        # a table of players who met in the lobby, not of friends
        online = (hosting is not None and hosting.host.online) \
            or (role is Role.SEATED and session.seat.peers is not None)
        looking = role is Role.LOOKING
        html = self.browser.document.documentElement
        if looking:
            html.setAttribute("data-looking", "true")
        else:
            html.removeAttribute("data-looking")
        self.q("#friends-title").textContent = \
            "Play online" if role in (Role.LOOKING, Role.NO_RELAY, Role.FAIR) or ended \
            or online else "Play with friends"
        self.q("#fr-retry").hidden = role is not Role.NO_RELAY
        fair_closed = self.q("#fr-fair-closed")
        fair_closed.hidden = ended is None
        fair_closed.textContent = ended or ""  # why a fair table closed, first of all
        d.connected = "true" if role is Role.SEATED else "false"
        closed = session.seat.closed if role in (Role.HOST_CLOSED, Role.GUEST_CLOSED) \
            and ended is None else None
        d.closed = "true" if closed or ended else "false"
        # the ways to connect and meet, where they can still be chosen (an online table
        # met through the relays and STUN already)
        host_side = role in (Role.IDLE, Role.HOSTING, Role.GUEST_CLOSED) and not online
        for starting in ("#fr-start", "#fr-open"):
            self.q(starting).hidden = role not in (Role.IDLE, Role.GUEST_CLOSED)
        self.q("#fr-intro").hidden = role not in (Role.HOSTING, Role.FAIR, Role.SEATED)
        self.q("#fr-intro").textContent = words.FAIR_SEATED if role is Role.FAIR else (
            (words.ONLINE_HOSTED if role is Role.HOSTING else words.ONLINE_SEATED) if online
            else words.FRIEND_SEATED if role is Role.SEATED
            else words.TABLE_BACK if session.resumed else self.intro)
        self.q("#fr-net").hidden = not host_side
        # looking: the lobby's note names them; no relay answered: choose another
        self.q("#fr-relay-set").hidden = not host_side and role is not Role.NO_RELAY
        invites = self.q("#fr-invites")
        invites.hidden = hosting is None or online  # the lobby offers its open seats
        if hosting is not None:
            for seat in (1, 2, 3):
                self.q(f"#fr-kind-{seat}").textContent = hosting.seat_words(seat)
                self.q(f"#fr-invite-{seat}").hidden = hosting.seated(seat)
                steps = self.q(f"[data-invite-seat='{seat}'] .fr-steps")
                link = hosting.links.get(seat)
                steps.hidden = link is None or hosting.seated(seat)
                if link is not None and str(self.q(f"#fr-link-{seat}").value) != link:
                    self.q(f"#fr-link-{seat}").value = link
                    self.q(f"#fr-qr-{seat}").innerHTML = hosting.qr[seat]
                    self.q(f"#fr-code-{seat}").value = ""
            self.q("#fr-begin").hidden = hosting.host.started
            room = hosting.room
            self.q("#fr-share-button").hidden = room is not None
            self.q("#fr-shared").hidden = room is None
            if room is not None and str(self.q("#table-code").value) != room.shown:
                self.q("#table-code").value = room.shown
                self.q("#fr-room-link").value = room.link(self.base())
            self._refusals(hosting.host.log.count, hosting.refusal_log())
        joining = session.joining
        invited = role is Role.JOINING and joining is not None
        bad_link = role is Role.GUEST_CLOSED and joining is None and ended is None
        self.q("#fr-join").hidden = not (invited or bad_link)
        self.q("#fr-join-note").textContent = joining.note() if invited and joining else (
            words.BAD_INVITE if bad_link else "")
        self.q("#fr-make-answer").hidden = not (invited and joining and joining.failed)
        self.q("#fr-answer-row").hidden = not (invited and joining and joining.code)
        self.q("#answer-code").value = joining.code if joining is not None else ""
        self.q("#fr-paste").hidden = not session.can_join() \
            or role in (Role.LOOKING, Role.NO_RELAY)
        lobby = session.lobby
        self.q("#fr-online").hidden = role is not Role.LOOKING
        if role is Role.LOOKING:
            self.q("#fr-online-state").textContent = words.looking_text(
                lobby.people() if lobby else 1,
                lobby.seconds_left(session.now()) if lobby else session.online.wait)
        self.q("#fr-paste-note").hidden = hosting is None
        self.q("#fr-solo").hidden = not session.host_side.can_go_solo()
        leave = self.q("#fr-leave")
        leave.hidden = role not in (Role.HOSTING, Role.SEATED, Role.FAIR)
        leave.textContent = words.END_TABLE if role is Role.HOSTING else words.LEAVE_TABLE
        # one way out of the dialog, named for where it goes (looking: it stops looking)
        self.q("#fr-close").textContent = (
            words.STOP_LOOKING if role is Role.LOOKING
            else words.BACK_TO_TABLE if role in (Role.HOSTING, Role.SEATED, Role.FAIR)
            else words.CLOSE)
        self.q("#fr-error").textContent = closed or session.error
        state = session.seat.state
        if state is None:
            d.stage = "connecting" if role in (Role.JOINING, Role.SEATED) else ""
            return
        view = state.view
        d.stage = state.stage
        d.seat = str(view.seat)
        d.waiting = ",".join(str(s) for s in state.waiting)
        d.turn = "true" if state.stage == "play" and view.my_turn else "false"
        d.hand = str(view.hand_number)

    def _refusals(self, count: int, lines: list[str]) -> None:
        """The host's log of refused guest messages."""
        if not count:
            return
        self.dialog.dataset.refused = str(count)
        box = self.q("#fr-refusals")
        box.hidden = False
        box.querySelector("summary").textContent = f"Messages from guests turned down: {count}"
        items = box.querySelector("ol")
        while items.firstChild:
            items.firstChild.remove()
        for line in lines:
            item = self.browser.document.createElement("li")
            item.textContent = line
            items.append(item)


def start(browser: Browser, table: Table, local: LocalSeat, records: Records,
          opts: Options, pace: Callable[[], float],
          on_error: Callable[[BaseException], None]) -> Session | None:
    """Private tables for this page, if it has the dialog and the WebRTC glue."""
    dialog = browser.by_id("friends")
    p2p = browser.el(getattr(browser.window, "heartsP2P", None))
    if dialog is None or p2p is None:
        return None
    view = FriendsDialog(browser, dialog, table.view.hand.focus, records.keep_relays,
                         records.keep_name, records.name())
    view.build()
    view.network.use_relays(",".join(opts.relays) or records.relays())

    def seat_table(seat: Any) -> None:
        table.seat_at(seat if seat is not None else local)

    def adopt(game: Any, scored: bool) -> None:
        local.adopt(game, scored)
        table.render()

    hooks = PageHooks(
        seat_table=seat_table, adopt=adopt, keep=records.keep_table, show=view.show,
        on_change=view.render, warn=lambda line: browser.window.console.warn(line),
        level=lambda: records.settings.level, ice=view.network.ice,
        base=view.base, relays=view.network.relays, name=lambda: view.name)
    session = Session(BrowserPeer(p2p), hooks, grace=opts.grace, turn=opts.turn,
                      wait=opts.wait, pace=pace,
                      now=time.monotonic, minute=lambda: int(time.time() // 60),
                      on_error=on_error, cheat=opts.cheat)
    view.session = session
    button = browser.by_id("open-table")
    listen = browser.listen

    def open_table() -> None:
        """Play with friends: the dialog, where opening a table is a step of its own."""
        view.show(True)
        view.render()

    def play_online() -> None:
        """Play online: into the lobby at once (the dialog says what it goes through)."""
        session.play_online()
        view.render()

    listen(dialog, "click", view.on_click)

    def dialog_closed() -> None:
        """Escape or Close: whatever the dialog was looking for stops with it."""
        session.dialog_closed()
        view.render()
    listen(dialog, "close", lambda _e: dialog_closed())
    listen(button, "click", lambda _e: open_table())
    online = browser.by_id("play-online")
    if online is not None:
        listen(online, "click", lambda _e: play_online())
        online.disabled = False
    def changed(event: Any) -> None:
        if attr(event.target, "id") == "my-name":
            view.name_changed()
            return
        view.network.on_change(event)
        session.host_side.refresh()
    listen(dialog, "change", changed)
    listen(browser.window, "hashchange", lambda _e: view.read_link())
    guard = browser.guard
    p2p.listen(*(browser.proxy(guard(f, "a private table")) for f in (
        lambda conn: session.opened(str(conn)),
        lambda conn, text: session.received(str(conn), str(text)),
        lambda conn: session.closed(str(conn)),
        session.page_leaving)))
    button.disabled = False
    view.read_link()
    if session.role is Role.IDLE:
        session.host_side.resume(records.table())
    view.render()
    return session
