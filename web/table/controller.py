"""The table: the person's input goes to the seat, the seat's news comes back drawn.

``Table`` holds the seat this page plays (any ``web.table.seat.Seat``), the page's own
state (``PageState``) and the renderer. Each input is checked against the seat's snapshot
(the refusal, in words, is said here, once for every kind of seat), then sent to the seat
as an intent; whenever the seat reports news, the table builds a new ``TableModel`` and
draws it. It never asks what kind of seat it has: ``seat_at`` swaps one seat for another
(joining a friend's table, coming back to the game against the computers).
"""

from __future__ import annotations

import traceback
from collections.abc import Callable

from hearts import Card, Phase, PlayerView
from web import players, words
from web.browser import Browser
from web.slow_steps import timed
from web.storage import Records
from web.table.announce import Announcer
from web.table.dialogs import Dialogs
from web.table.held import left_to_read, reading
from web.table.model import PageState, build, choose_refusal, play_refusal
from web.table.seat import Seat
from web.table.sound import Sound
from web.table.view import TableView
from web.tasks import Tasks

__all__ = ["Table"]


class Table:
    """The felt table and the seat it shows."""

    def __init__(self, browser: Browser, records: Records, seat: Seat) -> None:
        self.browser = browser
        self.records = records
        self.page = PageState()
        self.dialogs = Dialogs(browser, self.focus_home)
        self.view = TableView(browser, self.dialogs)
        el = self.view.el
        self.announcer = Announcer(el["status"], el["alert"])
        self.sound = Sound(browser, lambda: records.settings.sound)
        self.seat = seat
        self.pending: Callable[[], None] | None = None
        """What the New game confirmation starts (None: a new game; else the daily…)."""
        self.hints = Tasks(on_error=self._hint_failed)
        self.hinting: PlayerView | None = None
        """The view a hint is being searched for (None: no search running)."""
        self.open_coach: Callable[[], None] = lambda: None
        """Opens the Coach dialog (``web.table.coach_panel.CoachPanel.open``, wired by main)."""
        self.held: Seat | None = None
        """A table's seat waiting behind the summary the person reads (``web.table.held``)."""

    # --- News: what the seat tells the table ---------------------------------------------

    def say(self, text: str, show: bool = False) -> None:
        self.announcer.queue(text)
        if show:
            self.view.event(text)

    def flush(self) -> None:
        self.announcer.flush()

    def alert(self, text: str) -> None:
        self.announcer.alert(text)

    def tell(self, text: str) -> None:
        self.announcer.tell(text)

    def changed(self, fresh: str | None = None) -> None:
        self.render(fresh)

    def cue(self, name: str | None) -> None:
        self.sound.play(name)

    # --- the seat ------------------------------------------------------------------------

    def seat_at(self, seat: Seat, hold: bool = False) -> None:
        """Show ``seat`` from now on (the one shown before stops what it had in flight);
        ``hold``: once the person has moved on from the summary they're reading, if any."""
        if hold and reading(self.seat.snapshot(), self.page):
            self.held = seat
            self._count_down()
            return
        self.held = None
        self.page.next_in = None
        self.seat.detach()
        self.announcer.pending.clear()
        self.view.clear_event()
        self.page = PageState(ready=self.page.ready)
        self.seat = seat
        seat.attach(self)
        self.render()

    def start(self) -> None:
        """The page is ready for input: draw, and let the seat begin (the computers' turn)."""
        self.page.ready = True
        self.render()
        root = self.browser.document.documentElement
        root.dataset.readyMs = str(round(self.browser.now_ms()))
        root.dataset.ready = "true"
        self.seat.attach(self)

    def render(self, fresh: str | None = None, again: bool = True) -> None:
        """Draw the table as the seat has it (``fresh``: a card just played); ``again``:
        even if it is the table as last drawn (False: a second draw in one task skipped)."""
        snap = self.seat.snapshot()
        if self.held is not None and not reading(snap, self.page):
            self.seat_at(self.held)  # the person moved on: the table waiting is shown
            return
        with timed("felt model"):
            model = build(snap, self.page, self.records.stats)
        if not again and fresh is None and model == self.view.drawn:
            return
        with timed("felt draw"):
            self.view.draw(model, fresh)

    def tick(self, now_ms: float, visible: bool) -> None:
        """The page's clock (every half second): the seat's timers, and a table waiting
        behind the summary counted down."""
        self.seat.tick(now_ms, visible)
        if self.held is not None:
            self._count_down()

    def _count_down(self) -> None:
        """The summary's countdown to the table waiting behind it; shown once it is out."""
        assert self.held is not None
        left = left_to_read(self.held.snapshot())
        if left == 0:
            self.seat_at(self.held)
            return
        if left != self.page.next_in:
            self.page.next_in = left
            self.render()

    # --- input ---------------------------------------------------------------------------

    def on_card(self, card: Card, clicks: int, at: tuple[float, float] | None = None) -> None:
        """A card of the hand was clicked (``clicks``: 2 for a double click's second; 0 for
        a key, which has no finger to land on a card that slid under it) at the point
        ``at`` of the page (None: not tapped there, as a key or a tap kept from before)."""
        if not self.page.ready:
            return
        if clicks and at is not None and \
                self.view.hand.slid_under(card.notation, self.browser.now_ms(), *at) and \
                not self.browser.document.documentElement.classList.contains("instant"):
            # It slid under the finger: the tap was meant for the card that was there. (At
            # ?speed=instant, the tests' pace, clicks come as fast as the table answers,
            # each meant for the card it lands on.)
            return
        snap = self.seat.snapshot()
        view = snap.view
        self.page.review = False
        if view is None or snap.result is not None or snap.stage == "over":
            return
        if view.phase is Phase.PASS:
            if snap.moving:
                return
            reason = choose_refusal(snap, card)
            if reason is not None:
                self.alert(reason)
                return
            self.page.hint = ()
            self.announcer.alert("")
            self.seat.toggle(card)
            self.flush()
            return
        if clicks > 1:
            return  # a double click's second click: it must not play your next card too
        reason = play_refusal(snap, card)
        self.page.hint = ()
        if reason is not None:
            self.alert(reason)
            self.render()
            return
        self.announcer.alert("")
        self.seat.play(card)

    def on_painted_taps(self, cards: list[str]) -> None:
        """Cards tapped on the table painted before Python was up (web/static/boot.js), in
        order: each is made now, as a tap would be, so one no longer legal is refused with
        its reason."""
        for notation in cards:
            try:
                card = Card.parse(notation)
            except ValueError:
                continue
            self.on_card(card, 1)

    def on_pass(self) -> None:
        snap = self.seat.snapshot()
        if not self.page.ready or not snap.may_pass or snap.moving or snap.result is not None:
            return
        if len(snap.selected) != 3:
            self.alert(words.CHOOSE_THREE)
            return
        self.page.hint = ()
        self.announcer.alert("")
        self.view.hand.forget_taps()
        self.seat.pass_cards()
        self.view.hand.focus()  # the Pass button goes away: the focus stays with the hand

    def on_play_out(self) -> None:
        """The Play out the rest button: the rest of the hand can't change any points."""
        if self.page.ready and self.seat.snapshot().can_play_out:
            self.page.review = False
            self.page.hint = ()
            self.seat.play_out()

    def on_hint(self) -> None:
        snap = self.seat.snapshot()
        view = snap.view
        if not self.page.ready or view is None or snap.result is not None:
            return
        if not ((snap.may_pass and not snap.moving) or snap.may_play):
            self.say_now(words.HINT_LATER)
            return
        if self.hinting is None:  # (one search at a time: a second press waits for it)
            self.hinting = view
            self.view.el["hint"].setAttribute("aria-busy", "true")
            self.hints.spawn(self._hint(view), on_done=self._hinted)

    async def _hint(self, view: PlayerView) -> None:
        """The hint's search, in slices; shown only if the decision is still the person's."""
        advice = await players.hint(view)
        snap = self.seat.snapshot()
        now = snap.view
        if not self.page.ready or now is None or snap.result is not None \
                or not ((snap.may_pass and not snap.moving) or snap.may_play) \
                or not _same_decision(now, view):
            return
        self.seat.hinted()
        self.page.hint = tuple(c.notation for c in advice.cards)
        self.say_now(words.hint_text(advice))
        self.render()

    def _hinted(self) -> None:
        self.hinting = None
        self.view.el["hint"].removeAttribute("aria-busy")

    def _hint_failed(self, error: BaseException) -> None:
        self._hinted()
        traceback.print_exception(error)  # the console: the table plays on

    def on_undo(self) -> None:
        if self.page.ready and self.seat.snapshot().can_undo:
            self.page.review = False
            self.page.hint = ()
            self.seat.undo()

    def on_review(self, show: bool = False) -> None:
        """The Last trick button (toggles the view) or the L key (shows it, reads it)."""
        view = self.seat.snapshot().view
        if not self.page.ready or view is None:
            return
        if not view.tricks:
            if show:
                self.say_now(words.last_trick_text(view))
            return
        self.page.review = True if show else not self.page.review
        if self.page.review:
            self.say_now(words.last_trick_text(view))
        self.render()

    def on_escape(self) -> None:
        if self.page.review:
            self.page.review = False
            self.render()

    def on_new_game(self, confirmed: bool = False,
                    then: Callable[[], None] | None = None,
                    asking: words.Ask = words.NEW_GAME_ASK) -> None:
        """New game (or ``then``: another start, the daily deal, a friend's code); a game
        under way is only thrown away once the person confirms (``asking``: the question,
        if not "Start a new game?": the daily deal names itself)."""
        snap = self.seat.snapshot()
        if not self.page.ready or not snap.can_deal:
            return
        if snap.at_stake and not confirmed:
            self.pending = then
            for name, text in zip(("confirm-new-title", "confirm-new-desc", "confirm-new-game"),
                                  asking, strict=True):
                self.browser.element(name).textContent = text
            self.dialogs.open(self.view.el["confirm-new"])
            return
        start = self.pending if confirmed else then
        self.pending = None
        self.page = PageState(ready=True)
        self.view.clear_event()
        (start or self.seat.new_game)()
        self.focus_home()

    def start_over(self) -> None:
        """The error dialog's New game: a fresh start at once (what that is, the seat says)."""
        self.page = PageState(ready=self.page.ready)
        self.view.clear_event()
        self.seat.start_over()
        self.render()

    def on_summary_button(self, name: str) -> None:
        """The summary's button: ``next-hand``, ``summary-new-game``, ``summary-close`` or
        ``summary-review`` (the coach)."""
        if name == "next-hand":
            self.next_hand()
        elif name == "summary-new-game":
            self.on_new_game()
        elif name == "scores-again":
            self.page.dismissed = False
            self.render()
        elif name == "summary-review":
            self.open_coach()
        elif name == "summary-close":
            self.page.dismissed = True
            self.render()
            self.focus_home()

    def on_summary_escape(self) -> None:
        """Esc on the summary: a hand summary moves on; the game-over one just closes."""
        if self.seat.snapshot().stage == "over":
            self.on_summary_button("summary-close")
        else:
            self.next_hand()

    def next_hand(self) -> None:
        snap = self.seat.snapshot()
        if self.held is not None:  # the person moved on: to the table that waits
            self.seat_at(self.held)
            self.view.hand.focus()
            return
        if snap.result is None or snap.stage == "over":
            return
        self.view.clear_event()  # the last trick's line belongs to the hand just over
        self.seat.next_hand()
        self.render(again=False)  # (a seat may have had the table drawn on its own)
        self.view.hand.focus()

    def on_moon(self, choice: str) -> None:
        """A button of the shooter's choice: score the person's moon as ``choice``."""
        if self.page.ready and self.seat.snapshot().may_choose_moon:
            self.seat.choose_moon(choice)

    def on_react(self, key: str) -> None:
        if self.seat.snapshot().chat:
            self.seat.react(key)

    def say_now(self, text: str) -> None:
        self.announcer.say(text)
        self.view.event(text)

    # --- focus ----------------------------------------------------------------------------

    def focus_home(self) -> None:
        self.view.focus_home()


def _same_decision(now: PlayerView, then: PlayerView) -> bool:
    """Whether ``now`` asks the decision ``then`` did (a hint searched for ``then`` holds)."""
    return (now.hand_number, now.phase, now.hand, now.passed, now.trick, len(now.tricks)) \
        == (then.hand_number, then.phase, then.hand, then.passed, then.trick, len(then.tricks))
