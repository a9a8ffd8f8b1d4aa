"""The felt table drawn from one seat's ``PlayerView``: the seam between the page and a game.

Everything here is a pure function of a ``PlayerView`` (plus the page's own bits: the
cards chosen to pass, the hint, a trick still on show), so the same table draws a
single-player game (``web.app`` asks its local engine for ``game.view(0)``) and a seat at
a friend's table (``web.friends`` gets the view from the host). Seats are placed relative
to the view's seat: it is always at the bottom. Whether a card may be played, and why
not, comes from the rules (``hearts.rules.illegal_reason``) applied to the view, never
from the page; the game's owner checks every move again.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pyodide.ffi import jsnull  # type: ignore[import-not-found]

from hearts import SEAT_NAMES, Card, PassDirection, Phase, PlayerView, Trick
from hearts.rules import illegal_reason
from web import announce
from web.hand_view import CardState

__all__ = ["POSITIONS", "card_face", "hand_states", "pass_prompt", "position", "seat_name",
           "suit_class", "trick_html", "why_not"]

POSITIONS = ("south", "west", "north", "east")
"""Where a seat sits on the page, by its place clockwise from the viewer."""
RED_SUITS = {"H", "D"}
KIND_WORDS = {"host": " (host)", "computer": " (computer)", "away": " (reconnecting)",
              "open": " (empty seat)"}


def position(seat: int, me: int) -> str:
    """The place on the page (``south`` … ``east``) of ``seat`` for seat ``me``'s page."""
    return POSITIONS[(seat - me) % 4]


def seat_name(seat: int, me: int, kinds: Sequence[str] = ()) -> str:
    """ "You", or the seat's name ("North", "North (computer)" when ``kinds`` says so)."""
    if seat == me:
        return "You"
    kind = kinds[seat] if seat < len(kinds) else ""
    return SEAT_NAMES[seat] + KIND_WORDS.get(kind, "")


def card_face(card: Card) -> str:
    suit = card.suit.symbol + "\ufe0e"  # text presentation, never an emoji
    rank = card.short[:-1]
    return (f'<span class="corner" aria-hidden="true"><span class="r">{rank}</span>'
            f'<span class="s">{suit}</span></span>'
            f'<span class="pip" aria-hidden="true">{suit}</span>')


def suit_class(card: Card) -> str:
    letter = card.notation[1]
    return f"suit-{letter.lower()} {'red' if letter in RED_SUITS else 'black'}"


def why_not(view: PlayerView, card: Card) -> str | None:
    """None if the view's seat may play ``card`` now, else a sentence saying why not."""
    if view.phase is Phase.PASS:
        return "It's not time to play yet: first everyone passes three cards."
    if view.phase is Phase.GAME_OVER:
        return "The game is over."
    if not view.my_turn:
        who = SEAT_NAMES[view.to_play] if view.to_play is not None else "someone else"
        return f"It's not your turn: {who} plays next."
    trick = view.trick
    led = int(trick.cards[0].suit) if trick is not None and trick.cards else -1
    reason = illegal_reason(card, view.hand_mask, led, view.first_trick, view.hearts_broken,
                            view.rules)
    if reason is None and view.legal_plays and card not in view.legal_plays:
        return "That card can't be played now."  # the view and the rules disagree: refuse
    return reason


def hand_states(view: PlayerView, *, selected: Sequence[str], received: set[str],
                hinted: set[str], waiting: bool, can_pass: bool = True) -> list[CardState]:
    """The hand's cards as ``HandView`` draws them (``waiting``: not the person's move now)."""
    passing = view.phase is Phase.PASS
    states = []
    for card in view.hand:
        n = card.notation
        classes = ["card", "face", suit_class(card)]
        if passing:
            reason = None if can_pass else "You've passed: wait for the others."
        else:
            reason = why_not(view, card)
        if waiting and not passing and reason is None:
            reason = "Wait for your turn."
        label = card.name
        if passing and n in selected:
            classes.append("selected")
            label += ", selected"
        if n in received:
            classes.append("received")
            label += ", received"
        if n in hinted:
            classes.append("hinted")
            label += ", suggested"
        if reason is not None:
            classes.append("dim" if view.my_turn and not waiting else "waiting")
            label += f", can't play: {announce.reason_text(reason)}"
        states.append(CardState(n, " ".join(classes), label, reason is not None, card_face(card)))
    return states


def trick_html(trick: Trick | None, me: int, *, fresh: str | None = None,
               winner: int | None = None) -> str:
    """The cards of ``trick``, each coming from its player's place on the page."""
    parts = []
    if trick is not None:
        for seat, card in trick.plays():
            classes = ["card", "face", suit_class(card), f"from-{position(seat, me)}"]
            if card.notation == fresh:
                classes.append("fresh")
            if winner == seat:
                classes.append("winner")
            label = f"{seat_name(seat, me)}: {card.name}"
            parts.append(f'<div class="{" ".join(classes)}" data-card="{card.notation}" '
                         f'data-from="{seat}" role="img" aria-label="{label}">'
                         f"{card_face(card)}</div>")
    return "".join(parts)


