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
from web.browser import Browser, DomEvent, Element
from web.friends.fair_back import gather
from web.friends.hosting import Hosting
from web.friends.network import NetworkChoices, attr
from web.friends.session import PageHooks, Role, Session
from web.friends.sheet import PARTS, sheet
from web.options import Options
from web.p2p.names import clean_name
from web.p2p.peer import BrowserPeer
from web.p2p.relay_wire import SIGN_WIRE, BrowserWire
from web.seats.solo import LocalSeat
from web.storage import Records, Storage
from web.table.controller import Table
from web.tasks import Tasks

__all__ = ["FriendsDialog", "start"]


class FriendsDialog:
    """The ``#friends`` dialog."""

    def __init__(self, browser: Browser, dialog: Element, on_begin: Callable[[], None],
                 keep_relays: Callable[[str], None], keep_name: Callable[[str], None],
                 name: str = "") -> None:
        """``keep_relays(text)``: store the person's own relays ("" for the public ones);
        ``keep_name(name)``: store the name they chose (``name``: the one stored)."""
        self.keep_name = keep_name
        self.kept_seat: str | None = None
        """What this tab kept to come back to its seat after a reload (offered once)."""
        self.name = clean_name(name) or ""
        """The name the person chose for tables with others ("" for none)."""
        self.browser = browser
        self.dialog = dialog
        self.on_begin = on_begin
        self.session: Session | None = None
        self.tasks = Tasks()
        self.network = NetworkChoices(browser, dialog, self.error, keep_relays)

    def q(self, selector: str) -> Element:
        return self.browser.one(selector, self.dialog)

    def build(self) -> None:
        """Fill the dialog from its templates (once, at start)."""
        self.dialog.append(self.browser.element("friends-sheet").content.cloneNode(True))
        self.network.name_servers()
        invites = self.q("#fr-invites")
        begin = self.q("#fr-begin").parentElement  # the seats' rows go above Start the game
        row = self.browser.element("friends-invite").content
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
                self.browser.one(selector, box).id = f"{prefix}-{seat}"
            for button in box.querySelectorAll("[data-act]"):
                button.dataset.seat = str(seat)
            self.browser.one(".fr-copy", box).dataset.copy = f"fr-link-{seat}"
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
        """Open or close the dialog; but never close it under a person typing in one of its
        fields (their name, a code): the table found meanwhile waits for them, and the
        dialog says so without taking their focus."""
        if wanted and not self.dialog.open:
            self.dialog.showModal()
        elif not wanted and self.dialog.open:
            if self.typing():
                self.q("#fr-status").textContent = words.TABLE_WAITS_FOR_YOU
                return
            self.dialog.close()

    def typing(self) -> bool:
        """Whether the focus is in a field of the dialog the person types in."""
        field = self.browser.document.activeElement
        return field is not None and field.tagName == "INPUT" \
            and field.type in ("text", "password", "search", "url", "") \
            and not field.hasAttribute("readonly") and self.dialog.contains(field)

    def error(self, text: str) -> None:
        if self.session is not None:
            self.session.error = text
        self.q("#fr-error").textContent = text

    # --- the person's clicks ---------------------------------------------------------------

    def on_click(self, event: DomEvent) -> None:
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
            "back": self.back_to_table,
            "noback": self.no_back,
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

    def back_to_table(self) -> None:
        if self.session is not None and self.kept_seat is not None:
            kept, self.kept_seat = self.kept_seat, None
            self.session.back_to_table(kept)

    def no_back(self) -> None:
        if self.session is not None and self.kept_seat is not None:
            self.kept_seat = None
            self.session.page.keep_seat(None)

    def copy(self, element_id: str) -> None:
        field = self.browser.query(f"#{element_id}", self.dialog)
        if field is None:
            return

        async def run() -> None:
            copied = await self.browser.copy(str(field.value), field)
            self.q("#fr-status").textContent = (
                words.COPIED if copied else words.COPY_SELECTED)
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
        """Show the session (``web.friends.sheet`` decides what shows), then the host's
        invite rows and the log of refused messages."""
        session = self.session
        if session is None:
            return
        model = sheet(session, offer_seat=self.kept_seat is not None, intro=self.intro)
        d = self.dialog.dataset
        d.role = model.role
        d.connected = "true" if model.connected else "false"
        d.closed = "true" if model.closed else "false"
        d.stage = model.stage
        if model.seat:
            d.seat, d.waiting, d.turn, d.hand = model.seat, model.waiting, model.turn, model.hand
        html = self.browser.document.documentElement
        if model.looking:
            html.setAttribute("data-looking", "true")
        else:
            html.removeAttribute("data-looking")
        self.q("#friends-title").textContent = model.title
        for part in PARTS:
            self.q(part).hidden = not model.shows(part)
        if model.settings_open:
            self.q("#fr-settings").open = True
        for part in ("#fr-error", "#fr-fair-closed"):
            self.q(part).dataset.tone = "news" if part in model.news else "error"
        for part, text in model.texts:
            node = self.q(part)
            if str(node.textContent) != text:
                node.textContent = text
        joining = session.joining
        self.q("#answer-code").value = joining.code if joining is not None else ""
        hosting = session.hosting
        if hosting is not None:
            self._invites(hosting)

    def _invites(self, hosting: Hosting) -> None:
        """The host's rows, a seat each: who plays it, its invite; and the table's code."""
        room = hosting.room
        for seat in (1, 2, 3):
            self.q(f"#fr-kind-{seat}").textContent = hosting.seat_words(seat)
            # one code for everyone, once shared, stands in for the invites
            self.q(f"#fr-invite-{seat}").hidden = hosting.seated(seat) or room is not None
            steps = self.q(f"[data-invite-seat='{seat}'] .fr-steps")
            link = hosting.links.get(seat)
            steps.hidden = link is None or hosting.seated(seat) or room is not None
            if link is not None and str(self.q(f"#fr-link-{seat}").value) != link:
                self.q(f"#fr-link-{seat}").value = link
                self.q(f"#fr-qr-{seat}").innerHTML = hosting.qr[seat]
                self.q(f"#fr-code-{seat}").value = ""
        self.q("#fr-begin").hidden = hosting.host.started
        self.q("#fr-share-button").hidden = room is not None
        self.q("#fr-shared").hidden = room is None
        if room is not None and str(self.q("#table-code").value) != room.shown:
            self.q("#table-code").value = room.shown
            self.q("#fr-room-link").value = room.link(self.base())
        self._refusals(hosting.host.log.count, hosting.refusal_log())

    def _refusals(self, count: int, lines: list[str]) -> None:
        """The host's log of refused guest messages."""
        if not count:
            return
        self.dialog.dataset.refused = str(count)
        box = self.q("#fr-refusals")
        box.hidden = False
        self.browser.one("summary", box).textContent = \
            f"Messages from guests turned down: {count}"
        items = self.browser.one("ol", box)
        items.replaceChildren()
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
        # a table's seat waits behind a summary the person is reading (a newcomer came)
        table.seat_at(seat if seat is not None else local, hold=seat is not None)

    def adopt(game: Any, scored: bool) -> None:
        local.adopt(game, scored)
        table.render()

    # this tab's own storage: a seat kept there is never claimed by two tabs
    tab = Storage(lambda: browser.window.sessionStorage)

    def keep_seat(text: str | None, part: str = "") -> None:
        if text is None:
            tab.remove(KEY_SEAT)
            tab.remove_starting(KEY_SEAT + ".")  # its parts (``KeptSeat``)
        else:
            tab.set(KEY_SEAT + part, text)
    hooks = PageHooks(
        seat_table=seat_table, adopt=adopt, keep=records.keep_table, show=view.show,
        on_change=view.render, warn=lambda line: browser.window.console.warn(line),
        level=lambda: records.settings.level, ice=view.network.ice,
        base=view.base, relays=view.network.relays, name=lambda: view.name,
        keep_seat=keep_seat)
    session = Session(BrowserPeer(p2p), hooks, wire=BrowserWire(p2p, hooks.warn),
                      sign=BrowserWire(p2p, hooks.warn, SIGN_WIRE),
                      grace=opts.grace, turn=opts.turn, wait=opts.wait, wall=time.time,
                      pace=pace,
                      now=time.monotonic, minute=lambda: int(time.time() // 60),
                      on_error=on_error, cheat=opts.cheat)
    view.session = session
    button = browser.element("open-table")
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
        """Escape or Close: whatever the dialog was looking for stops with it (a dialog
        closed and opened again at once, as when a table under way is found, isn't closed:
        its close event comes after)."""
        if dialog.open:
            return
        view.q("#fr-status").textContent = ""
        session.dialog_closed()
        view.render()
    listen(dialog, "close", lambda _e: dialog_closed())
    listen(button, "click", lambda _e: open_table())
    online = browser.by_id("play-online")
    if online is not None:
        listen(online, "click", lambda _e: play_online())
        online.disabled = False
    def changed(event: DomEvent) -> None:
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
    p2p.listenLobby(*(browser.proxy(guard(f, "the lobby")) for f in (
        lambda sub, text, plain: session.online.event(
            str(sub), str(text), None if plain is None else str(plain)),
        lambda sub: session.online.stored(str(sub)))))
    p2p.listenLobby(*(browser.proxy(guard(f, "a table's sign")) for f in (
        lambda sub, text, plain: session.signs.event(str(sub), str(text), None),
        lambda sub: session.signs.stored(str(sub)))), SIGN_WIRE)
    button.disabled = False
    # (a fair table's seat carries the hand under way: some hundred kB; a longer text
    # isn't a kept seat, and is read as none)
    kept = gather(tab.get(KEY_SEAT) or "", lambda part: tab.get(KEY_SEAT + part))
    view.kept_seat = kept if 0 < len(kept) <= MAX_KEPT else None
    view.read_link()
    if session.role is Role.IDLE:
        session.host_side.resume(records.table())
    if session.role is Role.IDLE and view.kept_seat is not None:
        view.show(True)  # this tab was at a table before it reloaded: offer the seat back
    else:
        view.kept_seat = None
    view.render()
    return session


KEY_SEAT = "hearts.seat"
"""sessionStorage: this tab's seat at a table found by code, to come back to it after a
reload (``GuestSide.keep_seat``). Per tab, so two tabs never claim one seat."""
MAX_KEPT = 4_000_000
"""The longest seat record read back (``web.p2p.fair.resume.MAX_CHARS``)."""

