"""The composition root: builds the page's parts and wires them; nothing else runs anything.

``index.html`` calls ``main()`` once. Everything else is a class or a function that is
handed what it needs: the browser (``web.browser``), storage (``web.storage``), the seat
(``web.seats.solo.LocalSeat``), the table (``web.table.controller``) and private tables
(``web.friends``).

    input event → Table (checks the snapshot) → Seat (the engine moves, the game is saved)
    → News → Table builds a TableModel → TableView draws it
"""

from __future__ import annotations

import traceback

from hearts import Card
from web import errors, formats, options, slow_steps
from web.browser import Browser, DomEvent, Element, connect
from web.seats.narrator import DELAYS
from web.seats.solo import LocalSeat
from web.storage import Records, Storage
from web.table import keys
from web.table.coach_panel import CoachPanel
from web.table.controller import Table
from web.table.record_dialog import RecordDialogs
from web.table.rules_sheet import RulesSheet
from web.table.settings import SettingsForm
from web.table.view import clock_text

__all__ = ["main"]


def _card_of(browser: Browser, event: DomEvent) -> Card | None:
    target = browser.el(event.target.closest("[data-card]"))
    if target is None:
        return None
    try:
        return Card.parse(str(target.dataset.card))
    except ValueError:
        return None


def wire(browser: Browser, table: Table, local: LocalSeat, form: SettingsForm,
         coach: CoachPanel) -> None:
    """Connect the page's controls, keys, clock and page life to the table."""
    el = table.view.el
    listen = browser.listen

    def on_hand(event: DomEvent) -> None:
        card = _card_of(browser, event)
        if card is not None:
            clicks = int(getattr(event, "detail", 0) or 0)
            table.on_card(card, clicks, (float(event.clientX), float(event.clientY)))

    def on_summary(event: DomEvent) -> None:
        button = browser.el(event.target.closest("button"))
        if button is not None:
            table.on_summary_button(str(button.id))

    def on_moon(event: DomEvent) -> None:
        button = browser.el(event.target.closest("[data-moon]"))
        if button is not None:
            table.on_moon(str(button.dataset.moon))

    def on_react(event: DomEvent) -> None:
        button = browser.el(event.target.closest("[data-react]"))
        if button is not None:
            table.on_react(str(button.dataset.react))

    def open_dialog(name: str) -> None:
        if table.page.ready:
            if name == "settings":
                form.sync()
            table.dialogs.open(el[name])

    def tick() -> None:
        table.tick(browser.now_ms(), not browser.document.hidden)
        el["stat-time"].textContent = clock_text(table.seat.snapshot().clock_ms)

    def on_visibility() -> None:
        tick()
        if browser.document.hidden:
            table.seat.save()

    listen(el["hand"], "click", on_hand)
    listen(el["pass"], "click", lambda e: table.on_pass())
    listen(el["hint"], "click", lambda e: table.on_hint())
    listen(el["undo"], "click", lambda e: table.on_undo())
    if el["play-out"] is not None:
        listen(el["play-out"], "click", lambda e: table.on_play_out())
    listen(el["last-trick"], "click", lambda e: table.on_review())
    listen(el["new-game"], "click", lambda e: table.on_new_game())
    listen(el["confirm-new-game"], "click", lambda e: table.on_new_game(confirmed=True))
    listen(el["summary"], "click", on_summary)
    if el["moon-choice"] is not None:
        listen(el["moon-choice"], "click", on_moon)
        # Esc must not dismiss the shooter's choice: the hand can't be scored without it.
        table.dialogs.watch(el["moon-choice"], on_escape=lambda: None, light=False)
    for menu in (browser.by_id("more"), browser.by_id("more-games")):
        if menu is None:  # the toolbar's More menus fold away once used
            continue

        def fold(event: DomEvent, menu: Element = menu) -> None:
            if browser.el(event.target.closest("button")) is not None:
                menu.open = False

        listen(menu, "click", fold)
    listen(el["scores-again"], "click", lambda e: table.on_summary_button("scores-again"))
    listen(el["settings"], "change", form.on_change)
    listen(el["settings-button"], "click", lambda e: open_dialog("settings"))
    listen(el["help-button"], "click", lambda e: open_dialog("help"))
    if el["reactions"] is not None:
        listen(el["reactions"], "click", on_react)
    listen(browser.document, "keydown", lambda e: keys.on_key(table, e,
                                                              lambda: open_dialog("help")))
    listen(browser.document, "visibilitychange", lambda e: on_visibility())
    for first_touch in ("pointerdown", "keydown"):  # sound may start after either
        listen(browser.document, first_touch, lambda e: table.sound.unlock())
    listen(browser.window, "pagehide", lambda e: table.seat.save())
    # (a tap beside the summary must not move on to the next hand: only its button, or Esc)
    table.dialogs.watch(el["summary"], on_escape=table.on_summary_escape, light=False)
    table.dialogs.watch(el["settings"])
    table.dialogs.watch(el["help"])
    table.dialogs.watch(el["confirm-new"])
    coach_button = browser.by_id("coach-button")
    if coach.dialog is not None and coach_button is not None:
        table.dialogs.watch(coach.dialog)
        listen(coach_button, "click", lambda e: coach.open() if table.page.ready else None)

        def back_to_summary(event: DomEvent) -> None:
            # Opened from the hand summary (still open): back to its Review button.
            button = browser.by_id("summary-review")
            if button is not None and table.dialogs.is_open(el["summary"]):
                button.focus()

        listen(coach.dialog, "close", back_to_summary)
        table.open_coach = coach.open
        local.solo.books.on_hand = coach.hand_over
        coach_button.disabled = False
    el["settings-button"].disabled = False
    el["help-button"].disabled = False
    browser.window.setInterval(browser.proxy(browser.guard(tick, "clock")), 500)