def pass_prompt(view: PlayerView) -> str:
    """ "Pass 3 cards to the left → West." (or that there is no passing)."""
    if view.pass_to is None:
        return "No passing this hand."
    word = view.pass_direction.word
    where = "across" if view.pass_direction is PassDirection.ACROSS else f"to the {word}"
    return f"Pass 3 cards {where} → {seat_name(view.pass_to, view.seat)}."


def received_marked(view: PlayerView) -> set[str]:
    """The cards received in the pass, marked until this seat's first play."""
    if not view.received or any(seat == view.seat for seat, _ in view.plays()):
        return set()
    return {c.notation for c in view.received}


def draw_seats(document: Any, view: PlayerView, turn: int | None,
               kinds: Sequence[str] = ()) -> None:
    """Names, scores, points taken and card counts at each place, the viewer at the bottom."""
    me = view.seat
    for seat in range(4):
        box = document.querySelector(f".seat-{position(seat, me)}[data-seat]")
        box.dataset.seat = str(seat)
        name = box.querySelector(".name")
        text = seat_name(seat, me, kinds)
        if str(name.textContent) != text:
            name.textContent = text
        box.querySelector(".score").textContent = str(view.scores[seat])
        taken = view.hand_points[seat]
        box.querySelector(".taken").textContent = f"+{taken} this hand" if taken else ""
        count = box.querySelector(".count")
        if count is not None and count is not jsnull:
            n = view.hand_sizes[seat]
            count.textContent = f"{n} card{'s' if n != 1 else ''}"
        box.classList.toggle("turn", turn == seat)


def summary_html(view: PlayerView, hand: int | None, scores: Sequence[int] | None,
                 moon: int | None, over: bool, button: str) -> str:
    """The end-of-hand (or end-of-game) summary: points, the moon, the running score table.

    ``hand``/``scores``/``moon``: the hand just scored (None when only the game is over);
    ``button``: the HTML of the dialog's button.
    """
    me = view.seat
    parts = []
    if over:
        winner = view.winner if view.winner is not None else me
        title = "You win!" if winner == me else f"{seat_name(winner, me)} wins"
        parts.append(f'<h2 id="summary-title">Game over — {title}</h2>')
        order = sorted(range(4), key=lambda seat: view.scores[seat])
        final = ", ".join(f"{seat_name(seat, me)} {view.scores[seat]}" for seat in order)
        parts.append(f'<p class="final" id="summary-final">Final scores: {final}.</p>')
    if hand is not None and scores is not None:
        if not over:
            parts.append(f'<h2 id="summary-title">Hand {hand} is over</h2>')
        if moon == me:
            parts.append('<p class="moon">You shot the moon! You score 0 and everyone '
                         "else 26.</p>")
        elif moon is not None:
            who = seat_name(moon, me)
            parts.append(f'<p class="moon">{who} shot the moon: 0 for {who}, 26 for '
                         "everyone else.</p>")
        points = ", ".join(f"{seat_name(seat, me)} {scores[seat]}" for seat in range(4))
        parts.append(f'<p id="summary-desc">Points this hand: {points}.</p>')
    heads = "".join(f'<th scope="col">{seat_name(seat, me)}</th>' for seat in range(4))
    rows = []
    for number, row in enumerate(view.hand_history, start=1):
        cls = ' class="current"' if number == hand else ""
        cells = "".join(f'<td data-points="{v}">{v}</td>' for v in row)
        rows.append(f'<tr{cls}><th scope="row">{number}</th>{cells}</tr>')
    totals = "".join(f"<td>{v}</td>" for v in view.scores)
    parts.append(f'<table class="scores"><caption>Points per hand</caption>'
                 f'<thead><tr><th scope="col">Hand</th>{heads}</tr></thead>'
                 f'<tbody>{"".join(rows)}</tbody>'
                 f'<tfoot><tr><th scope="row">Total</th>{totals}</tr></tfoot></table>')
    parts.append(button)
    return "".join(parts)


def draw_indicators(el: Any, view: PlayerView) -> None:
    """The pass-direction and hearts-broken chips (``el``: the table's elements by id)."""
    if view.pass_to is None:
        el["pass-dir"].textContent = "No passing this hand"
    else:
        el["pass-dir"].textContent = (f"Hand {view.hand_number}: pass "
                                      f"{view.pass_direction.word} → "
                                      f"{seat_name(view.pass_to, view.seat)}")
    broken = el["hearts-state"]
    broken.textContent = "♥\ufe0e broken" if view.hearts_broken else "♥\ufe0e not broken"
    broken.classList.toggle("on", bool(view.hearts_broken))
