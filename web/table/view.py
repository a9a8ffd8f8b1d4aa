"""Draws a ``TableModel`` on the page, in place: the only code that writes the table's DOM.

Every decision was made when the model was built (``web.table.model.build``); here each
field goes to its element. Elements are updated rather than rebuilt where the person could
notice (the hand keeps its focused card; text is only written when it changes), so a
screen reader doesn't hear the table again on every card.
"""

from __future__ import annotations

import html

from hearts import Card
from web import words
from web.browser import Browser, Element
from web.p2p.protocol import REACTIONS
from web.record import chart as charts
from web.slow_steps import timed
from web.table.dialogs import Dialogs
from web.table.hand_view import HandView
from web.table.model import SeatBox, SummaryModel, TableModel
from web.table.motion import Motion
from web.table.record_page import share_html

__all__ = ["TableView", "card_face", "clock_text", "summary_html"]

ELEMENTS = ("table", "hand", "trick", "prompt", "pass", "hint", "undo", "last-trick",
            "new-game", "status", "notice", "summary", "stat-time", "stat-won", "stat-best",
            "pass-dir", "hearts-state", "trick-caption", "settings", "alert", "help",
            "settings-button", "help-button", "stat-where", "stat-clock", "reactions",
            "confirm-new", "confirm-new-game", "event", "scores-again", "game-badge",
            "house-line", "house-rules", "house-rules-list", "moon-choice", "play-out")


_READ_BACK = frozenset({"stat-time"})
"""Elements whose text others write too (web/main.py sets the clock between draws): their
text is read from the page before it is written, never taken as last written here."""


def card_face(notation: str) -> str:
    """The drawn face of a card (corner rank and suit, a big pip), hidden from readers."""
    card = Card.parse(notation)
    suit = card.suit.symbol + "\ufe0e"  # text presentation, never an emoji
    rank = card.short[:-1]
    return (f'<span class="corner" aria-hidden="true"><span class="r">{rank}</span>'
            f'<span class="s">{suit}</span></span>'
            f'<span class="pip" aria-hidden="true">{suit}</span>')


def _controls(m: TableModel) -> tuple[object, ...]:
    """The fields ``TableView._controls`` draws: when they are as drawn, it isn't called."""
    return (m.new_game, m.hint, m.undo, m.last_trick, m.last_trick_pressed, m.pass_shown,
            m.pass_enabled, m.pass_text, m.play_out, m.pass_chip, m.hearts_chip,
            m.hearts_broken, m.badge, m.chat, m.scores_again)


def _stats(m: TableModel) -> tuple[object, ...]:
    """The fields ``TableView._stats`` draws (the clock as shown: to the second)."""
    return m.won, m.best, clock_text(m.clock_ms), m.where


