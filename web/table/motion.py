"""Motion that tells the story: cards travel from where they were to where they go.

Each move is the difference between two drawn tables (the ``TableModel`` before and after),
played with the Web Animations API on transform and opacity only: a played card flies
from its player's seat (your own from its place in your hand) to the trick; a finished
trick sweeps to the seat that took it; passed cards fly to their receiver and the received
ones come in from their giver; a new hand is dealt from the centre. The model decides what
happened; this module only measures the page and animates. Nothing moves under
``?speed=instant`` or when the system asks for reduced motion.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from hearts import Card
from web.browser import Browser, Element
from web.table.model import TableModel, card_classes

__all__ = ["Motion", "Rect"]

SPEED_FACTOR = {"slow": 1.6, "normal": 1.0, "fast": 0.6}
"""How much longer (or shorter) every motion runs at each speed setting."""
TRAVEL_MS = 300
SWEEP_MS = 320
PASS_MS = 420
DEAL_MS = 260
DEAL_STEP_MS = 28


@dataclass(frozen=True)
class Rect:
    """A box on the screen, in CSS pixels from the viewport's top left."""

    left: float
    top: float
    width: float
    height: float

    @property
    def cx(self) -> float:
        return self.left + self.width / 2

    @property
    def cy(self) -> float:
        return self.top + self.height / 2


def from_to(start: Rect, end: Rect, scale: float | None = None) -> str:
    """The transform that puts a box laid out at ``end`` over ``start``."""
    if scale is None:
        scale = start.width / end.width if end.width else 1.0
    return (f"translate({start.cx - end.cx:.1f}px, {start.cy - end.cy:.1f}px) "
            f"scale({scale:.2f})")


