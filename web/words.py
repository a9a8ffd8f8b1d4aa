"""Every sentence the table says, written once: names, lists, prompts, events, reasons.

Pure functions of engine values (``PlayerView``, ``Trick``, ``Card``) and of the public
event dicts of ``web.p2p.protocol.event_to_dict`` — the single-player table and a seat at a
private table describe the same events with the same words. Seats are named from the
viewer's side: the viewer is "You", the others by their place ("West", "North (computer)").
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from hearts import SEAT_NAMES, Card, PassDirection, PlayerView, Trick
from hearts.cards import Suit
from hearts.rules import pass_target
from web.p2p.fair.transcript import Cheat, Fault

__all__ = [
    "KIND_WORDS",
    "cards_text",
    "disagreement_text",
    "event_text",
    "fault_text",
    "join",
    "last_trick_text",
    "pass_prompt",
    "plural",
    "reason_text",
    "received_text",
    "scores_text",
    "seat_name",
    "suit_noun",
    "time_left",
    "trick_text",
    "turn_prompt",
]

KIND_WORDS = {"host": " (host)", "computer": " (computer)", "away": " (reconnecting)",
              "open": " (empty seat)"}
"""What a seat's name says about who plays it at a private table."""

# --- refusals and short prompts (the person's move turned down, or what to do now) ----------
CHOSEN_THREE = "You have chosen three cards already: tap one of them to put it back."
CHOOSE_THREE = "Choose exactly three cards to pass."
PASSED_ALREADY = "You've passed: the cards change hands once everyone has chosen."
PASSED_WAIT = "You've passed: wait for the others."
WAIT_TURN = "Wait for your turn."
HINT_LATER = "A hint is ready when it's your turn."
NEW_GAME = "New game."
AT_HOST = "Connected. Waiting for the host…"
SOLO_AGAIN = "Your game goes on against the computers."


def plural(count: int, noun: str) -> str:
    """ "1 card", "2 cards"."""
    return f"{count} {noun}{'' if count == 1 else 's'}"


def join(names: Iterable[str]) -> str:
    """ "a", "a and b", "a, b and c"."""
    items = list(names)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def seat_name(seat: int, me: int, kinds: Sequence[str] = ()) -> str:
    """ "You" for the viewer's own seat, else its place ("North", "North (computer)")."""
    if seat == me:
        return "You"
    kind = kinds[seat] if seat < len(kinds) else ""
    return SEAT_NAMES[seat] + KIND_WORDS.get(kind, "")


def suit_noun(letter: str) -> str:
    """ "spades" for "S"."""
    return Suit("CDHS".index(letter.upper())).noun


def cards_text(cards: Iterable[Card]) -> str:
    """ "the 2 of hearts, the 9 of clubs and the Ace of spades"."""
    return join(f"the {c.name}" for c in cards)


def reason_text(reason: str) -> str:
    """A reason as the tail of a card's name: "You must follow diamonds." → "you must …"."""
    reason = reason.rstrip(".")
    return reason[:1].lower() + reason[1:]


def taken_text(tricks: int, points: int) -> str:
    """A seat's take this hand: "2 tricks · +3" ("" before it has won a trick)."""
    if not tricks:
        return ""
    return plural(tricks, "trick") + (f" · +{points}" if points else "")


def waiting_for(seats: Iterable[int], me: int) -> str:
    """ "Waiting for West and North…" ("" when nobody else is awaited)."""
    others = [SEAT_NAMES[s] for s in seats if s != me]
    return f"Waiting for {join(others)}…" if others else ""


# --- prompts ---------------------------------------------------------------------------------

def pass_prompt(view: PlayerView) -> str:
    """ "Pass 3 cards to the left → West." (or that there is no passing)."""
    if view.pass_to is None:
        return "No passing this hand."
    word = view.pass_direction.word
    where = "across" if view.pass_direction is PassDirection.ACROSS else f"to the {word}"
    return f"Pass 3 cards {where} → {seat_name(view.pass_to, view.seat)}."


