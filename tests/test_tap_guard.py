"""The hand's quick-tap guard (web/table/hand_view.py): only a double tap's second tap, at
the first's spot, on a card that slid under it since, does nothing."""

from __future__ import annotations

from typing import Any, cast

from web.browser import Browser, Element
from web.table.hand_view import DOUBLE_TAP_MS, TAP_GUARD_MS, TAP_SLOP_PX, HandView


class _Node:
    def addEventListener(self, kind: str, handler: Any) -> None: ...


class _Browser:
    document = _Node()

    def proxy(self, handler: Any) -> Any:
        return handler


def _hand() -> HandView:
    return HandView(cast(Element, _Node()), cast(Browser, _Browser()), lambda card: card)


def test_the_second_tap_of_a_double_tap_on_a_card_that_slid_under_it_does_nothing() -> None:
    hand = _hand()
    assert not hand.slid_under("3H", 1000, 200, 600)  # plays the 3♥
    hand.moved["JH"] = 1040  # the J♥ closes the gap, under the finger
    assert hand.slid_under("JH", 1150, 204, 597)


def test_a_tap_aimed_at_the_card_where_it_now_is_counts_however_soon() -> None:
    """A guest's turn can come back within milliseconds; the tap goes for the card where
    it stands now, away from the first tap's spot: it counts."""
    hand = _hand()
    assert not hand.slid_under("JD", 23578, 418, 674)
    hand.moved["AD"] = 23640
    assert not hand.slid_under("AD", 23921, 418 + TAP_SLOP_PX + 19, 668)


def test_a_card_still_since_the_first_tap_or_a_slow_second_tap_counts() -> None:
    hand = _hand()
    hand.moved["AD"] = 900  # slid before the first tap: the finger saw it there
    assert not hand.slid_under("JD", 1000, 300, 600)
    assert not hand.slid_under("AD", 1100, 300, 600)
    hand.moved["KD"] = 1150
    assert not hand.slid_under("KD", 1150 + TAP_GUARD_MS, 300, 600)  # long still since
    hand.moved["QD"] = 2000
    assert not hand.slid_under("QD", 1450 + DOUBLE_TAP_MS, 300, 600)  # not one double tap


def test_a_lone_tap_and_a_tap_after_pass_always_count() -> None:
    hand = _hand()
    hand.moved["AD"] = 1000
    assert not hand.slid_under("AD", 1001, 300, 600)  # nothing came before it
    hand.forget_taps()
    assert not hand.slid_under("AD", 1002, 300, 600)
