"""The card table: the only Python that touches the page.

Data flows one way: an input event calls the engine (``hearts.Game``), the engine's new
state and events are saved and presented, and ``render`` redraws the table from the
engine's view of South. The page decides no rule: legal cards, reasons, whose turn and
winners all come from the engine. Input that is not the person's to give (a click while
the computers play, a card during a pause) is ignored.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Coroutine
from typing import Any
from urllib.parse import parse_qs

from pyodide.ffi import create_proxy, jsnull  # type: ignore[import-not-found]
from pyscript import document, window  # type: ignore[import-not-found]

from hearts import (
    Card,
    CardPlayed,
    Game,
    GameOver,
    HandDealt,
    HandScored,
    HeartsBroken,
    LoadError,
    MoonShot,
    PassesExchanged,
    Phase,
    PlayerView,
    Trick,
    TrickWon,
)
from hearts.rules import SEAT_NAMES, pass_target
from web import announce, errors, felt, players, store
from web.dialogs import Dialogs
from web.hand_view import HandView

NAMES = ("You", "West", "North", "East")
SEAT_CLASS = ("south", "west", "north", "east")
# Seconds: (before each computer card, completed trick on show, trick sliding away)
DELAYS = {"slow": (1.1, 1.6, 0.45), "normal": (0.6, 1.0, 0.35), "fast": (0.25, 0.5, 0.25),
          "instant": (0.0, 0.0, 0.0)}


def _el(node: Any) -> Any:
    """A DOM query's result, with JavaScript's null (``jsnull`` in Pyodide) as None."""
    return None if node is None or node is jsnull else node


def _name(seat: int) -> str:
    return NAMES[seat]


def _fmt_clock(ms: float) -> str:
    seconds = int(ms // 1000)
    return f"{seconds // 60}:{seconds % 60:02d}"


REPORTER = errors.Reporter(document, window)
"""Shows any unexpected exception of the page's Python (see web/errors.py)."""
STORAGE_LOST = ("Your browser isn't letting this page store anything, so the game plays but "
                "your progress and stats won't be kept.")
STORAGE_FULL = ("Your browser's storage is full, so the game plays on but your progress from "
                "here won't be kept.")


class Storage:
    """localStorage that may be missing, disabled or full: failures become a flag."""

    def __init__(self) -> None:
        self.ok = True
        try:
            self._ls = window.localStorage
            probe = "hearts.probe"
            self._ls.setItem(probe, "1")
            self._ls.removeItem(probe)
        except Exception:
            self.ok = False
            self._ls = None

    def get(self, key: str) -> str | None:
        if self._ls is None:
            return None
        try:
            value = self._ls.getItem(key)
        except Exception:  # can't read: writing now could overwrite what is there
            self.ok = False
            self._ls = None
            return None
        return value if isinstance(value, str) else None

    def set(self, key: str, value: str) -> bool:
        if self._ls is None:
            return False
        try:
            self._ls.setItem(key, value)
        except Exception:
            self.ok = False
            return False
        return True

    def remove(self, key: str) -> None:
        if self._ls is not None:
            with contextlib.suppress(Exception):
                self._ls.removeItem(key)

    def freeze(self) -> None:
        """Write nothing more (the page is reloading onto what was just stored)."""
        self._ls = None


