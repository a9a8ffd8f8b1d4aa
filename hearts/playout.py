"""When the rest of a hand can't change anyone's points: it may be played out at once.

``certain_outcome(state)`` returns the points each seat will have taken at the hand's end
(and who takes the J♦) when every legal way of playing the rest gives the same, else
None. It is sure in two cases, checked at the next trick's lead (every way of finishing
the trick in progress is tried):

- no point card is left out (no heart, no Q♠; no J♦ under that rule): nothing can move;
- the seat to lead holds, in each suit it has, only cards above every card the others
  hold in that suit: whatever it leads wins, so it takes every trick left.

It may answer None where the rest is in fact decided (it never tries whole lines of
play); it never answers where it isn't (``tests/test_playout.py`` checks that against
playing out every line). Pure and cheap: the page asks it after every card.

>>> game = Game.from_deal(["2C3C4C5C6C7C8C9CTCJCQCKCAC", "2D3D4D5D6D7D8D9DTDJDQDKDAD",
...                        "2H3H4H5H6H7H8H9HTHJHQHKHAH", "2S3S4S5S6S7S8S9STSJSQSKSAS"],
...                       history=[(13, 13, 0, 0)] * 3)
>>> certain_outcome(state_of(game))  # South's clubs take every trick: all 26 points
((26, 0, 0, 0), None)
"""

from __future__ import annotations

from itertools import product

from hearts.cards import SUIT_MASKS, Card, highest, indices_of_mask, lowest
from hearts.game import Game
from hearts.handstate import HandState
from hearts.rules import JD_MASK, POINT_CARDS_MASK
from hearts.view import Phase

__all__ = ["Outcome", "certain_outcome", "jd_taker_of", "state_of"]

Outcome = tuple[tuple[int, int, int, int], int | None]
"""The points each seat has taken at the hand's end, and the J♦'s taker (under the J♦
rule; else None)."""

_JD = JD_MASK.bit_length() - 1


def state_of(game: Game) -> HandState:
    """The trick play of ``game``'s hand as it stands (a copy: changing it changes nothing
    in the game). Raises ValueError outside the play of a hand."""
    if game.phase is not Phase.PLAY:
        raise ValueError("a hand is played out during its play")
    hands = [0, 0, 0, 0]
    for seat in range(4):
        for card in game.hand(seat):
            hands[seat] |= card.mask
    state = HandState(hands, game.rules)
    trick = game.current_trick
    state.points = list(game.hand_points)
    state.broken = game.hearts_broken
    state.tricks_done = len(game.tricks)
    to_play = game.to_play
    assert to_play is not None
    state.to_play = to_play
    if trick is not None and trick.cards:
        state.leader = trick.leader
        state.trick = [card.index for card in trick.cards]
        state.led_suit = int(trick.cards[0].suit)
    else:
        state.leader = to_play
        state.trick = []
        state.led_suit = -1
    return state


def jd_taker_of(game: Game) -> int | None:
    """Who took the J♦ so far this hand, under the J♦ rule (None otherwise)."""
    if not game.rules.jd_bonus:
        return None
    return next((t.winner for t in game.tricks if any(c.mask & JD_MASK for c in t.cards)),
                None)


def certain_outcome(state: HandState, jd_taker: int | None = None) -> Outcome | None:
    """The hand's outcome if the rest of ``state`` can't change it, else None (see the
    module docstring). ``jd_taker``: who took the J♦ already (J♦ rule only)."""
    if not state.trick:
        return _at_lead(state.hands, state.leader, state.points, jd_taker, state)
    # Every way of finishing the trick in progress: each must lead to the same outcome.
    seats = [(state.leader + i) & 3 for i in range(len(state.trick), 4)]
    choices = []
    for seat in seats:
        state.to_play = seat  # (legal() reads the seat to play; put back below)
        choices.append(indices_of_mask(state.legal()))
    state.to_play = seats[0]
    found: Outcome | None = None
    for cards in product(*choices):
        after = state.copy()
        jd = jd_taker
        winner = -1
        for index in cards:
            winner = after.apply(index)
        if state.rules.jd_bonus and any(i == _JD for i in (*state.trick, *cards)):
            jd = winner
        outcome = _at_lead(after.hands, after.leader, after.points, jd, after)
        if outcome is None or (found is not None and outcome != found):
            return None
        found = outcome
    return found


def _at_lead(hands: list[int], leader: int, points: list[int], jd_taker: int | None,
             state: HandState) -> Outcome | None:
    """The outcome, sure, with ``leader`` to lead from ``hands``; None if not sure."""
    left = hands[0] | hands[1] | hands[2] | hands[3]
    jd_rule = state.rules.jd_bonus
    at_stake = POINT_CARDS_MASK | (JD_MASK if jd_rule else 0)
    taken = (points[0], points[1], points[2], points[3])
    if not left & at_stake:
        return taken, jd_taker
    mine = hands[leader]
    others = left & ~mine
    for suit_mask in SUIT_MASKS:
        own = mine & suit_mask
        theirs = others & suit_mask
        if own and theirs and lowest(own) < highest(theirs):
            return None
    # The leader wins every trick left: every point card still out goes to it.
    gain = sum(Card.from_index(i).points for i in indices_of_mask(left & POINT_CARDS_MASK))
    swept = list(taken)
    swept[leader] += gain
    jd = leader if jd_rule and left & JD_MASK else jd_taker
    return (swept[0], swept[1], swept[2], swept[3]), jd