class Motion:
    """Measures the table before it is drawn and animates the difference after."""

    def __init__(self, browser: Browser, face: Callable[[str], str]) -> None:
        """``face``: the HTML of a card's drawn face, by notation."""
        self.browser = browser
        self.face = face
        self.document = browser.document
        self.layer = browser.element("flying")
        """Where copies of cards that left the hand fly (fixed, above the table)."""

    def enabled(self) -> bool:
        root = self.document.documentElement
        return not root.classList.contains("instant") and not self.browser.reduced_motion()

    def factor(self) -> float:
        return SPEED_FACTOR.get(str(self.document.documentElement.dataset.speed), 1.0)

    def rect(self, node: Element | None) -> Rect | None:
        if node is None:
            return None
        r = node.getBoundingClientRect()
        if not r.width:
            return None
        return Rect(float(r.left), float(r.top), float(r.width), float(r.height))

    def seat_rect(self, place: str) -> Rect | None:
        """Where a seat's cards are: its fan of card backs, else its name plate."""
        seat = self.browser.query(f".seat-{place}[data-seat]")
        if seat is None:
            return None
        return self.rect(self.browser.query(".fan", seat)) or self.rect(seat)

    def capture(self, hand: Element) -> dict[str, Rect]:
        """The hand's cards where they are now, before the table is drawn again."""
        if not self.enabled():
            return {}
        found: dict[str, Rect] = {}
        for button in hand.querySelectorAll("button[data-card]"):
            box = self.rect(button)
            if box is not None:
                found[str(button.dataset.card)] = box
        return found

    # --- the moves -------------------------------------------------------------------

    def play(self, before: TableModel | None, now: TableModel, fresh: str | None,
             hand_was: dict[str, Rect], trick: Element, hand: Element) -> None:
        """Animate what changed from ``before`` to ``now`` (``fresh``: a card just played;
        ``hand_was``: the hand's cards as they stood; ``trick``, ``hand``: the elements)."""
        if before is None or not self.enabled():
            return
        factor = self.factor()
        if self.layer is not None and (fresh is not None or now.deal != before.deal):
            self.layer.replaceChildren()  # the copies of passed cards, long faded out
        if fresh is not None:
            self._travel(fresh, now, hand_was, trick, factor)
        if now.collect_to and not before.collect_to:
            self._sweep(now.collect_to, trick, factor)
        in_hand = {c.notation for c in now.hand}
        if before.passing and not now.passing and before.deal == now.deal:
            self._pass(now, hand_was, in_hand, hand, factor)
        elif now.deal != before.deal and now.hand:
            self._deal(hand, trick, factor)

    def _travel(self, notation: str, now: TableModel, hand_was: dict[str, Rect],
                trick: Element, factor: float) -> None:
        card = next((c for c in now.trick if c.notation == notation), None)
        node = self.browser.query(f'[data-card="{notation}"]', trick)
        end = self.rect(node)
        if card is None or node is None or end is None:
            return
        start = hand_was.get(notation) if card.place == "south" else None
        start = start or self.seat_rect(card.place)
        if start is None:
            return
        scale = None if card.place == "south" else 0.55
        self.browser.animate(node, [{"transform": from_to(start, end, scale)},
                                    {"transform": "none"}],
                             TRAVEL_MS * factor, easing="cubic-bezier(.2,.7,.3,1)")

    def _sweep(self, place: str, trick: Element, factor: float) -> None:
        target = self.seat_rect(place)
        if target is None:
            return
        for node in trick.querySelectorAll("[data-card]"):
            end = self.rect(node)
            if end is None:
                continue
            self.browser.animate(node, [{"transform": "none", "opacity": "1"},
                                        {"transform": from_to(target, end, 0.45),
                                         "opacity": "0"}],
                                 SWEEP_MS * factor, easing="ease-in", fill="forwards")

    def _pass(self, now: TableModel, hand_was: dict[str, Rect], in_hand: set[str],
              hand: Element, factor: float) -> None:
        """Your three cards fly to their receiver; the three you get come in from the giver."""
        gone = [n for n in hand_was if n not in in_hand]
        target = self.seat_rect(now.pass_to) if now.pass_to else None
        if self.layer is not None and target is not None:
            self.layer.replaceChildren()
            for notation in gone:
                start = hand_was[notation]
                copy = self._copy(notation, start)
                self.browser.animate(copy, [{"transform": "none", "opacity": "1"},
                                            {"transform": from_to(target, start, 0.5),
                                             "opacity": "0"}],
                                     PASS_MS * factor, easing="ease-in", fill="forwards")
        source = self.seat_rect(now.pass_from) if now.pass_from else None
        if source is None:
            return
        for button in hand.querySelectorAll("button[data-card]"):
            if str(button.dataset.card) in hand_was:
                continue
            end = self.rect(button)
            if end is not None:
                self.browser.animate(button, [{"transform": from_to(source, end, 0.5),
                                               "opacity": "0"},
                                              {"transform": "none", "opacity": "1"}],
                                     PASS_MS * factor, delay=PASS_MS * factor * 0.6)

    def _copy(self, notation: str, at: Rect) -> Element:
        """A stand-in for a card that has left the hand, drawn where it was."""
        copy = self.document.createElement("div")
        copy.className = f"{card_classes(Card.parse(notation))} flying-card"
        copy.dataset.flying = notation
        copy.innerHTML = self.face(notation)
        style = copy.style
        style.left = f"{at.left:.1f}px"
        style.top = f"{at.top:.1f}px"
        style.setProperty("--w", f"{at.width:.1f}px")
        self.layer.appendChild(copy)
        return copy

    def _deal(self, hand: Element, trick: Element, factor: float) -> None:
        """A new hand comes from the middle of the table, card by card."""
        centre = self.rect(trick)
        if centre is None:
            return
        for index, button in enumerate(hand.querySelectorAll("button[data-card]")):
            end = self.rect(button)
            if end is not None:
                self.browser.animate(button, [{"transform": from_to(centre, end, 0.4),
                                               "opacity": "0"},
                                              {"transform": "none", "opacity": "1"}],
                                     DEAL_MS * factor, delay=index * DEAL_STEP_MS * factor)

