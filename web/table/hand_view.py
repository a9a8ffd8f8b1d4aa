"""Your hand on the page: one tab stop with roving focus, updated in place.

The hand is a toolbar of card buttons. Exactly one card is in the Tab order
(``tabindex=0``); the arrow keys, Home/End and Shift+S/H/D/C move between cards. Each
render *updates* the existing buttons (class, name, ``aria-disabled``) instead of
rebuilding them, so the card in focus stays the same element while the computers play:
focus never jumps and a screen reader does not re-read the card on every move. Only when
the focused card itself leaves the hand (you played it) does focus move, to its neighbour.

A card's accessible name is hidden text inside the button ("Queen of spades, selected",
"3 of clubs, can't play: you must follow diamonds"); the drawn face is ``aria-hidden``.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence

from web import words
from web.browser import Browser, DomEvent, Element
from web.table.model import CardState

__all__ = ["HandView"]

TAP_GUARD_MS = 300
"""The second of two quick taps on the hand does nothing when the card under it slid there
since the first, this recently: it was meant for the card the first tap played (a double
tap). A lone tap always counts: nothing says the finger aimed at what was there before."""
DOUBLE_TAP_MS = 600
"""Two taps on the hand this close together, at one spot, are one double tap."""
TAP_SLOP_PX = 16
"""Two taps of one double tap land within this of each other (a fingertip's wobble). A tap
farther off is the person aiming at the card where it is now, however soon it comes."""
_BACK = ("ArrowLeft", "ArrowUp")
_FORWARD = ("ArrowRight", "ArrowDown")


class HandView:
    """The ``#hand`` element and the card the person last moved to."""

    def __init__(self, el: Element, browser: Browser, face: Callable[[str], str]) -> None:
        """``face``: the HTML of a card's drawn face, by notation."""
        self.el = el
        self.browser = browser
        self.document = browser.document
        self.face = face
        self.chosen: str | None = None
        """The card the person last focused: it keeps the tab stop while it is in the hand."""
        self.moved: dict[str, float] = {}
        """When each card last slid to another place (a card before it left, or came)."""
        self.last_tap: tuple[float, float, float] | None = None
        """When and where (page x, y) the person last tapped a card of the hand (forgotten
        by a tap elsewhere)."""
        self._buttons: dict[str, Element] = {}
        """Each card's button on the page, as drawn (the view alone writes the hand)."""
        self._drawn: dict[str, CardState] = {}
        self._order: list[str] = []
        self._tabs: dict[str, int] = {}
        """Each button's ``tabIndex`` as last written (a button not in it: unknown)."""
        self._label = ""
        self._placeholders = True
        """The loading page's face-down cards may still be there (``index.html``)."""
        el.addEventListener("focusin", browser.proxy(self._on_focusin))

    # --- reading ---------------------------------------------------------------------

    def buttons(self) -> list[Element]:
        return list(self.el.querySelectorAll("button[data-card]"))

    def focused(self) -> Element | None:
        """The card button in focus, or None."""
        active: Element | None = self.browser.el(self.document.activeElement)
        if active is not None and self.el.contains(active) and active.dataset.card:
            return active
        return None

    def _on_focusin(self, event: DomEvent) -> None:
        target = self.browser.el(event.target)
        if target is not None and target.dataset.card:
            self.chosen = str(target.dataset.card)
            for key, button in self._buttons.items():
                tab = 0 if key == self.chosen else -1
                if self._tabs.get(key) != tab:
                    button.tabIndex = tab
                    self._tabs[key] = tab

    # --- drawing ---------------------------------------------------------------------

    def slid_under(self, notation: str, now_ms: float, x: float, y: float) -> bool:
        """Record a tap at (``x``, ``y``) on the card ``notation`` at ``now_ms``; whether it
        is a double tap's second: close after the first and at its spot, on a card that slid
        under that spot since the first, less than ``TAP_GUARD_MS`` ago.

        It reasons from the finger and the card only: a tap aimed elsewhere (the person
        went for the card where it now is) or on a card that has been still always counts,
        however soon the turn came back (a guest's table can turn in a few milliseconds)."""
        slid = self.moved.get(notation, -float("inf"))
        last, self.last_tap = self.last_tap, (now_ms, x, y)
        if last is None:
            return False
        then, last_x, last_y = last
        same_spot = abs(x - last_x) <= TAP_SLOP_PX and abs(y - last_y) <= TAP_SLOP_PX
        return (same_spot and now_ms - then < DOUBLE_TAP_MS and slid >= then
                and now_ms - slid < TAP_GUARD_MS)

    def forget_taps(self) -> None:
        """A tap elsewhere (Pass, say) came between: the next tap on the hand is a first."""
        self.last_tap = None

    def update(self, states: Sequence[CardState], label: str, turn_came: bool = False) -> None:
        """Make the hand show ``states`` in order, keeping elements (and focus) in place;
        ``turn_came``: the person's turn has just come (the focus goes to a card they can
        play, if it was on one they can't).

        What was drawn is remembered (``_drawn``): a card is written only where its state
        changed, and a new hand's 13 cards are written at once, in one piece of markup —
        each write to the page is a call out of Python, and on a phone a hand's worth of
        them one by one was a long task."""
        if label != self._label:
            self.el.setAttribute("aria-label", label)
            self._label = label
        if self._placeholders:  # the first draw
            for placeholder in self.el.querySelectorAll(":scope > .down"):
                placeholder.remove()  # the loading page's face-down cards (index.html)
            # a repeat visit's hand painted before Python (web/static/boot.js): taken over
            self._buttons = {str(b.dataset.card): b for b in self.buttons()}
            self._order = list(self._buttons)
            self._placeholders = False
        wanted = [s.notation for s in states]
        focused = self.focused()
        focus_index = self._order.index(str(focused.dataset.card)) \
            if focused is not None and str(focused.dataset.card) in self._buttons else 0
        if self._buttons.keys() & set(wanted):
            current = self._change(states, wanted)
        else:  # a new hand (or none): no card slid, no layout read
            self.el.innerHTML = "".join(map(self._markup, states))
            current = self.buttons()
            self._buttons = dict(zip(wanted, current, strict=True))
            self._tabs = dict.fromkeys(wanted, -1)
        self._drawn = {s.notation: s for s in states}
        self._order = wanted
        self._tabs = {n: t for n, t in self._tabs.items() if n in self._buttons}
        if focused is not None and str(focused.dataset.card) not in wanted and current:
            # The focused card left the hand (you played or passed it): its neighbour
            # takes the focus, so focus never falls to the page. (Without scrolling: the
            # neighbour is where the person was looking, and a scroll into view would lay
            # the page out there and then, in the middle of the table's update.)
            self.browser.focus(current[min(focus_index, len(current) - 1)], scroll=False)
        self._roving(states, current, turn_came)

    def _change(self, states: Sequence[CardState], wanted: list[str]) -> list[Element]:
        """The hand's cards as ``states``, some of them on the page already: those kept
        are updated where their state changed, the new ones made, the gone ones removed.
        Which of those kept slid (``moved``) is read from the order, not the layout (a
        layout read here forced the page to lay itself out twice a card played): the hand
        is centred, so when the number of cards changes every card moves, and when it
        doesn't, a card moves if its place in the order changed."""
        keep = set(wanted)
        was = {key: index for index, key in enumerate(self._order)}
        resized = len(self._order) != len(wanted)
        if self._order != wanted:
            now = self.browser.now_ms()
            for index, key in enumerate(wanted):
                if key in was and (resized or was[key] != index):
                    self.moved[key] = now
        only_gone = [n for n in self._order if n in keep] == wanted
        current: list[Element] = []
        for index, state in enumerate(states):
            button = self._buttons.get(state.notation)
            if button is None:
                button = self._create(state)
                self._buttons[state.notation] = button
                self._tabs[state.notation] = -1
            else:
                self._sync(button, self._drawn.get(state.notation), state)
            if not only_gone:
                here = self.browser.el(self.el.children.item(index))
                if here is None or here != button:
                    self.el.insertBefore(button, here)
            current.append(button)
        for gone in [n for n in self._buttons if n not in keep]:
            self._buttons.pop(gone).remove()
        return current

    def _roving(self, states: Sequence[CardState], buttons: list[Element],
                turn_came: bool) -> None:
        if not buttons:
            return
        focused = self.focused()
        keys = [s.notation for s in states]
        playable = next((i for i, s in enumerate(states) if not s.disabled), 0)
        if focused is not None:
            stop = keys.index(str(focused.dataset.card))
        elif self.chosen in keys:
            stop = keys.index(self.chosen)
        else:
            stop = playable
        if turn_came and states[stop].disabled:
            # Your turn came with the focus (or the tab stop) on a card you can't play
            # (where passing left it): it goes to the first card you can.
            stop = playable
            self.chosen = keys[stop]
            if focused is not None:  # (from a card of the hand: no scroll, as above)
                self.browser.focus(buttons[stop], scroll=False)
        for index, (key, button) in enumerate(zip(keys, buttons, strict=True)):
            tab = 0 if index == stop else -1
            if self._tabs.get(key) != tab:
                button.tabIndex = tab
                self._tabs[key] = tab

    @staticmethod
    def _attributes(state: CardState) -> str:
        e = html.escape
        return (f'class="{e(state.classes)}" '
                f'aria-disabled="{"true" if state.disabled else "false"}"')

    def _inner(self, state: CardState) -> str:
        return (f'<span class="sr-only">{html.escape(state.label)}</span>'
                f"{self.face(state.notation)}"
                '<span class="mark" aria-hidden="true"></span>'
                '<span class="badge" aria-hidden="true">new</span>')

    def _markup(self, state: CardState) -> str:
        """A card's button, as ``_create`` makes it."""
        return (f'<button type="button" data-card="{html.escape(state.notation)}" '
                f'{self._attributes(state)} tabindex="-1">{self._inner(state)}</button>')

    def _create(self, state: CardState) -> Element:
        button = self.document.createElement("button")
        button.type = "button"
        button.dataset.card = state.notation
        button.className = state.classes
        button.setAttribute("aria-disabled", "true" if state.disabled else "false")
        button.tabIndex = -1
        button.innerHTML = self._inner(state)
        return button

    def _sync(self, button: Element, was: CardState | None, state: CardState) -> None:
        """Write what changed from ``was``, as drawn, to ``state`` (None: not drawn by
        this view: what differs on the page)."""
        if was is None:
            name = self.browser.one(".sr-only", button)
            if str(button.className) != state.classes:
                button.className = state.classes
            disabled = "true" if state.disabled else "false"
            if str(button.getAttribute("aria-disabled")) != disabled:
                button.setAttribute("aria-disabled", disabled)
            if str(name.textContent) != state.label:
                name.textContent = state.label
            return
        if was.classes != state.classes:
            button.className = state.classes
        if was.disabled != state.disabled:
            button.setAttribute("aria-disabled", "true" if state.disabled else "false")
        if was.label != state.label:
            self.browser.one(".sr-only", button).textContent = state.label

    # --- moving ----------------------------------------------------------------------

    def focus(self) -> None:
        """Put the focus on the hand's tab stop (the person asked for it)."""
        stop = self.browser.query('button[data-card][tabindex="0"]', self.el) or \
            self.browser.query("button[data-card]", self.el)
        if stop is not None:
            stop.focus()

    def on_key(self, event: DomEvent) -> tuple[bool, str]:
        """Move along the hand for a key press in it: (handled, something to say)."""
        focused = self.focused()
        if focused is None:
            return False, ""
        buttons = self.buttons()
        keys = [str(b.dataset.card) for b in buttons]
        index = keys.index(str(focused.dataset.card))
        key = str(event.key)
        if key in _BACK:
            target = max(0, index - 1)
        elif key in _FORWARD:
            target = min(len(buttons) - 1, index + 1)
        elif key == "Home":
            target = 0
        elif key == "End":
            target = len(buttons) - 1
        elif event.shiftKey and len(key) == 1 and key.upper() in "SHDC":
            suit = key.upper()
            of_suit = [i for i, k in enumerate(keys) if k[1] == suit]
            if not of_suit:
                return True, words.none_of_suit(suit)
            later = [i for i in of_suit if i > index]
            # In the suit already: on to its next card (round again at the end).
            target = (later[0] if later else of_suit[0]) if keys[index][1] == suit \
                else of_suit[0]
        else:
            return False, ""
        buttons[target].focus()
        return True, ""