def pass_direction_chip(view: PlayerView) -> str:
    """The chip over the trick: "Hand 1: pass left → West"."""
    if view.pass_to is None:
        return "No passing this hand"
    return (f"Hand {view.hand_number}: pass {view.pass_direction.word} → "
            f"{seat_name(view.pass_to, view.seat)}")


def time_left(seconds: int) -> str:
    """The turn timer, after the prompt: "25 s left." (the computer moves after that)."""
    return f"{seconds} s left." if seconds > 0 else "Time's up: the computer moves."


def chosen_text(count: int) -> str:
    """What choosing a card to pass says: "2 of 3 chosen." / "Three chosen: press Pass."."""
    return f"{count} of 3 chosen." if count < 3 else "Three chosen: press Pass."


def turn_prompt(view: PlayerView) -> str:
    """ "Your turn: lead a card." or "Your turn."."""
    return "Your turn: lead a card." if view.trick is None or not view.trick.cards \
        else "Your turn."


def hand_start(view: PlayerView) -> str:
    """Said when a new hand begins (after the summary): its number and what to do."""
    if view.pass_to is None:
        return f"Hand {view.hand_number}: no passing this time."
    return f"Hand {view.hand_number}. {pass_prompt(view)}"


def received_text(view: PlayerView) -> str:
    """ "You received the … from West." once the passes have been exchanged."""
    if not view.received:
        return ""
    giver = next(s for s in range(4) if pass_target(s, view.pass_direction) == view.seat)
    return f"You received {cards_text(view.received)} from {SEAT_NAMES[giver]}."


def hint_text(cards: Sequence[Card], reason: str) -> str:
    """ "Hint: Queen of spades. Pass the queen…"."""
    return f"Hint: {', '.join(c.name for c in cards)}. {reason}".strip()


def took_back(card: Card) -> str:
    return f"Took back your {card.name}. Your turn again."


# --- events ------------------------------------------------------------------------------

def points_text(points: Sequence[int], me: int, order: Iterable[int] = range(4)) -> str:
    """ "You 0, West 26, North 26, East 26" (seats in ``order``)."""
    return ", ".join(f"{seat_name(s, me)} {points[s]}" for s in order)


def event_text(event: Mapping[str, Any], me: int, kinds: Sequence[str] = ()) -> str:
    """A sentence for a public event (``event_to_dict``'s form) from seat ``me``'s side;
    "" for events that aren't told (a pass chosen, a deal)."""
    kind = event.get("e")
    seat = int(event.get("seat", 0)) % 4
    name = seat_name(seat, me)
    if kind == "played":
        return f"{name} played the {Card.parse(str(event['card'])).name}."
    if kind == "trick":
        worth = f" ({plural(int(event['points']), 'point')})" if event["points"] else ""
        return f"{name} {'take' if seat == me else 'takes'} the trick{worth}."
    if kind == "broken":
        return "Hearts are broken."
    if kind == "moon":
        return f"{name} shot the moon!"
    if kind == "scored":
        scores = [int(v) for v in event["scores"]]
        return f"Hand {int(event['hand'])} is over. Points this hand: " \
            f"{points_text(scores, me)}."
    if kind == "over":
        winner = int(event["winner"])
        return "Game over. You win." if winner == me else \
            f"Game over. {SEAT_NAMES[winner]} wins."
    return ""


# --- reading the table aloud (the T, L and S keys) ---------------------------------------

def _plays_text(trick: Trick, me: int) -> str:
    """ "West led the 2 of clubs, you played the King of clubs, …"."""
    parts = [f"{seat_name(seat, me)} {'led' if n == 0 else 'played'} the {card.name}"
             for n, (seat, card) in enumerate(trick.plays())]
    return ", ".join(parts[:1] + [p[0].lower() + p[1:] if p.startswith("You ") else p
                                  for p in parts[1:]])


def trick_text(view: PlayerView, shown: Trick | None = None) -> str:
    """The cards on the table now; ``shown``: a finished trick still on show."""
    if shown is not None and shown.cards:
        winner = shown.winner if shown.winner is not None else view.seat
        taker = "you take it" if winner == view.seat else \
            f"{seat_name(winner, view.seat)} takes it"
        return f"On the table: {_plays_text(shown, view.seat)}; {taker}."
    trick = view.trick
    if trick is None or not trick.cards:
        if view.my_turn:
            return "No cards on the table: it's your lead."
        if view.to_play is not None:
            return f"No cards on the table: {seat_name(view.to_play, view.seat)} leads."
        return "No cards on the table."
    tail = " Your turn." if view.my_turn else ""
    return f"On the table: {_plays_text(trick, view.seat)}.{tail}"


