""""Play with friends": the private-table dialog, for the host and for guests.

The host's page runs ``web.p2p.host.HostTable``; every page (the host's own seat too) draws
its seat from a ``web.p2p.guest.SeatState`` fed by the host's messages. WebRTC itself is
``web/p2p.js`` (``window.heartsP2P``). Everyone plays on the felt table itself: the table
is given a ``web.table.remote.RemoteSeat`` (the page's own ``LocalSeat`` waits meanwhile),
fed from the host's messages; on the host's page those come straight from its
``HostTable`` (``LOCAL``), and the dialog keeps the invites (each with a QR code), the way
to connect, the refusal log and Close the table.

An invite is read from the address when the page opens, when only the fragment changes (a
link opened in a tab already showing the game), or pasted into the dialog.
"""

from __future__ import annotations

import asyncio
import html
import json
import random
import time
from typing import Any

from hearts import SEAT_NAMES, Game, Phase
from web.browser import Browser
from web.options import Options
from web.p2p.codes import (
    Answer,
    CodeError,
    Invite,
    answer_sdp,
    decode_answer,
    decode_invite,
    encode_answer,
    encode_invite,
    offer_sdp,
    parse_sdp,
)
from web.p2p.guest import SeatState
from web.p2p.host import LOCAL, HostTable
from web.p2p.protocol import Intent, intent_text
from web.p2p.qr import qr_svg
from web.storage import Records
from web.table.controller import Table
from web.table.local import LocalSeat
from web.table.remote import RemoteSeat

__all__ = ["Friends"]

STUN = "stun:stun.l.google.com:19302"
GONE = ("The host's page closed or reloaded, so this table has closed. If the host opens it "
        "again, they can send you a new invite to sit back down.")
BACK = ("Your private table is back where it was. The computer plays your friends' seats "
        "until they join again: send each of them the new invite link for their seat. Or "
        "carry the game on by yourself against the computers.")
SOLO = "Carry on alone against the computers"
INTRO = ("Your private table is open. Send each friend the invite link for their seat. They "
         "send you back an answer code: paste it next to their seat and press Connect. Your "
         "page deals and runs the game; their pages connect straight to yours, with no server "
         "in between. The computer plays every seat nobody takes.")

SKELETON = f"""
<h2 id="friends-title">Play with friends</h2>
<p id="fr-intro">{INTRO}</p>
<fieldset id="fr-net">
  <legend>How to connect</legend>
  <label><input type="radio" name="fr-net" value="local" checked> Same network only (the same
    Wi-Fi or home network). Nothing goes to anyone else.</label>
  <label><input type="radio" name="fr-net" value="stun"> Across the internet, with Google's
    public STUN server ({STUN[5:]}). It learns your public address, nothing about the
    game.</label>
  <label><input type="radio" name="fr-net" value="turn"> Through my own TURN server:</label>
  <span class="fr-turn">
    <label>Server address <input id="fr-turn-url" type="text" placeholder="turn:example.org:3478"
      autocomplete="off" spellcheck="false"></label>
    <label>User name <input id="fr-turn-user" type="text" autocomplete="off"></label>
    <label>Password <input id="fr-turn-pass" type="password" autocomplete="off"></label>
  </span>
  <p class="fr-note">Some networks (many offices and some mobile networks) block direct
    connections; there only a TURN server gets through.</p>
</fieldset>
<section id="fr-invites" hidden aria-label="Invitations"></section>
<section id="fr-join" hidden aria-label="Your invitation">
  <p id="fr-join-note"></p>
  <p class="fr-actions"><button type="button" class="primary" id="fr-make-answer"
    data-act="answer" hidden>Try again</button></p>
  <p id="fr-answer-row" hidden><label>Your answer code: send it back to the person who
    invited you <input id="answer-code" type="text" readonly spellcheck="false"></label>
    <button type="button" data-act="copy" data-copy="answer-code">Copy</button></p>
</section>
<section id="fr-paste" hidden aria-label="Join a friend's table">
  <p><label>Invited by a friend? Paste their invite link or code <input id="fr-paste-code"
    type="text" autocomplete="off" spellcheck="false"></label>
    <button type="button" data-act="join" id="fr-join-button">Join</button></p>
  <p class="fr-note" id="fr-paste-note" hidden>Joining closes the table you opened here.</p>
</section>
<p id="fr-error" class="fr-error" role="alert"></p>
<p id="fr-status" class="fr-note" role="status" aria-live="polite"></p>
<details id="fr-refusals" hidden><summary></summary>
  <p class="fr-note">Your table turned these down and carried on. A friend's page never
    sends them by itself: they come from a changed page or a bad connection.</p>
  <ol></ol></details>
<p class="fr-actions">
  <button type="button" class="primary" data-act="solo" id="fr-solo" hidden>{SOLO}</button>
  <button type="button" data-act="leave" id="fr-leave" hidden>Leave the table</button>
  <button type="button" data-act="close" id="fr-close">Close</button>
</p>
"""