def make_coach(browser: Browser, table: Table, local: LocalSeat,
               records: Records) -> CoachPanel:
    """The Coach dialog, reviewing the last hand of the game against the computers."""
    def note(text: str) -> None:
        table.page.coach = text
        table.render()

    def failed(error: BaseException) -> None:
        traceback.print_exception(error)  # the console: the table plays on

    return CoachPanel(browser, table.dialogs, records, on_note=note,
                      last_hand=lambda: local.last_hand,
                      hands_played=lambda: len(local.game.hand_history), on_error=failed)


def main() -> Table | None:
    """Start the page: the table, the game in progress, private tables."""
    browser = connect()
    reporter = errors.Reporter(browser)
    browser.guard = lambda handler, where: reporter.guard(handler, where=where)
    try:
        opts = options.parse(str(browser.window.location.search))
        slow_steps.watch(opts.slow, opts.calls)
        if opts.instant:
            browser.document.documentElement.classList.add("instant")
        storage = Storage(lambda: browser.window.localStorage)
        reporter.use(storage)
        table: Table | None = None
        records = Records(storage, lambda text: table.view.add_notice(text) if table else None)

        def speed() -> str:
            return "instant" if opts.instant else records.settings.speed

        local = LocalSeat(records, speed=speed,
                          on_error=lambda error: reporter.report(error, "the computers' turn"),
                          on_good=reporter.mark_good, seed=opts.seed, today=browser.today,
                          address=browser.address())
        table = Table(browser, records, local)
        form = SettingsForm(browser, records, instant=opts.instant,
                            on_level=lambda level: table.seat.set_level(level) if table else None,
                            on_sound=lambda: table.sound.unlock() if table else None,
                            level_note=lambda: local.solo.level_note()
                            if table is not None and table.seat is local else "")
        form.apply()
        table.view.notice(records.notes)
        records.keep_stats()
        coach = make_coach(browser, table, local, records)
        wire(browser, table, local, form, coach)
        record_dialogs = RecordDialogs(browser, table, local, records)
        record_dialogs.wire()
        RulesSheet(browser, table.dialogs).wire()
        table.start()
        table.on_painted_taps(browser.painted_taps())
        if opts.daily is not None:  # a shared daily's link: read once, a reload won't redo it
            browser.drop_query("daily")
            record_dialogs.play_link(opts.daily)
        reporter.connect(position=lambda: local.game.to_text(),
                         snapshot=lambda: formats.dump_save(local.saved),
                         new_game=table.start_over, resume=local.kick)
    except Exception as error:
        reporter.report(error, "starting the table")
        return None

    def start_friends() -> None:
        # Imported once the table is on the screen: private tables and online play are
        # about a third of the page's Python, which a first visit would download (~0.24 MB)
        # and import (~0.2 s) before the game starts. Their buttons stay disabled until then.
        from web.friends import dialog as friends
        try:
            friends.start(browser, table, local, records, opts, lambda: DELAYS[speed()][0],
                          lambda error: reporter.report(error, "a private table"))
        except Exception as error:
            reporter.report(error, "setting up private tables")

    browser.after_paint(lambda: browser.after_later_code(start_friends,
                                                         "setting up private tables"),
                        "setting up private tables")
    return table