def last_trick_text(view: PlayerView) -> str:
    """The last finished trick of this hand."""
    if not view.tricks:
        return "No trick has been finished yet this hand."
    trick = view.tricks[-1]
    winner = trick.winner if trick.winner is not None else view.seat
    took = "You took it" if winner == view.seat else f"{seat_name(winner, view.seat)} took it"
    worth = f", {plural(trick.points, 'point')}" if trick.points else ""
    return f"Last trick: {_plays_text(trick, view.seat)}. {took}{worth}."


def last_trick_caption(view: PlayerView) -> str:
    trick = view.tricks[-1]
    return f"Last trick: {seat_name(trick.winner or 0, view.seat)} took it"


def scores_text(view: PlayerView) -> str:
    """Total scores and this hand's points so far."""
    me = view.seat
    totals = points_text(view.scores, me)
    taken = [f"{seat_name(s, me)} {view.hand_points[s]}" for s in range(4) if view.hand_points[s]]
    hand = f" This hand so far: {', '.join(taken)}." if taken else \
        " No points taken yet this hand."
    return f"Scores: {totals}.{hand}"


# --- fair tables: what the audit found -------------------------------------------------------
FAIR_HAND = "Every page checked this hand: the deal, the passes and every card were fair."
FAIR_VOID = "This hand doesn't count. You can leave the table, or go on without them."

_CHEATS = {
    Cheat.BAD_DECK: "sent a deck that wasn't 52 different cards",
    Cheat.SHUFFLE: "changed the deck while shuffling it",
    Cheat.LOCK: "changed cards while locking the deck",
    Cheat.OPEN: "spoiled a card while opening it to its player",
    Cheat.PASS_NOT_OWN: "tried to pass cards they weren't dealt",
    Cheat.BLIND: "spoiled the cards passed to them",
    Cheat.FALSE_PASS: "passed cards other than the ones they chose",
    Cheat.NOT_DEALT: "played a card that wasn't dealt or passed to them",
    Cheat.BAD_KEY: "played a card with a key that doesn't open it",
    Cheat.OUT_OF_TURN: "played or sent a message out of turn",
    Cheat.NOT_2C: "led before the 2 of clubs",
    Cheat.REVOKE: "didn't follow suit",
    Cheat.FIRST_TRICK: "played points on the first trick while holding other cards",
    Cheat.UNBROKEN: "led a heart before hearts were broken, holding other suits",
    Cheat.BAD_KEYS: "showed keys at the end that aren't the ones they played with",
    Cheat.NO_KEYS: "didn't show their keys at the end of the hand",
    Cheat.FALSE_ALARM: "said a card of theirs didn't open, and it did",
    Cheat.MALFORMED: "sent a message the fair deal doesn't have",
}


def disagreement_text(seats: Sequence[int], me: int, kinds: Sequence[str] = ()) -> str:
    """The pages' records differ: someone sent different pages different things."""
    return (f"{join(seat_name(s, me, kinds) for s in seats)} saw different messages from "
            "yours, so nobody can be named. This hand doesn't count.")


def fault_text(fault: Fault, me: int, kinds: Sequence[str] = ()) -> str:
    """What the audit found, naming the seat: "West cheated: changed the deck while …"."""
    what = _CHEATS[fault.kind]
    if fault.kind is Cheat.REVOKE and fault.card is not None and fault.suit is not None:
        suit = Suit(fault.suit).noun
        what = f"played the {fault.card.name} when {suit} were led, while holding {suit}"
    elif fault.kind in (Cheat.FIRST_TRICK, Cheat.UNBROKEN, Cheat.NOT_2C) and fault.card:
        what += f" (the {fault.card.name})"
    return f"{seat_name(fault.seat, me, kinds)} cheated: {what}."
