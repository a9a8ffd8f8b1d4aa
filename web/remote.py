"""A seat at a friend's table, played on the felt table: the remote side of the table's seam.

``web.app.Table`` plays the local game itself; while ``Table.attach(RemoteSeat(...))`` is in
effect it hands the person's input to this object and lets it draw instead. Here the game
belongs to the host: the seat's ``PlayerView`` comes in ``web.p2p.guest.SeatState`` (fed by
``web.friends``), the person's moves go out as protocol intents, and the host checks them
all again. The table is drawn with the same functions as the local game (``web.felt``): the
seat at the bottom, its own hand only, dimmed cards with the rules' reason, the hint from
this seat's own view.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import Any

from hearts import SEAT_NAMES, Card, Phase, PlayerView
from hearts.rules import pass_target
from web import announce, felt, players
from web.p2p.guest import SeatState, TableState
from web.p2p.protocol import REACTIONS, Intent

__all__ = ["RemoteSeat"]


def _el(node: Any) -> Any:
    from pyodide.ffi import jsnull  # type: ignore[import-not-found]
    return None if node is None or node is jsnull else node


def _names(seats: list[int]) -> str:
    names = [SEAT_NAMES[s] for s in seats]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


class RemoteSeat:
    """The felt table's controller for a seat whose game runs on the host's page."""

    def __init__(self, table: Any, document: Any, seat: SeatState,
                 send: Callable[[Intent], None], *,
                 new_game: Callable[[], None] | None = None,
                 start_over: Callable[[], None] | None = None) -> None:
        self.table = table
        self.document = document
        self.seat = seat
        self.send = send
        self.new_game = new_game
        """The host's page only: deal a new game at the private table."""
        self.start_over = start_over
        """The error dialog's New game while at the table (see ``on_new_game``)."""
        self.selected: list[str] = []
        self.hint_cards: tuple[str, ...] = ()
        self.told = seat.told
        self.reacted = len(seat.reactions)
        self.refused: str | None = None
        self.sent_play = False
        """A card went to the host: the hand waits for the next state (no second card)."""
        self.dismissed = False
        self.bar = self._reactions_bar()

    # --- reading ---------------------------------------------------------------------------

    @property
    def hosting(self) -> bool:
        """This page runs the table (the host's own seat): it may start a new game."""
        return self.new_game is not None

    @property
    def state(self) -> TableState | None:
        return self.seat.state

    def where(self) -> str:
        """The stats bar's words for this seat."""
        return "Hosting a private table" if self.hosting else "At a friend's table"

    def view(self) -> PlayerView | None:
        state = self.seat.state
        return None if state is None else state.view

    def can_pass(self, state: TableState) -> bool:
        return state.stage == "pass" and state.view.passed is None

    def my_turn(self, state: TableState) -> bool:
        return state.stage == "play" and state.view.my_turn and not self.sent_play

    # --- the host's news ---------------------------------------------------------------------

    def update(self, kind: str) -> None:
        """A message of ``kind`` from the host arrived: say what happened, redraw."""
        state = self.seat.state
        fresh = min(self.seat.told - self.told, len(self.seat.log))
        new = self.seat.log[len(self.seat.log) - fresh:] if fresh > 0 else []
        self.told = self.seat.told
        announcer = self.table.announcer
        for line in new:
            announcer.queue(line)
            if line.startswith("Everyone has passed") and state is not None:
                announcer.queue(self.received_text(state.view))
        if len(self.seat.reactions) != self.reacted:
            self.reacted = len(self.seat.reactions)
            who, words = self.seat.reactions[-1]
            me = state.view.seat if state is not None else -1
            announcer.queue(f"{felt.seat_name(who, me)}: {words}")
        if state is not None and kind in ("state", "refused"):
            self.sent_play = False
            if state.stage != "over":
                self.dismissed = False
            if state.stage != "pass":
                self.selected = []
            if self.my_turn(state) and new:
                announcer.queue("Your turn: lead a card." if state.view.trick is None
                                else "Your turn.")
        announcer.flush()
        if self.seat.refusal and self.seat.refusal != self.refused:
            self.table.alert(self.seat.refusal)
        self.refused = self.seat.refusal
        self.render()

    def received_text(self, view: PlayerView) -> str:
        if not view.received:
            return ""
        giver = next(s for s in range(4) if pass_target(s, view.pass_direction) == view.seat)
        return f"You received {announce.cards_text(view.received)} from {SEAT_NAMES[giver]}."

    # --- input -------------------------------------------------------------------------------

    def on_card(self, card: Card, detail: int) -> None:
        state = self.seat.state
        if state is None:
            return
        view = state.view
        if state.stage == "pass":
            if not self.can_pass(state):
                self.table.alert("You've passed: the cards change hands once everyone has "
                                 "chosen.")
                return
            if card.notation in self.selected:
                self.selected.remove(card.notation)
            elif len(self.selected) >= 3:
                self.table.alert("You have chosen three cards already: tap one of them to put "
                                 "it back.")
                return
            else:
                self.selected.append(card.notation)
            self.hint_cards = ()
            n = len(self.selected)
            self.table.announce(f"{n} of 3 chosen." if n < 3 else "Three chosen: press Pass.")
            self.render()
            return
        if state.stage != "play" or detail > 1 or self.sent_play:
            return
        reason = felt.why_not(view, card)
        self.hint_cards = ()
        if reason is not None:
            self.table.alert(reason)
            self.render()
            return
        self.sent_play = True
        self.send(Intent("play", (card,)))
        self.render()

    def on_pass(self) -> None:
        state = self.seat.state
        if state is None or not self.can_pass(state):
            return
        if len(self.selected) != 3:
            self.table.alert("Choose exactly three cards to pass.")
            return
        cards = tuple(Card.parse(c) for c in self.selected)
        self.selected = []
        self.hint_cards = ()
        self.send(Intent("pass", cards))
        self.table.hand_view.focus()  # the Pass button goes away: focus back to the hand

    def on_hint(self) -> None:
        state = self.seat.state
        if state is None:
            return
        if not (self.can_pass(state) or self.my_turn(state)):
            self.table.announce("A hint is ready when it's your turn.")
            return
        advice = players.hint(state.view)
        self.hint_cards = tuple(c.notation for c in advice.cards)
        names = ", ".join(c.name for c in advice.cards)
        self.table.announce(f"Hint: {names}. {advice.reason}".strip())
        self.render()

    def on_summary(self, action: str) -> None:
        """The summary's button (``next-hand``, ``summary-close``) or Esc (``escape``)."""
        state = self.seat.state
        if state is None:
            return
        if state.stage == "scores" and state.ready and action in ("next-hand", "escape"):
            self.send(Intent("ready"))
        elif state.stage == "over" and action == "summary-new-game":
            self.on_new_game()
            return
        elif state.stage == "over":
            self.dismissed = True
        self.render()
        self.table.focus_home()

    def on_new_game(self, forced: bool = False) -> None:
        """The New game button: the host deals a new game for the whole table once this one
        is over. ``forced`` (the error dialog's New game): start over at any moment, as
        ``start_over`` decides (the host: a new game at the table; a guest: its own)."""
        state = self.seat.state
        if forced and self.start_over is not None:
            self.start_over()
        elif self.new_game is not None and state is not None and state.stage == "over":
            self.new_game()
            self.dismissed = False
            self.table.announce("New game.")
            self.table.focus_home()

    def on_bar_click(self, event: Any) -> None:
        button = _el(event.target.closest("[data-react]"))
        if button is not None and self.seat.state is not None:
            self.send(Intent("react", reaction=str(button.dataset.react)))

    def detached(self) -> None:
        """The table goes back to the local game: take away what this seat added."""
        if self.bar is not None:
            self.bar.remove()
            self.bar = None
        for box in self.document.querySelectorAll(".seat"):
            box.classList.remove("turn")

    # --- drawing -----------------------------------------------------------------------------

    def _reactions_bar(self) -> Any:
        felt_table = _el(self.document.getElementById("table"))
        if felt_table is None:
            return None
        bar = self.document.createElement("p")
        bar.id = "reactions"
        bar.className = "reactions"
        bar.setAttribute("role", "group")
        bar.setAttribute("aria-label", "Say to the table")
        bar.innerHTML = '<span aria-hidden="true">Say:</span>' + "".join(
            f'<button type="button" data-react="{key}">{html.escape(words)}</button>'
            for key, words in REACTIONS.items())
        felt_table.insertAdjacentElement("afterend", bar)
        self.table.listen(bar, "click", self.on_bar_click)
        return bar

    def render(self) -> None:
        t = self.table
        el = t.el
        state = self.seat.state
        root = self.document.documentElement
        if state is None:
            root.dataset.state = "wait"
            t.hand_view.update([], "Your hand")
            el["trick"].innerHTML = ""
            el["prompt"].textContent = "Connected. Waiting for the host…"
            for name in ("pass", "hint", "undo", "last-trick", "new-game"):
                el[name].disabled = True
            el["pass"].hidden = True
            return
        view = state.view
        stage = state.stage
        passing = self.can_pass(state)
        summary_open = (stage == "scores" and state.ready) or (stage == "over"
                                                              and not self.dismissed)
        if stage == "over":
            page_state = "over"
        elif summary_open:
            page_state = "summary"
        elif passing:
            page_state = "pass"
        elif self.my_turn(state):
            page_state = "play"
        else:
            page_state = "wait"
        root.dataset.state = page_state
        felt.draw_seats(self.document, view, view.to_play if stage == "play" else None,
                        state.kinds)
        self.render_trick(view, stage)
        hand = [] if summary_open or stage == "lobby" else felt.hand_states(
            view, selected=self.selected, received=felt.received_marked(view),
            hinted=set(self.hint_cards), waiting=not self.my_turn(state),
            can_pass=passing)
        count = len(hand)
        t.hand_view.update(hand, f"Your hand, {count} cards: choose 3 to pass" if passing
                           else f"Your hand, {count} card{'s' if count != 1 else ''}")
        el["hand"].classList.toggle("passing", view.phase is Phase.PASS)
        el["prompt"].textContent = self.prompt(state)
        el["new-game"].disabled = not (self.hosting and stage == "over")
        el["undo"].disabled = True
        el["hint"].disabled = page_state not in ("pass", "play")
        el["last-trick"].disabled = not view.tricks or summary_open
        el["last-trick"].setAttribute("aria-pressed", "true" if t.review else "false")
        n = len(self.selected)
        el["pass"].hidden = not passing
        el["pass"].disabled = not (passing and n == 3)
        el["pass"].textContent = f"Pass ({n} of 3)" if n != 3 else "Pass 3 cards"
        felt.draw_indicators(el, view)
        self.render_summary(state, summary_open)

    def render_trick(self, view: PlayerView, stage: str) -> None:
        t = self.table
        caption = ""
        winner = None
        trick = view.trick
        if t.review and view.tricks:
            trick = view.tricks[-1]
            winner = trick.winner
            caption = f"Last trick: {felt.seat_name(winner or 0, view.seat)} took it"
        elif (trick is None or not trick.cards) and view.tricks and stage == "play":
            trick = view.tricks[-1]  # the trick just won stays until the next card is led
            winner = trick.winner
        t.el["trick"].innerHTML = felt.trick_html(trick, view.seat, winner=winner)
        t.el["trick"].className = "trick" + (" review" if t.review else "")
        t.el["trick-caption"].textContent = caption

    def prompt(self, state: TableState) -> str:
        view = state.view
        others = [s for s in state.waiting if s != view.seat]
        if state.stage == "lobby":
            if self.hosting:
                return ("Invite your friends, then start the game: both are under Play with "
                        "friends.")
            return "You're at the table. The host will start the game."
        if state.stage == "pass":
            if self.can_pass(state):
                n = len(self.selected)
                return felt.pass_prompt(view) + (f" {n} of 3 chosen." if n else "")
            return f"Waiting for {_names(others)}…" if others else "Passing…"
        if state.stage == "play":
            if self.my_turn(state):
                return "Your turn: lead a card." if view.trick is None else "Your turn."
            if view.to_play is not None and not self.sent_play:
                return f"{felt.seat_name(view.to_play, view.seat, state.kinds)} is playing…"
            return ""
        if state.stage == "scores" and not state.ready and others:
            return f"Waiting for {_names(others)}…"
        if state.stage == "over":
            if self.hosting:
                return "Game over. Press New game to deal again for the same table."
            return "Game over. The host can start a new game."
        return ""

    def render_summary(self, state: TableState, summary_open: bool) -> None:
        t = self.table
        dialog = t.el["summary"]
        if not summary_open:
            t.dialogs.close(dialog)
            dialog.innerHTML = ""
            return
        last = state.last_hand or {}
        over = state.stage == "over"
        if over and self.hosting:
            button = ('<button type="button" id="summary-new-game" class="primary">New game'
                      '</button>')
        elif over:
            button = '<button type="button" id="summary-close" class="primary">Close</button>'
        else:
            button = '<button type="button" id="next-hand" class="primary">Next hand</button>'
        try:
            hand = int(last["hand"])
            scores = [int(v) for v in last["scores"]][:4]
            moon = None if last.get("moon") is None else int(last["moon"])
        except (KeyError, TypeError, ValueError):
            hand, scores, moon = None, None, None
        html_text = felt.summary_html(state.view, hand, scores if scores and len(scores) == 4
                                      else None, moon, over, button)
        if dialog.innerHTML != html_text:
            dialog.innerHTML = html_text
        if not t.dialogs.is_open(dialog):
            t.dialogs.open(dialog, _el(dialog.querySelector("button")))
