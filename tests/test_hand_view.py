"""The hand's drawing (web/table/hand_view.py) writes the page as little as it can: a new
hand's cards in one piece of markup, and afterwards only what changed. Each write is a
call out of Python into the page; on a phone a hand's worth of them one by one was a long
task. A small fake of the page counts the writes."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any, cast

from web.browser import Browser, Element
from web.table.hand_view import HandView
from web.table.model import CardState


class _Data:
    card = ""


class _Node:
    """A button, or the hand: what ``HandView`` calls on them, counted in ``writes``."""

    def __init__(self, page: _Page, card: str = "") -> None:
        self.page = page
        self.dataset = _Data()
        self.dataset.card = card
        self.parent: _Node | None = None
        self.kids: list[_Node] = []
        self.tabIndex = -1

    def __setattr__(self, name: str, value: Any) -> None:
        if name in ("className", "tabIndex", "innerHTML", "type", "textContent"):
            self.page.writes.append(name)
        if name == "innerHTML" and self.page.hand is self:  # the hand's cards at once
            self.kids = [_Node(self.page, card) for card in re.findall(
                r'<button type="button" data-card="(\w\w)"', value)]
            for kid in self.kids:
                kid.parent = self
        object.__setattr__(self, name, value)

    def addEventListener(self, kind: str, handler: Any) -> None: ...

    def setAttribute(self, name: str, value: str) -> None:
        self.page.writes.append(name)

    def querySelectorAll(self, selector: str) -> list[_Node]:
        return [] if ".down" in selector else list(self.kids)

    def querySelector(self, selector: str) -> _Node:
        return self

    def contains(self, node: _Node) -> bool:
        return node in self.kids

    @property
    def children(self) -> Any:
        kids = self.kids

        class Children:
            def item(self, index: int) -> _Node | None:
                return kids[index] if index < len(kids) else None
        return Children()

    def insertBefore(self, node: _Node, here: _Node | None) -> None:
        self.page.writes.append("insertBefore")
        if node in self.kids:
            self.kids.remove(node)
        self.kids.insert(len(self.kids) if here is None else self.kids.index(here), node)
        node.parent = self

    def remove(self) -> None:
        self.page.writes.append("remove")
        if self.parent is not None:
            self.parent.kids.remove(self)

    def focus(self) -> None:
        self.page.document.activeElement = self


class _Page:
    def __init__(self) -> None:
        self.writes: list[str] = []
        self.focus_scrolls: list[bool] = []
        """Each focus moved by the view: whether it scrolled the card into view."""
        self.document = type("Document", (), {})()
        self.document.activeElement = None
        self.document.createElement = lambda tag: self._made()
        self.hand = _Node(self)

    def _made(self) -> _Node:
        self.writes.append("createElement")
        return _Node(self)

    def proxy(self, handler: Any) -> Any:
        return handler

    def el(self, node: Any) -> Any:
        return node

    def one(self, selector: str, root: _Node) -> _Node:
        return root

    def now_ms(self) -> float:
        return 0.0

    def focus(self, node: _Node, scroll: bool = True) -> None:
        self.focus_scrolls.append(scroll)
        node.focus()


def _states(cards: str, disabled: str = "") -> list[CardState]:
    return [CardState(c, f"card {c}", f"the card {c}", c in disabled.split())
            for c in cards.split()]


HAND = "2C 5C 9C QD 3H 7H JH KH AH 4S 8S TS QS"


def test_a_new_hands_cards_are_written_in_one_piece_and_then_only_what_changes() -> None:
    page = _Page()
    view = HandView(cast(Element, page.hand), cast(Browser, page), lambda card: card)
    view.update(_states(HAND), "Your hand")
    assert page.writes.count("innerHTML") == 1  # the 13 cards at once
    assert "createElement" not in page.writes
    assert [k.dataset.card for k in page.hand.kids] == HAND.split()
    assert sum(1 for k in page.hand.kids if k.tabIndex == 0) == 1  # one tab stop
    page.writes.clear()
    view.update(_states(HAND), "Your hand")  # drawn again, nothing new: nothing written
    assert page.writes == []
    states = _states(HAND, disabled="2C 5C 9C")  # your turn: the clubs can't be played
    view.update(states, "Your hand")
    assert page.writes.count("className") == 0 and page.writes.count("aria-disabled") == 3
    page.writes.clear()
    played = [s for s in states if s.notation != "QD"]  # the Q♦ played
    view.update(played, "Your hand")
    assert page.writes.count("remove") == 1
    assert not {"insertBefore", "createElement", "innerHTML"} & set(page.writes)
    assert [k.dataset.card for k in page.hand.kids] == [s.notation for s in played]
    # the hand is centred: one card fewer, every card slid (from the order, no layout read)
    assert set(view.moved) == {s.notation for s in played}
    page.writes.clear()
    picked = [replace(s, classes=s.classes + " selected") if s.notation == "AH" else s
              for s in played]
    view.update(picked, "Your hand")
    assert page.writes == ["className"]  # only the card whose look changed


def test_the_focus_moves_to_a_neighbour_without_scrolling_the_page() -> None:
    """A card played from the keyboard: the focus goes to the card next to it, in place (a
    scroll into view would lay the page out in the middle of the table's update)."""
    page = _Page()
    view = HandView(cast(Element, page.hand), cast(Browser, page), lambda card: card)
    states = _states(HAND)
    view.update(states, "Your hand")
    page.document.activeElement = page.hand.kids[3]  # the Q♦ in focus
    view.update([s for s in states if s.notation != "QD"], "Your hand")
    assert page.document.activeElement is page.hand.kids[3]  # the 3♥, its neighbour
    assert page.hand.kids[3].dataset.card == "3H" and page.hand.kids[3].tabIndex == 0
    assert page.focus_scrolls == [False]
    # your turn comes with the focus on a card you can't play: on to one you can
    clubs = _states(" ".join(k.dataset.card for k in page.hand.kids), disabled="3H 7H")
    view.update(clubs, "Your hand", turn_came=True)
    assert page.document.activeElement is page.hand.kids[0]
    assert page.focus_scrolls == [False, False]