def clock_text(ms: float) -> str:
    seconds = int(ms // 1000)
    return f"{seconds // 60}:{seconds % 60:02d}"


def summary_html(s: SummaryModel) -> str:
    """The end-of-hand (or end-of-game) dialog's content."""
    e = html.escape
    parts = [f'<h2 id="summary-title">{e(s.title)}</h2>']
    if s.final:
        parts.append(f'<p class="final" id="summary-final">{e(s.final)}</p>')
    if s.moon:
        parts.append(f'<p class="moon">{e(s.moon)}</p>')
    if s.points:
        parts.append(f'<p id="summary-desc">{e(s.points)}</p>')
    if s.story:  # the symbol is seen; its words follow it, so both tell the same order
        items = "".join(
            f'<li><span class="sym{" red" if symbol[0] in "♥♦" else ""}" aria-hidden="true">'
            f'{e(symbol)}</span> {e(text)}</li>' for symbol, text in s.story)
        parts.append(f'<ul class="story" id="summary-story">{items}</ul>')
    if s.totals_line:
        parts.append(f'<p class="totals-line" id="summary-totals">{e(s.totals_line)}</p>')
    if s.share:
        parts.append(share_html(s.share, s.share_note))
    if s.chart is not None:
        parts.append(f'<figure class="chart-box">{charts.svg(s.chart)}'
                     f'{charts.table_html(s.chart)}</figure>')
    heads = "".join(f'<th scope="col">{e(name)}</th>' for name in s.heads)
    rows = []
    for number, row in enumerate(s.rows, start=1):
        cls = ' class="current"' if number == s.current else ""
        cells = "".join(f'<td data-points="{v}">{v}</td>' for v in row)
        rows.append(f'<tr{cls}><th scope="row">{number}</th>{cells}</tr>')
    totals = "".join(f"<td>{v}</td>" for v in s.totals)
    parts.append(f'<table class="scores"><caption>Points per hand</caption>'
                 f'<thead><tr><th scope="col">Hand</th>{heads}</tr></thead>'
                 f'<tbody>{"".join(rows)}</tbody>'
                 f'<tfoot><tr><th scope="row">Total</th>{totals}</tr></tfoot></table>')
    if s.code:
        parts.append(f'<p class="code-line">{e(words.code_line(s.code))}</p>')
    if s.button_id == "next-hand":  # its ready countdown, written in place (as the coach's)
        parts.append('<p class="next-in" id="summary-next-in" role="timer"></p>')
    parts.append(f'<p class="sheet-actions"><button type="button" id="{s.button_id}"'
                 f' class="primary" aria-keyshortcuts="N">{e(s.button_text)} <kbd>N</kbd>'
                 '</button></p>')
    if s.review:
        # The coach's line is written in place (TableView._summary): it changes while the
        # dialog is open, and redrawing the dialog would take the focus off its button.
        parts.append('<p class="coach-note" id="summary-coach" role="status"></p>'
                     f'<button type="button" id="summary-review">{e(words.REVIEW_HAND)}'
                     '</button>')
    return "".join(parts)


class TableView:
    """The table's elements, drawn from one model at a time."""

    def __init__(self, browser: Browser, dialogs: Dialogs) -> None:
        self.browser = browser
        self.document = browser.document
        self.el = {name: browser.element(name) for name in ELEMENTS}
        self.dialogs = dialogs
        self.hand = HandView(self.el["hand"], browser, card_face)
        self.motion = Motion(browser, card_face)
        self.drawn: TableModel | None = None
        """The table as last drawn (what the motion starts from)."""
        self.summary_drawn = ""
        """The summary dialog's markup as last written (its coach line is written apart)."""
        self.prompt_markup = ""
        """The prompt line's markup with its turn clock, as last written ("": none)."""
        self.texts: dict[str, str] = {}
        """The text of each element ``_text`` writes, as last written (one not in it, or in
        ``_READ_BACK``, is read from the page first)."""
        self.summary_lines: tuple[str, str, str] | None = None
        """The summary's coach line, countdown and ``data-moment`` as last written (None:
        not known: its markup was just written, or never)."""
        self.seat_nodes: dict[str, dict[str, Element | None]] = {}
        """Each seat's box (``""``) and lines by selector, found once: index.html's own."""
        self.trick_drawn: dict[str, tuple[Element, str, str]] | None = None
        """The cards on the felt as last written (node, classes, label), by notation (None:
        not known yet: the loading page may have painted some, web/static/boot.js)."""
        self.arrow: tuple[Element, str] | None = None
        """The pass arrow on the felt and its class, as last written."""
        moon = self.el["moon-choice"]
        if moon is not None:  # the shooter's choice, in the words of web.words
            for selector, text in (("#moon-title", words.MOON_TITLE), ("#moon-ask", words.MOON_ASK),
                                   ("#moon-plus", words.MOON_PLUS),
                                   ("#moon-minus", words.MOON_MINUS)):
                node = browser.query(selector, moon)
                if node is not None:
                    node.textContent = text
        bar = self.el["reactions"]
        if bar is not None:
            bar.innerHTML = '<span aria-hidden="true">Say:</span>' + "".join(
                f'<button type="button" data-react="{key}">{html.escape(text)}</button>'
                for key, text in REACTIONS.items())

    def _text(self, name: str, text: str) -> None:
        node = self.el[name]
        if node is None:
            return
        was = self.texts.get(name)
        if was is None:
            was = str(node.textContent)
        if was != text:
            node.textContent = text
        if name not in _READ_BACK:
            self.texts[name] = text

    def _prompt(self, m: TableModel) -> None:
        """The prompt line, and the turn clock at its end (``#turn-clock``, its seconds in
        ``data-seconds``; no such element where no timer runs)."""
        node = self.el["prompt"]
        if m.turn_clock is None:
            if self.prompt_markup:
                node.textContent = ""
                self.prompt_markup = ""
                self.texts["prompt"] = ""
            self._text("prompt", m.prompt)
            return
        self.texts.pop("prompt", None)  # (the markup below: read again when it goes)
        markup = (f'{html.escape(m.prompt)} <span id="turn-clock" class="turn-clock" '
                  f'data-seconds="{m.turn_clock}">{words.turn_clock(m.turn_clock)}</span>')
        if self.prompt_markup != markup or node.querySelector("#turn-clock") is None:
            node.innerHTML = markup
        self.prompt_markup = markup

    def draw(self, m: TableModel, fresh: str | None = None) -> None:
        """Make the page show ``m`` (``fresh``: a card just played, animated in).

        Only what differs from the model drawn last is written (each write, and each read
        of the page, is a call out of Python: a whole table's worth of them was a long
        task on a slow phone); the trick, the hand, the prompt and the dialogs check the
        page itself, as the motion and the person's own actions move them."""
        el, was = self.el, self.drawn
        hand_was = self.motion.capture(el["hand"])
        if was is None or was.state != m.state:
            self.document.documentElement.dataset.state = m.state
        if was is None or was.people != m.people:
            el["table"].setAttribute("data-people", str(m.people))
        self._seats(m, was)
        self._trick(m)
        if was is None or was.caption != m.caption:
            self._text("trick-caption", m.caption)
        turn_came = m.state == "play" and (was is None or was.state != "play")
        with timed("felt hand"):
            self.hand.update(m.hand, m.hand_label, turn_came)
        if was is None or was.passing != m.passing:
            el["hand"].classList.toggle("passing", m.passing)
        self._prompt(m)
        if was is None or _controls(was) != _controls(m):
            self._controls(m)
        if was is None or (was.house_line, was.house_rules) != (m.house_line, m.house_rules):
            self._house(m)
        with timed("felt summary"):
            self._summary(m)
        self._moon(m)
        if was is None or _stats(was) != _stats(m):
            self._stats(m)
        self.motion.play(was, m, fresh, hand_was, el["trick"], el["hand"])
        self.drawn = m
        self.browser.keep_drawn(m.state, m.where is None)

    def _controls(self, m: TableModel) -> None:
        """The buttons and chips around the felt (``_controls``' fields of the model)."""
        el = self.el
        el["new-game"].disabled = not m.new_game
        el["hint"].disabled = not m.hint
        el["undo"].disabled = not m.undo
        el["last-trick"].disabled = not m.last_trick
        el["last-trick"].setAttribute("aria-pressed", "true" if m.last_trick_pressed else "false")
        el["pass"].hidden = not m.pass_shown
        el["pass"].disabled = not m.pass_enabled
        self._text("pass", m.pass_text)
        if el["play-out"] is not None:
            el["play-out"].hidden = not m.play_out
        self._text("pass-dir", m.pass_chip)
        self._text("hearts-state", m.hearts_chip)
        el["hearts-state"].classList.toggle("on", m.hearts_broken)
        self._text("game-badge", m.badge)
        el["game-badge"].hidden = not m.badge
        if el["reactions"] is not None:
            el["reactions"].hidden = not m.chat
        el["scores-again"].hidden = not m.scores_again

    def _trick(self, m: TableModel) -> None:
        """The cards on the felt, kept in place while the trick grows (so they can move).

        Only this view writes them (the motion animates the nodes, never adds or removes
        one), so after the first draw what is there is known without reading the page."""
        box, was = self.el["trick"], self.drawn
        if was is None or was.trick_classes != m.trick_classes:
            box.className = m.trick_classes
        if self.trick_drawn is None:  # the first draw: what the loading page painted
            self.trick_drawn = {
                str(node.dataset.card): (node, str(node.className),
                                         str(node.getAttribute("aria-label")))
                for node in box.querySelectorAll("[data-card]")}
            arrow = self.browser.query(".pass-arrow", box)
            self.arrow = None if arrow is None else (arrow, str(arrow.className))
        old, drawn = self.trick_drawn, {}
        for card in m.trick:
            node, classes, label = old.pop(card.notation, (None, "", ""))
            if node is None:
                node = self.document.createElement("div")
                node.dataset.card = card.notation
                node.setAttribute("role", "img")
                node.innerHTML = card_face(card.notation)
                box.appendChild(node)
            if classes != card.classes:
                node.className = card.classes
            if label != card.label:
                node.setAttribute("aria-label", card.label)
            drawn[card.notation] = (node, card.classes, card.label)
        for node, _, _ in old.values():
            node.remove()
        self.trick_drawn = drawn
        if m.pass_arrow and m.pass_to:
            arrow, classes = self.arrow or (None, "")
            if arrow is None:
                arrow = self.document.createElement("span")
                arrow.setAttribute("aria-hidden", "true")
                box.appendChild(arrow)
            if classes != f"pass-arrow to-{m.pass_to}":
                arrow.className = f"pass-arrow to-{m.pass_to}"
            self.arrow = (arrow, f"pass-arrow to-{m.pass_to}")
        elif self.arrow is not None:
            self.arrow[0].remove()
            self.arrow = None

    def _fan(self, fan: Element | None, s: SeatBox) -> None:
        """The seat's cards, face down, as many as it holds (``fan``: their box, if the
        seat has one)."""
        if fan is None:
            return
        backs = fan.childElementCount
        if backs == s.held:
            return
        fan.style.setProperty("--n", str(s.held))
        while backs > s.held and (last := fan.lastElementChild) is not None:
            last.remove()
            backs -= 1
        while backs < s.held:
            back = self.document.createElement("span")
            back.className = "back"
            back.style.setProperty("--i", str(backs))
            fan.appendChild(back)
            backs += 1

    def _seats(self, m: TableModel, was: TableModel | None) -> None:
        """Each seat's box, those that changed since ``was`` (the table drawn last)."""
        drawn = {} if was is None else {s.position: s for s in was.seats}
        for s in m.seats:
            if drawn.get(s.position) == s:
                continue
            nodes = self._seat_nodes(s.position)
            box = nodes[""]
            assert box is not None
            box.dataset.seat = str(s.seat)
            for selector, text in ((".name", s.name), (".score", str(s.score)),
                                   (".taken", s.taken), (".count", s.count)):
                node = nodes[selector]
                if node is not None and str(node.textContent) != text:
                    node.textContent = text
            box.classList.toggle("turn", s.turn)
            box.classList.toggle("took", s.took)
            if s.away:
                box.dataset.away = "true"
            elif box.hasAttribute("data-away"):
                box.removeAttribute("data-away")
            self._fan(nodes[".fan"], s)

    def _seat_nodes(self, position: str) -> dict[str, Element | None]:
        """A seat's box (``""``) and its lines (index.html's: found once, then kept)."""
        nodes = self.seat_nodes.get(position)
        if nodes is None:
            box = self.browser.one(f".seat-{position}[data-seat]")
            nodes = {"": box, **{selector: self.browser.query(selector, box)
                                 for selector in (".name", ".score", ".taken", ".count",
                                                  ".fan")}}
            self.seat_nodes[position] = nodes
        return nodes

    def _summary(self, m: TableModel) -> None:
        dialog = self.el["summary"]
        if m.summary is None:
            self.dialogs.close(dialog)
            if m.state != "over" and (self.summary_drawn or self.drawn is None):
                dialog.innerHTML = ""
                self.summary_drawn = ""
            return
        text = summary_html(m.summary)
        if self.summary_drawn != text or not dialog.innerHTML:
            dialog.innerHTML = text
            self.summary_drawn = text
            self.summary_lines = None
        lines = (m.summary.coach, m.summary.next_in, m.summary.moment)
        if self.summary_lines != lines:  # (written apart: see summary_html)
            note = self.browser.query("#summary-coach", dialog)
            if note is not None and str(note.textContent) != m.summary.coach:
                note.textContent = m.summary.coach
            timer = self.browser.query("#summary-next-in", dialog)
            if timer is not None and str(timer.textContent) != m.summary.next_in:
                timer.textContent = m.summary.next_in
            dialog.dataset.moment = m.summary.moment
            self.summary_lines = lines
        if not self.dialogs.is_open(dialog):
            # Modal: the table behind is inert until the person moves on. The focus goes
            # to the button (Next hand / New game) once the page is ready for input.
            # (the primary one: a daily's Copy button comes before it)
            first = self.browser.query("button.primary", dialog) \
                if m.state != "loading" else None
            self.dialogs.open(dialog, first)

    def _house(self, m: TableModel) -> None:
        """The table's house-rules line and the list of them in the rules text."""
        line, rules, items = (self.el["house-line"], self.el["house-rules"],
                              self.el["house-rules-list"])
        if line is not None:
            self._text("house-line", m.house_line)
            line.hidden = not m.house_line
        if rules is not None and items is not None:
            text = "".join(f"<li>{html.escape(sentence)}</li>" for sentence in m.house_rules)
            if str(items.innerHTML) != text:
                items.innerHTML = text
            rules.hidden = not m.house_rules

    def _moon(self, m: TableModel) -> None:
        """The shooter's choice: open while the person is to choose, closed otherwise."""
        dialog = self.el["moon-choice"]
        if dialog is None:
            return
        if not m.moon_choice:
            self.dialogs.close(dialog)
        elif not self.dialogs.is_open(dialog):
            self.dialogs.open(dialog, self.browser.query("button", dialog))

    def _stats(self, m: TableModel) -> None:
        self._text("stat-won", m.won)
        self._text("stat-best", m.best)
        self._text("stat-time", clock_text(m.clock_ms))
        self._text("stat-where", m.where or "")
        self.el["stat-where"].hidden = m.where is None
        self.el["stat-clock"].hidden = m.where is not None

    def event(self, text: str) -> None:
        """The last thing the table said, on the felt at once (the live region may batch)."""
        if text:
            self._text("event", text)

    def clear_event(self) -> None:
        """Empty the line on the felt: what it said belongs to a game, hand or table gone."""
        self._text("event", "")

    def notice(self, text: str) -> None:
        """The notice over the table (storage trouble, a reset save); "" hides it."""
        node = self.el["notice"]
        node.textContent = text
        node.hidden = not text

    def add_notice(self, text: str) -> None:
        node = self.el["notice"]
        before = "" if node.hidden else str(node.textContent)
        self.notice(f"{before} {text}".strip())

    def focus_home(self) -> None:
        """Where focus goes when what had it is gone: the hand, else the New game button."""
        if self.browser.query("[data-card]", self.el["hand"]) is not None:
            self.hand.focus()
        else:
            self.el["new-game"].focus()