def _attr(node: Any, name: str) -> str:
    """An attribute's value ("" when it is missing)."""
    value = node.getAttribute(name)
    return value if isinstance(value, str) else ""


def _now() -> float:
    return time.monotonic()


class Friends:
    """The dialog and whichever side of a private table this page is on."""

    def __init__(self, browser: Browser, table: Table, local: LocalSeat, records: Records,
                 opts: Options) -> None:
        self.browser = browser
        self.window = browser.window
        self.table = table
        """The page's felt table, where every seat at a private table is played."""
        self.local = local
        """The page's own game against the computers (the table shows it when at no table)."""
        self.records = records
        self.remote: RemoteSeat | None = None
        self.dialog = browser.by_id("friends")
        self.button = browser.by_id("open-table")
        self.instant = opts.instant
        self.grace = opts.grace
        self.role = ""
        self.host: HostTable | None = None
        self.table_id = 0
        self.tickets = 0
        self.pending: dict[int, tuple[int, str]] = {}
        """Host: seat -> (invite number, connection) of its open invite."""
        self.refused_seen = 0
        """Host: how many refused guest messages the page has shown."""
        self.pending_ice: dict[int, str] = {}
        """Host: seat -> the ICE servers (JSON) its open invite was made with."""
        self.conn_seat: dict[str, int] = {}
        self.invite: Invite | None = None
        self.conn: str | None = None
        self.seat = SeatState()
        self.busy = False
        self._tasks: set[Any] = set()
        self.left: tuple[Game, bool] | None = None
        """Host: the game of the table this page closed, and whether its hand had just
        ended (its summary unseen), until it is carried on alone or forgotten."""
        self.saved_at: tuple[int, int, bool, bool] | None = None
        """Host: what the last save held (game, events, started, host ready)."""

    def start(self) -> None:
        """Listen to the dialog, the button and the connections; read an invite link."""
        if self.dialog is None or self.browser.el(getattr(self.window, "heartsP2P", None)) \
                is None:
            return  # a page without the dialog or the WebRTC glue: no private tables
        self.p2p = self.window.heartsP2P
        self.dialog.innerHTML = SKELETON
        listen = self.browser.listen
        listen(self.dialog, "click", self.on_click)
        listen(self.button, "click", lambda _e: self.open_table())
        listen(self.dialog, "change", lambda _e: self.refresh_invites())
        listen(self.window, "hashchange", lambda _e: self.read_link())
        self.p2p.listen(*(self.browser.proxy(f) for f in (
            self.on_open, self.on_message, self.on_closed, self.on_leave)))
        self.button.disabled = False
        self.read_link()
        if not self.role:
            self.resume()

    def _q(self, selector: str) -> Any:
        return self.browser.query(selector, self.dialog)

    def open(self) -> None:
        if not self.dialog.open:
            self.dialog.showModal()

    def open_table(self) -> None:
        """The page's "Play with friends" button: open a table as host. A page at a table
        (hosting, or a guest seated or on the way) only shows the dialog again; a guest's
        page whose table has closed, or whose invite couldn't be used, opens its own."""
        self.open()
        if self.role == "guest" and self.conn is None:
            self._forget_table()
            self.error("")
        if not self.role:
            self.start_hosting()

    def error(self, text: str) -> None:
        self._q("#fr-error").textContent = text

    # --- network choice -------------------------------------------------------------------

    def ice_servers(self) -> str | None:
        """The ICE servers chosen, as JSON (None, with the reason shown, if incomplete)."""
        choice = str(self._q("input[name='fr-net']:checked").value)
        if choice == "stun":
            return json.dumps([{"urls": STUN}])
        if choice == "turn":
            url = str(self._q("#fr-turn-url").value).strip()
            if not url.startswith(("turn:", "turns:")):
                self.error("A TURN server's address starts with turn: or turns:.")
                return None
            return json.dumps([{"urls": url, "username": str(self._q("#fr-turn-user").value),
                                "credential": str(self._q("#fr-turn-pass").value)}])
        return "[]"

    # --- clicks ------------------------------------------------------------------------------

    def on_click(self, event: Any) -> None:
        target = self.browser.el(event.target.closest("[data-act]"))
        if target is None:
            return
        act = _attr(target, "data-act")
        if act in ("invite", "letin", "answer"):
            # Connection work waits its turn: one job at a time (each awaits the browser).
            if self.busy:
                return
            if act == "answer":
                self.run(self.make_answer())
            else:
                seat = int(_attr(target, "data-seat"))
                self.run(self.make_invites([seat]) if act == "invite" else self.let_in(seat))
        elif act == "close":
            self.dialog.close()
        elif act == "copy":
            self.copy(_attr(target, "data-copy"))
        elif act == "solo":
            self.solo()  # invites still being made see that the table is gone
        elif act == "join":
            self.join(str(self._q("#fr-paste-code").value))
        elif act == "begin" and self.host is not None:
            self.host.start()
            self.flush()
            # The host plays on the felt table; Play with friends brings this back.
            self.dialog.close()
            self.table.view.hand.focus()
        elif act == "leave":
            self.leave()

    def run(self, job: Any) -> None:
        async def guarded() -> None:
            self.busy = True
            try:
                await job
            finally:
                self.busy = False
            self.refresh_invites()
        self._tasks.add(task := asyncio.ensure_future(guarded()))
        task.add_done_callback(self._tasks.discard)

    def copy(self, element_id: str) -> None:
        field = self._q(f"#{element_id}")
        if field is None:
            return
        field.select()
        try:
            copied = bool(self.browser.document.execCommand("copy"))
        except Exception:
            copied = False
        self.error("")
        self._q("#fr-status").textContent = ("Copied." if copied else
                                          "Selected: copy it with your device's Copy command.")

    def send(self, intent: Intent) -> None:
        """This seat's intent: straight to the host table on the host, else over the wire."""
        if self.host is not None:
            self.host.local(intent)
            self.flush()
        elif self.conn is not None:
            self.p2p.send(self.conn, intent_text(intent))

    # --- hosting -------------------------------------------------------------------------

    def _keep(self, text: str | None) -> None:
        """Store (or with None forget) the host's table; a browser that refuses just loses
        the ability to carry on after a reload."""
        self.records.keep_table(text)

    def resume(self) -> None:
        """A table this page hosted before it reloaded: open it again where it was."""
        text = self.records.table()
        if text is None:
            return
        table = HostTable.resume(str(text), grace=self.grace)
        if table is None:
            self._keep(None)
            return
        self.open()
        self.start_hosting(table)
        self._q("#fr-intro").textContent = BACK

    def start_hosting(self, resumed: HostTable | None = None) -> None:
        """Open a table (or ``resumed``, one saved before a reload): an invite for each of
        the three other seats."""
        if self.role:
            return
        self.role = "host"
        self.table_id = random.getrandbits(32)
        self.host = resumed if resumed is not None else HostTable(
            Game.new(), grace=self.grace, level=self.records.settings.level)
        self.dialog.dataset.role = "host"
        rows = []
        for seat in (1, 2, 3):
            name = SEAT_NAMES[seat]
            rows.append(
                f'<div class="fr-invite" data-invite-seat="{seat}"><p><strong>{name}:</strong> '
                f'<span id="fr-kind-{seat}"></span> <button type="button" data-act="invite" '
                f'data-seat="{seat}" id="fr-invite-{seat}">New invite for {name}</button></p>'
                f'<div class="fr-steps" hidden><p><label>Invite link for {name}: send it '
                f'to your friend <input type="text" readonly class="invite-link" '
                f'id="fr-link-{seat}" spellcheck="false"></label> <button type="button" '
                f'data-act="copy" data-copy="fr-link-{seat}">Copy</button></p>'
                f'<details class="fr-qr"><summary>QR code for {name}\'s phone</summary>'
                f'<div id="fr-qr-{seat}"></div></details>'
                f'<p><label>Their answer code <input type="text" class="answer" '
                f'id="fr-code-{seat}" autocomplete="off" spellcheck="false"></label> '
                f'<button type="button" class="connect" data-act="letin" data-seat="{seat}">'
                f'Connect</button></p></div></div>')
        rows.append('<p class="fr-actions"><button type="button" class="primary" '
                    'data-act="begin" id="fr-begin">Start the game</button></p>')
        self._q("#fr-invites").innerHTML = "".join(rows)
        self._q("#fr-invites").hidden = False
        self._q("#fr-leave").hidden = False
        self._q("#fr-leave").textContent = "Close the table"
        self.host.broadcast()
        self.flush()
        # The host plays its own seat on the felt table, like a guest, through the same
        # messages (``LOCAL``); only the table's page may deal a new game.
        self.remote = RemoteSeat(self.seat, self.send, deal=self.new_table_game,
                                 start_over=self.new_table_game)
        self.table.seat_at(self.remote)
        self._tasks.add(asyncio.ensure_future(self.host_loop()))
        self.run(self.make_invites([1, 2, 3]))

    def new_table_game(self) -> None:
        """Host: a new game for everyone at the table (friends keep their seats)."""
        if self.host is None or self.host.closed:
            return
        self.host.new_game(Game.new())
        self.flush()

    def refresh_invites(self) -> None:
        """Host: remake the open invites made with another way to connect than the one
        chosen now (their codes would carry the wrong network addresses)."""
        if self.host is None or self.busy or self.host.closed:
            return
        choice = str(self._q("input[name='fr-net']:checked").value)
        if choice == "turn" and not str(self._q("#fr-turn-url").value).strip():
            return  # still typing the TURN server's details
        ice = self.ice_servers()
        stale = [seat for seat in self.pending if self.pending_ice.get(seat) != ice]
        if ice is not None and stale:
            self.run(self.make_invites(stale))

    async def make_invites(self, seats: list[int]) -> None:
        """New invites for ``seats``, made side by side (each waits for its addresses)."""
        await asyncio.gather(*(self.make_invite(seat) for seat in seats))

    def _steps(self, seat: int) -> Any:
        return self._q(f"[data-invite-seat='{seat}'] .fr-steps")

    async def make_invite(self, seat: int) -> None:
        ice = self.ice_servers()
        host = self.host
        if ice is None or host is None or host.kind(seat) in ("friend", "away"):
            return
        self.error("")
        old = self.pending.pop(seat, None)
        self.pending_ice.pop(seat, None)
        if old is not None:
            self.p2p.close(old[1])
        self._q(f"#fr-kind-{seat}").textContent = "making an invite…"
        reply = json.loads(str(await self.p2p.offer(ice, 5000)))
        if "error" in reply:
            self.error("The browser couldn't prepare a connection: " + reply["error"])
            self.render()
            return
        self.tickets = (self.tickets + 1) % 64
        try:
            code = encode_invite(Invite(self.table_id, seat, self.tickets,
                                        int(time.time() // 60), parse_sdp(reply["sdp"])))
        except CodeError as problem:
            self.p2p.close(reply["id"])
            self.error(str(problem))
            self.render()
            return
        if self.host is not host or host.closed:
            self.p2p.close(reply["id"])
            return
        self.pending[seat] = (self.tickets, reply["id"])
        self.pending_ice[seat] = ice
        self.conn_seat[reply["id"]] = seat
        location = self.window.location
        link = f"{location.origin}{location.pathname}#join={code}"
        self._q(f"#fr-link-{seat}").value = link
        self._q(f"#fr-qr-{seat}").innerHTML = qr_svg(
            link, title=f"QR code of the invite link for {SEAT_NAMES[seat]}")
        self._q(f"#fr-code-{seat}").value = ""
        self._steps(seat).hidden = False
        self.render()

    async def let_in(self, seat: int) -> None:
        if self.host is None:
            return
        self.error("")
        try:
            answer = decode_answer(str(self._q(f"#fr-code-{seat}").value), self.table_id)
        except CodeError as problem:
            self.error(str(problem))
            return
        pending = self.pending.get(answer.seat)
        if answer.seat != seat or pending is None or pending[0] != answer.ticket:
            where = SEAT_NAMES[answer.seat]
            self.error(f"That answer is for an invite to {where} that was replaced or already "
                       "used: make a new invite for that seat." if answer.seat == seat or
                       pending is None or pending[0] != answer.ticket else
                       f"That answer is for {where}'s invite: paste it there.")
            return
        self._q(f"#fr-kind-{seat}").textContent = "connecting…"
        reply = json.loads(str(await self.p2p.accept(pending[1],
                                                             answer_sdp(answer.endpoint))))
        if "error" in reply:
            self.error("The browser refused that answer: " + reply["error"])
            self.render()

    async def host_loop(self) -> None:
        """Computer moves at a visible pace, grace periods, until the table closes."""
        pace = 0.05 if self.instant else 0.7
        last = 0.0
        while True:
            await asyncio.sleep(0.05)
            host = self.host
            if host is None or host.closed:
                return
            now = _now()
            changed = host.tick(now)
            if host.due() and now - last >= pace:
                last = now
                host.computer_step()
                changed = True
            if changed:
                self.flush()

    def flush(self) -> None:
        """Deliver the host table's messages (its own seat's to this page) and hang-ups."""
        host = self.host
        if host is None:
            return
        self.show_refusals(host)
        out, host.outbox = host.outbox, []
        for conn, text in out:
            if conn == LOCAL:
                kind = self.seat.receive(text)
                if kind is not None and self.remote is not None:
                    self.remote.update(kind)
            else:
                self.p2p.send(conn, text)
        hangups, host.hangups = host.hangups, []
        for conn in hangups:
            self.conn_seat.pop(conn, None)
            self.p2p.close(conn)
        saved = (id(host.game), len(host.game.events), host.started, 0 in host.waiting_ready)
        if not host.closed and saved != self.saved_at:
            self.saved_at = saved
            self._keep(host.to_json())
        self.render()

    def show_refusals(self, host: HostTable) -> None:
        """The host's log of refused guest messages: in the dialog, and as console warnings."""
        seen = self.refused_seen
        if host.refused == seen:
            return
        fresh = host.refusals[-min(host.refused - seen, len(host.refusals)):]
        for line in fresh:
            self.window.console.warn("Private table: refused " + line)
        self.refused_seen = host.refused
        self.dialog.dataset.refused = str(host.refused)
        box = self._q("#fr-refusals")
        box.hidden = False
        box.querySelector("summary").textContent = (
            f"Messages from guests turned down: {host.refused}")
        box.querySelector("ol").innerHTML = "".join(
            f"<li>{html.escape(line)}</li>" for line in host.refusals[-10:])

    # --- joining ---------------------------------------------------------------------------

    def read_link(self) -> None:
        """An invite link (``#join=CODE``) in the address, when the page opens or later (a
        link opened in a tab already showing the game changes only the fragment): take it
        out of the address bar and join."""
        fragment = str(self.window.location.hash)
        if not fragment.startswith("#join="):
            return
        self.window.history.replaceState(None, "", str(self.window.location.pathname)
                                    + str(self.window.location.search))
        self.join(fragment)

    def can_join(self) -> bool:
        """Whether joining a table now loses nothing: not while seated at a friend's table,
        nor while hosting a game that has started."""
        if self.role == "guest":
            return self.seat.state is None or self.conn is None  # not seated yet, or gone
        if self.role == "host" and self.host is not None:
            return not self.host.started
        return True

    def join(self, code: str) -> None:
        """Take a seat with the invite ``code`` (a code or a whole link): check it, then make
        the answer to send back."""
        self.open()
        if not self.can_join():
            self.error("You're already playing at a private table: leave it first (Leave the "
                       "table or Close the table), then open the invite again.")
            return
        try:
            invite = decode_invite(code.strip(), int(time.time() // 60))
        except CodeError as problem:
            if self.role == "":  # the page opened with a broken link: it stays a guest's
                self.role = "guest"
                self._show_join_section()
                self._q("#fr-join-note").textContent = (
                    "This invite can't be used. Ask for a new one and paste it here.")
            self.error(str(problem))
            self.render()
            return
        self._forget_table()
        self.role = "guest"
        self.invite = invite
        self._show_join_section()
        self.error("")
        self._q("#fr-paste-code").value = ""
        # The host went through the internet: this page asks the same STUN server.
        wide = self.across_internet(invite)
        self._q("input[name='fr-net'][value='stun']").checked = wide
        self._q("input[name='fr-net'][value='local']").checked = not wide
        self._q("#fr-answer-row").hidden = True
        self._q("#answer-code").value = ""
        self._q("#fr-join-note").textContent = self.join_note(
            invite, "Your page is making your answer code…")
        self.run(self.make_answer())

    @staticmethod
    def across_internet(invite: Invite) -> bool:
        """Whether the host's invite holds addresses beyond its own network."""
        return any(c.kind != "host" for c in invite.endpoint.candidates)

    def join_note(self, invite: Invite, step: str) -> str:
        """What the guest's dialog says about the invite, where its page asks, and ``step``."""
        where = (f" The host connects across the internet, so your page asks Google's public "
                 f"STUN server ({STUN[5:]}) for your public address; it learns nothing about "
                 "the game." if self.across_internet(invite) else "")
        return (f"You're invited to a private Hearts table, to sit at "
                f"{SEAT_NAMES[invite.seat]}.{where} {step}")

    def _show_join_section(self) -> None:
        self.dialog.dataset.role = self.role
        self._q("#fr-intro").hidden = True
        self._q("#fr-net").hidden = True
        self._q("#fr-join").hidden = False

    def _forget_table(self) -> None:
        """Before joining: close the table this page opened (nobody has played yet) or the
        connection of an earlier invite; the page is at no table afterwards."""
        if self.host is not None:
            self.host.close()
            self.flush()
            self.host = None
        if self.conn is not None:
            self.p2p.close(self.conn)
            self.conn = None
        self._drop_invites()
        for conn in list(self.conn_seat):
            self.p2p.close(conn)
        self.conn_seat.clear()
        if self.role == "host":
            self.left = None
            self._keep(None)
        self.leave_felt()
        self.role = ""
        self.seat = SeatState()
        self.saved_at = None
        self.dialog.dataset.role = ""
        self.dialog.dataset.connected = "false"
        self._q("#fr-invites").hidden = True
        self._q("#fr-invites").innerHTML = ""
        self._q("#fr-intro").textContent = INTRO
        self._q("#fr-intro").hidden = False
        self._q("#fr-net").hidden = False
        self._q("#fr-join").hidden = True

    async def make_answer(self) -> None:
        ice = self.ice_servers()
        invite = self.invite
        if ice is None or invite is None or self.conn is not None:
            return
        self.error("")
        self._q("#fr-make-answer").hidden = True
        reply = json.loads(str(await self.p2p.answer(ice, offer_sdp(invite.endpoint),
                                                             5000)))
        if "error" in reply:
            self.error("The browser couldn't use this invite: " + reply["error"])
            self._q("#fr-make-answer").hidden = False
            return
        try:
            code = encode_answer(Answer(invite.table, invite.seat, invite.ticket,
                                        parse_sdp(reply["sdp"])))
        except CodeError as problem:
            self.p2p.close(reply["id"])
            self.error(str(problem))
            self._q("#fr-make-answer").hidden = False
            return
        self.conn = reply["id"]
        self._q("#answer-code").value = code
        self._q("#fr-answer-row").hidden = False
        self._q("#fr-join-note").textContent = self.join_note(
            invite, "Send this answer code back to the person who invited you. The table "
            "opens here once they paste it.")

    # --- connections -------------------------------------------------------------------------

    def on_open(self, conn: str) -> None:
        conn = str(conn)
        if self.host is not None:
            seat = self.conn_seat.get(conn)
            if seat is None or self.pending.get(seat, (0, ""))[1] != conn:
                self.p2p.close(conn)
                return
            del self.pending[seat]
            self.pending_ice.pop(seat, None)
            self._steps(seat).hidden = True
            if not self.host.join(conn, seat, _now()):
                self.p2p.close(conn)
            self.flush()
        elif conn == self.conn:
            self._q("#fr-join").hidden = True
            self._q("#fr-net").hidden = True
            self._q("#fr-leave").hidden = False
            self.dialog.dataset.connected = "true"
            # The guest plays on the felt table: the dialog steps aside.
            self.remote = RemoteSeat(self.seat, self.send, start_over=self.leave_for_own_game)
            self.table.seat_at(self.remote)
            self.dialog.close()
            self.render()

    def on_message(self, conn: str, text: str) -> None:
        conn = str(conn)
        if self.host is not None:
            self.host.receive(conn, str(text), _now())
            self.flush()
        elif conn == self.conn:
            kind = self.seat.receive(str(text))
            if kind == "closed":
                self.p2p.close(conn)
                self.conn = None
                self.table_gone()
            elif kind is not None and self.remote is not None:
                self.remote.update(kind)
            if kind is not None:
                self.render()

    def on_closed(self, conn: str) -> None:
        conn = str(conn)
        if self.host is not None:
            if conn in self.conn_seat:
                self.host.drop(conn, _now())
                self.flush()
        elif conn == self.conn:
            self.conn = None
            if self.seat.closed is None:
                self.seat.closed = "The connection to the host was lost."
            self.table_gone()
            self.render()

    def leave_felt(self) -> bool:
        """The felt table shows this page's own game again (if it showed a private table's
        seat); whether it did."""
        if self.remote is None:
            return False
        self.remote = None
        self.table.seat_at(self.local)
        return True

    def table_gone(self) -> None:
        """The guest's table closed: back to the page's own game, the dialog says why."""
        if self.leave_felt():
            self.open()

    def on_leave(self) -> None:
        """The page is going away: say goodbye while the connections are still open."""
        if self.host is not None:
            self.host.close(GONE)  # the saved table stays, to carry on after a reload
            self.flush()
        elif self.conn is not None:
            self.p2p.send(self.conn, intent_text(Intent("leave")))

    def leave_for_own_game(self) -> None:
        """Guest: leave the friend's table at once (the error dialog's New game); the
        computer takes the seat there and this page's own game takes the table back."""
        if self.conn is not None:
            self.send(Intent("leave"))
            self.p2p.close(self.conn)
            self.conn = None
        self.seat.closed = "You left the table."
        self.leave_felt()
        self.render()

    def _drop_invites(self) -> None:
        """Host: hang up the invites nobody answered (their codes can't open a seat now)."""
        for _ticket, conn in self.pending.values():
            self.p2p.close(conn)
        self.pending.clear()
        self.pending_ice.clear()

    def leave(self) -> None:
        if self.host is not None:
            host = self.host
            host.close()
            self.flush()
            self._drop_invites()
            self.leave_felt()
            self._keep(None)
            if host.started:
                self.left = (host.game, 0 in host.waiting_ready)
            self.seat.closed = ("You closed the table. Your friends' pages say so."
                                if self.left is None else
                                "You closed the table. Your friends' pages say so. You can "
                                "carry the game on by yourself against the computers.")
            self.host = None
        elif self.conn is not None:
            self.send(Intent("leave"))
        self.render()

    def can_go_solo(self) -> bool:
        """Host: whether this page's game can carry on as the single-player game."""
        if self.role != "host":
            return False
        if self.host is not None:
            game = self.host.game if self.host.started and not self.host.closed else None
        else:
            game = self.left[0] if self.left is not None else None
        return game is not None and game.phase is not Phase.GAME_OVER

    def solo(self) -> None:
        """Host: close the table (if it is still open) and carry its game on here as the
        single-player game against the computers; the private table is forgotten."""
        if not self.can_go_solo():
            return
        if self.host is not None:
            self.leave()
        assert self.left is not None
        game, scored = self.left
        # This page is no longer at a private table: the button may open a new one.
        self._forget_table()
        self.error("")
        self.render()
        self.dialog.close()
        self.local.adopt(game, scored)
        self.table.render()

    # --- drawing ---------------------------------------------------------------------------

    def render(self) -> None:
        """Draw this seat from the host's latest state message."""
        d = self.dialog.dataset
        host = self.host
        if host is not None:
            for seat in (1, 2, 3):
                kind = host.kind(seat)
                words = {"friend": "a friend is playing", "away": "a friend is reconnecting…",
                         "computer": "the computer plays", "open": "empty (the computer plays "
                         "it unless you invite someone)"}[kind]
                if seat in self.pending and kind != "friend":
                    words = "invited: waiting for their answer code"
                self._q(f"#fr-kind-{seat}").textContent = words
                self._q(f"#fr-invite-{seat}").hidden = kind in ("friend", "away")
                self._steps(seat).hidden = seat not in self.pending or kind in ("friend",
                                                                                "away")
            self._q("#fr-begin").hidden = host.started
        closed = self.seat.closed
        state = self.seat.state
        d.closed = "true" if closed else "false"
        self._q("#fr-paste").hidden = not self.can_join()
        self._q("#fr-paste-note").hidden = self.host is None
        self._q("#fr-solo").hidden = not self.can_go_solo()
        self._q("#fr-leave").hidden = bool(closed) or not self.role or (
            self.role == "guest" and self.conn is None)
        if closed:
            self._q("#fr-invites").hidden = True
            self.error(closed)
            return
        if state is None:
            d.stage = "connecting" if self.role == "guest" else ""
            return
        view = state.view
        me = view.seat
        d.stage = state.stage
        d.seat = str(me)
        d.waiting = ",".join(str(s) for s in state.waiting)
        d.turn = "true" if state.stage == "play" and view.my_turn else "false"
        d.hand = str(view.hand_number)