class Table:
    """The page's state around one ``Game``, and everything it draws."""

    def __init__(self) -> None:
        self.el = {name: document.getElementById(name) for name in (
            "table", "hand", "trick", "prompt", "pass", "hint", "undo", "last-trick",
            "new-game", "status", "notice", "summary", "stat-time", "stat-won", "stat-best",
            "pass-dir", "hearts-state", "trick-caption", "settings", "alert", "help",
            "settings-button", "help-button", "stat-where", "stat-clock")}
        query = parse_qs(str(window.location.search).lstrip("?"))
        self.instant = query.get("speed", [""])[0] == "instant"
        seed_text = query.get("seed", [""])[0]
        self.query_seed = int(seed_text) if seed_text.isdigit() else None
        if self.instant:
            document.documentElement.classList.add("instant")

        self.storage = Storage()
        REPORTER.use(self.storage)
        notices: list[str] = []
        self.settings, note = store.load_settings(self.storage.get(store.KEY_SETTINGS))
        notices += [note] if note else []
        self.stats, note = store.load_stats(self.storage.get(store.KEY_STATS))
        notices += [note] if note else []
        saved, note = store.load_save(self.storage.get(store.KEY_SAVE))
        notices += [note] if note else []
        if note:
            self.storage.remove(store.KEY_SAVE)
        self.storage_told = not self.storage.ok
        if not self.storage.ok:
            notices.append(STORAGE_LOST)
        self.saved = saved if saved is not None else store.Saved(Game.new(self.query_seed))
        self.seen = len(self.game.events)
        self.generation = 0
        self.busy = False
        self.ready = False
        self.held: TrickWon | None = None
        self.collecting: int | None = None
        self.hint_cards: tuple[str, ...] = ()
        self.review = False
        self.clock_last: float | None = None
        self.bots = self._make_bots()
        self._proxies: list[Any] = []
        self.announcer = announce.Announcer(self.el["status"], self.el["alert"])
        self.hand_view = HandView(self.el["hand"], document)
        self.dialogs = Dialogs(document, self.focus_home)
        self.refocus_wanted = False
        """The person's move will take away the focused control (Pass): give it back."""
        self.dismissed = False
        """The game-over dialog was closed with Esc: it stays closed until a new game."""
        self.remote: Any = None
        """A seat at a friend's table (``web.remote.RemoteSeat``) while this page sits at one:
        the table draws that seat's view and sends it the person's input, and the local game
        waits (see ``attach``)."""
        self.apply_display()
        self.show_notice(" ".join(notices))
        self.save()
        self.save_stats()

    # --- state ---------------------------------------------------------------------------

    @property
    def game(self) -> Game:
        return self.saved.game

    def _make_bots(self) -> list[Any]:
        seed = self.game.seed
        return [None] + [players.make(self.settings.level, (seed * 4 + seat) % (2**53))
                         for seat in (1, 2, 3)]

    def delays(self) -> tuple[float, float, float]:
        return DELAYS["instant" if self.instant else self.settings.speed]

    def apply_display(self) -> None:
        """Settings the CSS draws from: card colours, and the speed of every animation."""
        root = document.documentElement
        root.classList.toggle("four-colour", getattr(self.settings, "deck", "two") == "four")
        root.dataset.speed = "instant" if self.instant else self.settings.speed

    def save(self) -> None:
        self.storage.set(store.KEY_SAVE, store.dump_save(self.saved))
        self.storage_check()

    def save_stats(self) -> None:
        self.storage.set(store.KEY_STATS, store.dump_stats(self.stats))
        self.storage.set(store.KEY_SETTINGS, store.dump_settings(self.settings))
        self.storage_check()

    def storage_check(self) -> None:
        """The first failed write (storage full) gets a notice; the game plays on."""
        if not self.storage.ok and not getattr(self, "storage_told", True):
            self.storage_told = True
            notice = self.el["notice"]
            before = "" if notice.hidden else str(notice.textContent)
            self.show_notice(f"{before} {STORAGE_FULL}".strip())

    def can_undo(self) -> bool:
        s = self.saved
        g = self.game
        return (s.undo is not None and g.phase is Phase.PLAY and s.summary is None
                and g.hand_number == s.undo_hand and len(g.tricks) <= s.undo_trick)

    def received_marked(self, view: PlayerView) -> set[str]:
        return felt.received_marked(view)

    def current_view(self) -> PlayerView | None:
        """The view the table shows: the friend's table's seat, else South of the local game."""
        if self.remote is not None:
            return self.remote.view()
        return self.game.view(0)

    def attach(self, remote: Any) -> None:
        """Sit at a friend's table: the table shows ``remote`` and the local game waits."""
        self._stop_in_flight()
        self.remote = remote
        self.save()
        self.show_where(remote.where())
        self.render()

    def show_where(self, where: str | None) -> None:
        """The stats bar while this page sits at a private table: where, instead of the
        clock of the local game (which waits); games won and best stay the person's own."""
        self.el["stat-where"].textContent = where or ""
        self.el["stat-where"].hidden = where is None
        self.el["stat-clock"].hidden = where is not None

    def detach(self) -> None:
        """Back to the local game (the friend's table closed or this page left it)."""
        if self.remote is None:
            return
        self.remote.detached()
        self.remote = None
        self.show_where(None)
        self.generation += 1
        self.review = False
        self.hint_cards = ()
        self.render()
        self.kick()

    # --- wiring --------------------------------------------------------------------------

    def listen(self, target: Any, event: str, handler: Callable[[Any], None]) -> None:
        proxy = create_proxy(REPORTER.guard(handler, where=f"{event} event"))
        self._proxies.append(proxy)
        target.addEventListener(event, proxy)

    def start(self) -> None:
        self.listen(self.el["hand"], "click", self.on_hand_click)
        self.listen(self.el["pass"], "click", lambda e: self.on_pass())
        self.listen(self.el["hint"], "click", lambda e: self.on_hint())
        self.listen(self.el["undo"], "click", lambda e: self.on_undo())
        self.listen(self.el["last-trick"], "click", lambda e: self.on_review())
        self.listen(self.el["new-game"], "click", lambda e: self.on_new_game())
        self.listen(self.el["summary"], "click", self.on_summary_click)
        self.listen(self.el["settings"], "change", self.on_settings)
        self.listen(document, "keydown", self.on_key)
        self.listen(document, "visibilitychange", lambda e: self.on_visibility())
        self.listen(window, "pagehide", lambda e: self.save())
        self.listen(self.el["settings-button"], "click", lambda e: self.open_dialog("settings"))
        self.listen(self.el["help-button"], "click", lambda e: self.open_dialog("help"))
        self.dialogs.watch(self.el["summary"], on_escape=self.on_summary_escape)
        self.dialogs.watch(self.el["settings"])
        self.dialogs.watch(self.el["help"])
        self.el["settings-button"].disabled = False
        self.el["help-button"].disabled = False
        tick = create_proxy(REPORTER.guard(lambda: self.tick(), mark=False, where="clock"))
        self._proxies.append(tick)
        window.setInterval(tick, 500)
        self.sync_settings_form()
        self.ready = True
        self.render()
        root = document.documentElement
        root.dataset.readyMs = str(round(float(window.performance.now())))
        root.dataset.ready = "true"
        REPORTER.connect(position=lambda: self.game.to_text(),
                         snapshot=lambda: store.dump_save(self.saved), new_game=self.start_over,
                         resume=self.kick)
        if self.saved.summary is None and self.game.phase is Phase.PASS:
            self.announce(self.pass_prompt(self.game.view(0)))
        self.kick()

    def spawn(self, coro: Coroutine[Any, Any, None]) -> None:
        task = asyncio.ensure_future(coro)
        task.add_done_callback(self._task_done)

    def _task_done(self, task: asyncio.Future[None]) -> None:
        if task.cancelled():
            return
        error = task.exception()
        if error is not None:
            self.busy = False
            REPORTER.report(error, "the computers' turn")
        else:
            REPORTER.mark_good()

    # --- clock ---------------------------------------------------------------------------

    def tick(self) -> None:
        now = float(window.performance.now())
        running = (not document.hidden and self.game.phase is not Phase.GAME_OVER
                   and self.remote is None)
        if running and self.clock_last is not None:
            self.saved.clock_ms += max(0.0, min(now - self.clock_last, 5000.0))
        self.clock_last = now if running else None
        self.el["stat-time"].textContent = _fmt_clock(self.saved.clock_ms)

    def on_visibility(self) -> None:
        self.tick()
        if document.hidden:
            self.save()

    # --- input ---------------------------------------------------------------------------

    def accepting(self) -> bool:
        """True when the person may act on the table (not during computer turns)."""
        return self.ready and not self.busy and self.saved.summary is None

    def on_hand_click(self, event: Any) -> None:
        target = _el(event.target.closest("[data-card]"))
        if target is None:
            return
        notation = str(target.dataset.card)
        try:
            card = Card.parse(notation)
        except ValueError:
            return
        self.review = False
        if self.remote is not None:
            self.remote.on_card(card, int(getattr(event, "detail", 0) or 0))
            return
        game = self.game
        if not self.accepting():
            seat = game.to_play
            if (self.ready and self.busy and seat not in (None, 0)
                    and int(getattr(event, "detail", 0) or 0) <= 1):
                self.alert(f"Wait for your turn: {SEAT_NAMES[seat]} is playing.")
            return
        if game.phase is Phase.PASS:
            self.toggle_pass(card)
            return
        if int(getattr(event, "detail", 0) or 0) > 1:
            return  # a double click's second click: it must not play your next card too
        reason = game.why_illegal(card, 0)
        if reason is not None:
            self.hint_cards = ()
            self.alert(reason)
            self.render()
            return
        self.hint_cards = ()
        s = self.saved
        s.undo = game.to_json()
        s.undo_hand = game.hand_number
        s.undo_trick = len(game.tricks) + 1
        self.act(lambda: game.play(card))

    def toggle_pass(self, card: Card) -> None:
        selected = self.saved.selected
        if card.notation in selected:
            selected.remove(card.notation)
        elif len(selected) >= 3:
            self.alert("You have chosen three cards already: tap one of them to put it back.")
            return
        else:
            selected.append(card.notation)
        self.hint_cards = ()
        self.save()
        self.announce(f"{len(selected)} of 3 chosen." if len(selected) < 3
                      else "Three chosen: press Pass.")
        self.render()

    def on_pass(self) -> None:
        if self.remote is not None:
            self.remote.on_pass()
            return
        if not self.accepting() or self.game.phase is not Phase.PASS:
            return
        chosen = list(self.saved.selected)
        if len(chosen) != 3:
            self.alert("Choose exactly three cards to pass.")
            return

        def exchange() -> None:
            self.game.choose_pass(0, chosen)
            self.saved.selected = []
            self.computers_pass()

        self.hint_cards = ()
        self.refocus_wanted = True
        self.act(exchange)

    def computers_pass(self) -> None:
        game = self.game
        for seat in (1, 2, 3):
            if game.phase is Phase.PASS and not game.pass_chosen(seat):
                game.choose_pass(seat, self.bots[seat].choose_pass(game.view(seat)))

    def on_hint(self) -> None:
        if self.remote is not None:
            self.remote.on_hint()
            return
        if not self.accepting():
            return
        view = self.game.view(0)
        if not (view.phase is Phase.PASS or view.my_turn):
            self.announce("A hint is ready when it's your turn.")
            return
        advice = players.hint(view)
        self.hint_cards = tuple(c.notation for c in advice.cards)
        names = ", ".join(c.name for c in advice.cards)
        self.announce(f"Hint: {names}. {advice.reason}".strip())
        self.render()

    def on_undo(self) -> None:
        if (not self.ready or self.remote is not None or not self.can_undo()
                or self.saved.undo is None):
            return
        try:
            game = Game.from_json(self.saved.undo)
        except LoadError:
            self.saved.undo = None
            self.announce("That play can't be taken back.")
            self.render()
            return
        played = [card for seat, card in self.game.view(0).plays() if seat == 0]
        self._stop_in_flight()
        self.saved.game = game
        self.saved.undo = None
        self.seen = len(game.events)
        self.save()
        taken = f" your {played[-1].name}" if played else ""
        self.announce(f"Took back{taken}. Your turn again.")
        self.render()
        self.kick()

    def on_review(self, show: bool = False) -> None:
        """The Last trick button (toggles the view) or the L key (shows it, reads it)."""
        view = self.current_view()
        if not self.ready or view is None:
            return
        if not view.tricks:
            if show:
                self.announcer.say(announce.last_trick_text(view))
            return
        self.review = True if show else not self.review
        if self.review:
            self.announcer.say(announce.last_trick_text(view))
        self.render()

    def on_new_game(self) -> None:
        if not self.ready:
            return
        if self.remote is not None:
            self.remote.on_new_game()  # the host of a private table, once its game is over
            return
        self._take_over(store.Saved(Game.new()))
        self.announce("New game. " + self.pass_prompt(self.game.view(0)))
        self.render()
        self.kick()

    def start_over(self) -> None:
        """The error dialog's New game: a new game at once, whatever the moment (at a private
        table, the seat decides what that means)."""
        if self.remote is not None:
            self.remote.on_new_game(forced=True)
        if self.remote is None:
            self.on_new_game()

    def adopt(self, game: Game, scored: bool = False) -> None:
        """Carry ``game`` on here as the single-player game (a private table this page
        hosted, closed): this page's seat is South, the computers play the other three, and
        it is saved as the normal single-player save. ``scored``: the hand just ended and
        its summary is still to be seen."""
        if not self.ready or self.remote is not None:
            return
        saved = store.Saved(game)
        last = next((e for e in reversed(game.events) if isinstance(e, HandScored)), None)
        if scored and last is not None and game.phase is not Phase.GAME_OVER:
            saved.summary = store.Summary(last.hand_number, last.points_taken,
                                          last.scores, last.totals, last.moon_shooter)
        self._take_over(saved)
        view = game.view(0)
        if saved.summary is None and view.phase is Phase.PASS and not view.pass_chosen[0]:
            self.announce("Your game goes on against the computers. " + self.pass_prompt(view))
        else:
            self.announce("Your game goes on against the computers.")
        self.render()
        self.kick()

    def _stop_in_flight(self) -> None:
        """Stop the computers' turn in progress where it is and forget passing moments
        (held announcements, review, hint): the table is about to show another game."""
        self.generation += 1
        self.announcer.pending.clear()
        self.busy = False
        self.held = None
        self.collecting = None
        self.review = False
        self.hint_cards = ()

    def _take_over(self, saved: store.Saved) -> None:
        """Make ``saved`` the table's game: drop any computer turn in flight and every
        transient state of the old one, then save."""
        self._stop_in_flight()
        self.dismissed = False
        self.saved = saved
        self.seen = len(self.game.events)
        self.bots = self._make_bots()
        self.clock_last = None
        self.save()

    def on_summary_click(self, event: Any) -> None:
        button = _el(event.target.closest("button"))
        if button is None:
            return
        if self.remote is not None:
            self.remote.on_summary(str(button.id))
            return
        if button.id == "next-hand":
            self.on_next_hand()
        elif button.id == "summary-new-game":
            self.on_new_game()

    def on_next_hand(self) -> None:
        if self.saved.summary is None or self.game.phase is Phase.GAME_OVER:
            return
        self.saved.summary = None
        self.save()
        view = self.game.view(0)
        if view.phase is Phase.PASS:
            self.announce(f"Hand {view.hand_number}. {self.pass_prompt(view)}")
        else:
            self.announce(f"Hand {view.hand_number}: no passing this time.")
        self.render()
        self.hand_view.focus()
        self.kick()

    def on_summary_escape(self) -> None:
        """Esc on the summary: a hand summary moves on; the game-over one just closes."""
        if self.remote is not None:
            self.remote.on_summary("escape")
            return
        if self.game.phase is Phase.GAME_OVER:
            self.dismissed = True
            self.render()
        else:
            self.on_next_hand()

    def open_dialog(self, name: str) -> None:
        if not self.ready:
            return
        if name == "settings":
            self.sync_settings_form()
        self.dialogs.open(self.el[name])

    def focus_home(self) -> None:
        """Where focus goes when what had it is gone: the hand, else the New game button."""
        if _el(self.el["hand"].querySelector("[data-card]")) is not None:
            self.hand_view.focus()
        else:
            self.el["new-game"].focus()

    def on_settings(self, event: Any) -> None:
        target = event.target
        name, value = str(target.name), str(target.value)
        if name == "speed" and value in store.SPEEDS:
            self.settings.speed = value
        elif name == "level" and value in store.LEVELS:
            self.settings.level = value
            self.bots = self._make_bots()
        elif name == "deck" and value in ("two", "four"):
            self.settings.deck = value
        self.apply_display()
        self.save_stats()

    def sync_settings_form(self) -> None:
        for name, value in (("speed", self.settings.speed), ("level", self.settings.level),
                            ("deck", getattr(self.settings, "deck", "two"))):
            box = _el(document.querySelector(f'#settings input[name="{name}"][value="{value}"]'))
            if box is not None:
                box.checked = True

    def on_key(self, event: Any) -> None:
        if event.ctrlKey or event.metaKey or event.altKey:
            return
        tag = str(event.target.tagName).lower() if event.target else ""
        if tag in ("input", "select", "textarea"):
            return
        key = str(event.key)
        modal = _el(document.querySelector("dialog[open]")) is not None
        if (event.shiftKey and key.upper() in "SHDC" and len(key) == 1 and not modal
                and self.hand_view.focused() is None):
            self.hand_view.focus()  # Shift+suit from anywhere: into the hand, at that suit
        handled, words = self.hand_view.on_key(event)
        if handled:
            event.preventDefault()
            if words:
                self.announcer.say(words)
            return
        lower = key.lower()
        if key == "?":
            event.preventDefault()
            self.open_dialog("help")
        elif lower == "h" and not event.shiftKey:
            event.preventDefault()
            self.on_hint()
        elif lower == "t" and not event.shiftKey:
            event.preventDefault()
            view = self.current_view()
            held = self.held
            shown = Trick(held.leader, held.cards, held.seat) if held is not None else None
            if view is not None:
                self.announcer.say(announce.trick_text(view, shown))
        elif lower == "l" and not event.shiftKey and not modal:
            event.preventDefault()
            self.on_review(show=True)
        elif lower == "s" and not event.shiftKey:
            event.preventDefault()
            view = self.current_view()
            if view is not None:
                self.announcer.say(announce.scores_text(view))
        elif key == "Escape" and self.review:
            self.review = False
            self.render()

    # --- running the game ----------------------------------------------------------------

    def act(self, move: Callable[[], None]) -> None:
        """Run the person's move, present what it caused, then let the computers play."""
        if self.busy:
            return
        self.busy = True
        self.render()
        self.spawn(self._act(move, self.generation))

    async def _act(self, move: Callable[[], None], generation: int) -> None:
        try:
            move()
            await self.present(generation)
            await self.advance(generation)
        finally:
            if generation == self.generation:
                self.busy = False
                self.render()
                self.refocus()
                view = self.game.view(0)
                if self.saved.summary is None and view.phase is Phase.PLAY and view.my_turn:
                    self.announcer.queue("Your turn: lead a card." if view.trick is None
                                         else "Your turn.")
                self.announcer.flush()

    def refocus(self) -> None:
        """If the person's move lost the focus (the Pass button went away), give it back.

        Never on a computer's move, and never on page load: focus only moves for the person.
        """
        wanted, self.refocus_wanted = self.refocus_wanted, False
        active = _el(document.activeElement)
        if not wanted or (active is not None and active != document.body):
            return
        card = _el(self.el["hand"].querySelector('.card[aria-disabled="false"]')) or _el(
            self.el["hand"].querySelector(".card"))
        if card is not None:
            card.focus()

    def kick(self) -> None:
        """Let the computers play if it is their turn (after start, undo, a new hand)."""
        game = self.game
        if self.remote is not None:
            return  # the local game waits while this page sits at a friend's table
        if (not self.busy and self.saved.summary is None and game.phase is Phase.PASS
                and game.pass_chosen(0)):
            self.act(self.computers_pass)  # a save from between two passes: finish them
            return
        if self.busy or not self.computers_due():
            return
        self.busy = True
        self.spawn(self._act(lambda: None, self.generation))

    def computers_due(self) -> bool:
        game = self.game
        if self.saved.summary is not None or game.phase is not Phase.PLAY:
            return False
        return game.to_play != 0

    async def advance(self, generation: int) -> None:
        """Computer turns, one card at a time at the chosen speed."""
        while generation == self.generation and self.computers_due():
            self.render()
            await self.pause(self.delays()[0])
            if generation != self.generation:
                return
            game = self.game
            seat = game.to_play
            assert seat is not None
            card = await players.choose_play(self.bots[seat], game.view(seat))
            if generation != self.generation:
                return
            game.play(card)
            await self.present(generation)

    async def pause(self, seconds: float) -> None:
        await asyncio.sleep(seconds)

    async def present(self, generation: int) -> None:
        """Save, then show the engine's new events in order (trick pauses included)."""
        game = self.game
        new = game.events[self.seen:]
        self.seen = len(game.events)
        for event in new:  # bookkeeping first, so a reload mid-pause loses nothing
            if isinstance(event, HandScored):
                self.saved.summary = store.Summary(
                    event.hand_number, event.points_taken, event.scores, event.totals,
                    event.moon_shooter)
                self.saved.undo = None
            elif isinstance(event, GameOver):
                self.finish_game(event)
        self.save()
        for event in new:
            if generation != self.generation:
                return
            if isinstance(event, CardPlayed):
                self.announce(f"{_name(event.seat)} played the {event.card.name}."
                              if event.seat else f"You played the {event.card.name}.")
                self.render(fresh=event.card.notation)
            elif isinstance(event, HeartsBroken):
                self.announce("Hearts are broken.")
            elif isinstance(event, PassesExchanged):
                self.announce(self.received_text(game.view(0)))
            elif isinstance(event, TrickWon):
                await self.show_trick(event, generation)
            elif isinstance(event, MoonShot):
                who = "You" if event.seat == 0 else _name(event.seat)
                self.announce(f"{who} shot the moon!")
            elif isinstance(event, HandScored):
                points = ", ".join(f"{_name(seat)} {event.scores[seat]}" for seat in range(4))
                self.announce(f"Hand {event.hand_number} is over. Points this hand: {points}.")
            elif isinstance(event, GameOver):
                winner = "You win" if event.winner == 0 else f"{_name(event.winner)} wins"
                self.announce(f"Game over. {winner}.")
            elif isinstance(event, HandDealt) and self.saved.summary is None:
                view = game.view(0)
                self.announce(self.pass_prompt(view) if view.phase is Phase.PASS
                              else "No passing this hand.")
        self.render()

    async def show_trick(self, event: TrickWon, generation: int) -> None:
        _, show, slide = self.delays()
        who = "You take" if event.seat == 0 else f"{_name(event.seat)} takes"
        points = f" ({event.points} point{'s' if event.points != 1 else ''})" if event.points \
            else ""
        self.held = event
        self.render()
        if show:
            await self.pause(show)
        if generation != self.generation:
            return
        self.announce(f"{who} the trick{points}.")
        self.announcer.flush()  # one message per trick: its cards and who took it
        if slide:
            self.collecting = event.seat
            self.render()
            await self.pause(slide)
            if generation != self.generation:
                return
        self.held = None
        self.collecting = None

    def finish_game(self, event: GameOver) -> None:
        s = self.saved
        if s.counted:
            return
        s.counted = True
        stats = self.stats
        stats.played += 1
        if event.winner == 0:
            stats.won += 1
        mine = event.totals[0]
        stats.best = mine if stats.best is None else min(stats.best, mine)
        stats.total_ms += int(s.clock_ms)
        self.save_stats()

    # --- words ---------------------------------------------------------------------------

    def pass_prompt(self, view: PlayerView) -> str:
        return felt.pass_prompt(view)

    def received_text(self, view: PlayerView) -> str:
        if not view.received:
            return ""
        giver = next(s for s in range(4)
                     if pass_target(s, view.pass_direction) == 0)
        return f"You received {announce.cards_text(view.received)} from {_name(giver)}."

    def announce(self, text: str) -> None:
        """Say ``text`` politely: at once, or with the batch while the computers play."""
        if self.busy:
            self.announcer.queue(text)
        else:
            self.announcer.say(text)

    def alert(self, text: str) -> None:
        """Say ``text`` assertively: a move refused, something gone wrong."""
        self.announcer.alert(text)

    def show_notice(self, text: str) -> None:
        notice = self.el["notice"]
        notice.textContent = text
        notice.hidden = not text

    # --- drawing -------------------------------------------------------------------------

    def render(self, fresh: str | None = None) -> None:
        if self.remote is not None:
            self.remote.render()
            return
        game = self.game
        view = game.view(0)
        s = self.saved
        over = game.phase is Phase.GAME_OVER
        summary_open = s.summary is not None or over
        root = document.documentElement
        if not self.ready:
            state = "loading"
        elif over:
            state = "over"
        elif s.summary is not None:
            state = "summary"
        elif self.busy:
            state = "wait"
        elif view.phase is Phase.PASS:
            state = "pass"
        elif view.my_turn:
            state = "play"
        else:
            state = "wait"
        root.dataset.state = state
        self.render_seats(view, summary_open)
        self.render_trick(view, fresh)
        self.render_hand(view, summary_open)
        self.render_prompt(view, state)
        self.render_summary(view)
        self.render_stats()
        el = self.el
        el["new-game"].disabled = False
        el["hint"].disabled = state not in ("pass", "play")
        el["undo"].disabled = not self.can_undo()
        el["last-trick"].disabled = not view.tricks or summary_open
        el["last-trick"].setAttribute("aria-pressed", "true" if self.review else "false")
        passing = view.phase is Phase.PASS and not summary_open
        el["pass"].hidden = not passing
        el["pass"].disabled = not (passing and len(s.selected) == 3 and not self.busy)
        el["pass"].textContent = f"Pass ({len(s.selected)} of 3)" if len(s.selected) != 3 \
            else "Pass 3 cards"
        felt.draw_indicators(el, view)

    def render_seats(self, view: PlayerView, summary_open: bool) -> None:
        turn = None if (self.held is not None or summary_open) else view.to_play
        felt.draw_seats(document, view, turn)

    def render_trick(self, view: PlayerView, fresh: str | None) -> None:
        trick: Trick | None
        caption = ""
        winner: int | None = None
        if self.review and view.tricks:
            trick = view.tricks[-1]
            winner = trick.winner
            caption = f"Last trick: {_name(winner or 0)} took it"
        elif self.held is not None:
            trick = Trick(self.held.leader, self.held.cards, self.held.seat)
            winner = self.held.seat
        else:
            trick = view.trick
        box = self.el["trick"]
        box.innerHTML = felt.trick_html(trick, 0, fresh=fresh, winner=winner)
        box.className = "trick" + (" review" if self.review else "") + (
            f" collect-{SEAT_CLASS[self.collecting]}" if self.collecting is not None else "")
        self.el["trick-caption"].textContent = caption

    def render_hand(self, view: PlayerView, summary_open: bool) -> None:
        """The hand, drawn by ``HandView`` (in place: the focused card stays focused)."""
        hand_el = self.el["hand"]
        if summary_open:
            self.hand_view.update([], "Your hand")
            return
        passing = view.phase is Phase.PASS
        states = felt.hand_states(view, selected=self.saved.selected,
                                  received=self.received_marked(view),
                                  hinted=set(self.hint_cards), waiting=self.busy)
        count = len(view.hand)
        label = (f"Your hand, {count} cards: choose 3 to pass" if passing
                 else f"Your hand, {count} card{'s' if count != 1 else ''}")
        self.hand_view.update(states, label)
        hand_el.classList.toggle("passing", passing)

    def render_prompt(self, view: PlayerView, state: str) -> None:
        if state == "pass":
            n = len(self.saved.selected)
            text = self.pass_prompt(view) + (f" {n} of 3 chosen." if n else "")
        elif state == "play":
            trick = view.trick
            text = "Your turn: lead a card." if trick is None else "Your turn."
        elif state in ("summary", "over"):
            text = ""
        elif view.phase is Phase.PLAY and view.to_play and self.held is None:
            text = f"{_name(view.to_play)} is playing…"
        else:
            text = ""
        self.el["prompt"].textContent = text

    def render_summary(self, view: PlayerView) -> None:
        dialog = self.el["summary"]
        game = self.game
        s = self.saved.summary
        over = game.phase is Phase.GAME_OVER
        if (s is None and not over) or self.dismissed:
            self.dialogs.close(dialog)
            if not over:
                dialog.innerHTML = ""
            return
        if over:
            button = ('<button type="button" id="summary-new-game" class="primary">'
                      "New game</button>")
        else:
            button = '<button type="button" id="next-hand" class="primary">Next hand</button>'
        html_text = felt.summary_html(game.view(0), None if s is None else s.hand,
                                      None if s is None else s.scores,
                                      None if s is None else s.moon, over, button)
        if dialog.innerHTML != html_text:
            dialog.innerHTML = html_text
        if not self.dialogs.is_open(dialog):
            # Modal: the table behind is inert until the person moves on. The focus goes
            # to the button (Next hand / New game) once the page is ready for input.
            first = _el(dialog.querySelector("button")) if self.ready else None
            self.dialogs.open(dialog, first)

    def render_stats(self) -> None:
        st = self.stats
        self.el["stat-won"].textContent = f"Won {st.won} of {st.played}"
        self.el["stat-best"].textContent = "none yet" if st.best is None else str(st.best)
        self.el["stat-time"].textContent = _fmt_clock(self.saved.clock_ms)


TABLE: Table | None = None
"""The page's table, once started (``web.friends`` seats a friend's table at it)."""


def main() -> None:
    global TABLE
    try:
        table = Table()
        table.start()
        TABLE = table
    except Exception as error:
        REPORTER.report(error, "starting the table")


main()
