"""The felt's drawing (web/table/view.py) writes only what changed since the table it drew
last: each write, and each call of the page, is a call out of Python, and a whole table's
worth of them on every draw was a long task on a slow phone. A recording fake of the page
(``unittest.mock``) counts the calls; the hand's own drawing has its test
(tests/test_hand_view.py)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any
from unittest.mock import DEFAULT, MagicMock

from web.table.model import SeatBox, TableModel, TrickCard
from web.table.view import TableView

_MOCK_OWN = {"called", "call_count", "call_args", "call_args_list", "mock_calls",
             "method_calls", "return_value", "side_effect"}


class _Page(MagicMock):
    """Any element or object of the page: every property written is noted in ``WRITES``
    (the calls of its methods are in the root's ``mock_calls``)."""

    def __setattr__(self, name: str, value: Any) -> None:
        if not name.startswith("_") and name not in _MOCK_OWN:
            WRITES.append(name)
        super().__setattr__(name, value)


WRITES: list[str] = []


def _table(**changes: Any) -> TableModel:
    seats = tuple(SeatBox(seat, place, f"Player {seat}", 10 * seat, "", "13 cards", seat == 0,
                          held=13)
                  for seat, place in enumerate(("south", "west", "north", "east")))
    return replace(TableModel(state="play", seats=seats, caption="Your lead", hint=True,
                              pass_chip="Pass left", hearts_chip="Hearts not broken",
                              house_line="", won="Won 1 of 2", best="42"), **changes)


def _view() -> tuple[TableView, _Page]:
    page = _Page()
    page.query.return_value.childElementCount = 13  # each seat's fan holds its 13 backs
    return TableView(page, _Page()), page


def _calls(view: TableView, page: _Page, model: TableModel) -> list[str]:
    """The page's properties written and methods called while ``model`` is drawn."""
    WRITES.clear()
    page.reset_mock(return_value=False)
    view.draw(model)
    return [*WRITES, *(str(call[0]) for call in page.mock_calls)]


def test_the_same_table_drawn_again_writes_only_what_checks_the_page_itself() -> None:
    view, page = _view()
    first = _calls(view, page, _table())
    again = _calls(view, page, _table())
    assert len(again) < len(first) / 2
    # the seats, the buttons, the chips and the statistics: not touched
    for written in ("seat", "disabled", "hidden"):
        assert written in first and written not in again
    assert not any(".toggle" in call for call in again)


def test_a_changed_field_is_written_and_nothing_else_of_the_table() -> None:
    view, page = _view()
    _calls(view, page, _table())
    same = _calls(view, page, _table())
    table = _table()
    one_score = replace(table, seats=(table.seats[0], replace(table.seats[1], score=13),
                                      *table.seats[2:]))
    view, page = _view()
    _calls(view, page, _table())
    changed = _calls(view, page, one_score)
    extra = list(changed)
    for call in same:
        extra.remove(call)
    # one seat's box: its seat number, its four lines' text, its turn/took classes
    assert extra.count("seat") == 1 and extra.count("textContent") == 4
    assert "disabled" not in extra and "hidden" not in extra
    view, page = _view()
    _calls(view, page, _table())
    hint_off = _calls(view, page, _table(hint=False))
    assert hint_off.count("disabled") == 5 and "seat" not in hint_off  # the controls only


def test_the_clock_is_drawn_when_its_second_changes() -> None:
    view, page = _view()
    _calls(view, page, _table(clock_ms=61_000))
    same_second = _calls(view, page, _table(clock_ms=61_400))
    next_second = _calls(view, page, _table(clock_ms=62_000))
    assert next_second.count("textContent") == same_second.count("textContent") + 1


def test_each_seats_box_and_lines_are_found_once() -> None:
    view, page = _view()
    first = _calls(view, page, _table())
    # the four seats, their lines and fans, and the pass arrow on the felt
    assert first.count("one") == 4 and first.count("query") == 4 * 5 + 1
    table = _table()
    scored = replace(table, seats=tuple(replace(s, score=s.score + 1) for s in table.seats))
    again = _calls(view, page, scored)
    assert again.count("seat") == 4  # every seat's box written...
    assert "one" not in again and "query" not in again  # ...none looked for again


def test_the_cards_on_the_felt_are_read_from_the_page_once_then_known() -> None:
    """The first draw reads what the loading page painted on the felt; after that only
    this view writes it, so what is there is known without asking the page."""
    page, trick = _Page(), _Page()
    page.query.return_value.childElementCount = 13
    page.element.side_effect = lambda name: trick if name == "trick" else DEFAULT
    view = TableView(page, _Page())
    two = (TrickCard("2C", "card", 1, "2 of clubs", "west"),
           TrickCard("5C", "card", 2, "5 of clubs", "north"))
    view.draw(_table(trick=two))
    assert [str(call[0]) for call in trick.mock_calls].count("querySelectorAll") == 1
    trick.reset_mock()
    node = page.document.createElement.return_value
    node.reset_mock()
    three = (*two, TrickCard("9C", "card", 3, "9 of clubs", "east"))
    view.draw(_table(trick=three))
    assert [str(call[0]) for call in trick.mock_calls] == ["appendChild"]  # the 9♣ only
    assert [str(call[0]) for call in node.mock_calls] == ["setAttribute", "setAttribute"]
    trick.reset_mock()
    view.draw(_table(trick=three, trick_classes="trick took"))
    assert trick.mock_calls == []  # the cards as they were: nothing asked, nothing written
    view.draw(_table())
    assert node.remove.call_count == 3  # the trick taken: its three cards gone


class _Read(_Page):
    """A page whose elements count how often their text is read (``READS``)."""

    @property
    def textContent(self) -> str:
        READS.append("textContent")
        return str(self.__dict__.get("_text", ""))

    @textContent.setter
    def textContent(self, value: str) -> None:  # (counted in WRITES by _Page)
        self.__dict__["_text"] = value


READS: list[str] = []


def test_the_lines_on_the_felt_are_read_once_then_known() -> None:
    page = _Read()
    page.query.return_value.childElementCount = 13
    view = TableView(page, _Read())
    view.draw(_table(caption="West leads"))
    READS.clear()
    WRITES.clear()
    view.draw(_table(caption="North plays"))
    assert WRITES.count("textContent") == 1  # the caption, written...
    assert READS == []  # ...not read back
    view.draw(_table(caption="North plays", prompt="Your turn", turn_clock=20))
    READS.clear()
    view.draw(_table(caption="North plays", prompt="Your turn"))  # the clock gone
    view.draw(_table(caption="East plays", prompt="Your turn"))
    assert READS == []  # the prompt as written, with its clock and without
    view.draw(_table(caption="East plays", prompt="Your turn", clock_ms=61_000))
    assert READS == ["textContent"]  # the clock: web/main.py writes it too
