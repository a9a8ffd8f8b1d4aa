"""A finished hand's story: who took the Q♠ (and the J♦), the hearts each seat took, the
moon shot or stopped.

Read from the hand's public tricks only (every card played, and who took each trick), so
any seat may be told it. Pure: the page words it (``web.words.story_lines``).

>>> from hearts import Card, Rules
>>> plays = [(s, Card.parse(c)) for s, c in [(0, "2C"), (1, "QS"), (2, "3C"), (3, "AH")]]
>>> tricks = tricks_of(plays)
>>> tricks[0].winner
2
>>> hand_story(tricks, Rules()).queen
2
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from hearts.cards import HEARTS_MASK, Card
from hearts.rules import JD_MASK, QS_MASK, Rules
from hearts.view import Trick

__all__ = ["HandStory", "hand_story", "trick_winner", "tricks_of"]

Four = tuple[int, int, int, int]


def trick_winner(leader: int, cards: Sequence[Card]) -> int:
    """The seat that takes a complete trick led by ``leader``: the highest card of the
    suit led. Raises ValueError for a trick that isn't four cards."""
    if len(cards) != 4:
        raise ValueError(f"a trick has four cards, not {len(cards)}")
    led = cards[0].suit
    best = max(range(4), key=lambda i: int(cards[i].rank) if cards[i].suit == led else -1)
    return (leader + best) % 4


def tricks_of(plays: Iterable[tuple[int, Card]]) -> tuple[Trick, ...]:
    """The complete tricks of ``plays`` ((seat, card) in play order), each with its winner;
    a trick still in progress at the end is left out. Raises ValueError when a card is
    played out of turn."""
    tricks: list[Trick] = []
    current: list[Card] = []
    leader = expected = -1
    for seat, card in plays:
        if current and seat != expected:
            raise ValueError(f"seat {seat} played {card} out of turn (seat {expected} was due)")
        if not current:
            leader = seat
        current.append(card)
        expected = (seat + 1) % 4
        if len(current) == 4:
            tricks.append(Trick(leader, tuple(current), trick_winner(leader, current)))
            current = []
    return tuple(tricks)


@dataclass(frozen=True, slots=True)
class HandStory:
    """What decided a hand's points, seat by seat."""

    hearts: Four
    """How many hearts each seat took."""
    queen: int | None
    """The seat that took the Q♠ (None: it wasn't played, a hand cut short)."""
    jack: int | None
    """The seat that took the J♦, under the J♦ house rule (None otherwise)."""
    moon: int | None
    """The seat that took every heart and the Q♠ (when moons count)."""
    stopped: tuple[int, int] | None
    """(would-be shooter, stopper): one seat took at least ten of the 14 point cards and
    one other seat took all the rest (a moon stopped); None otherwise."""
    tricks: Four
    """How many tricks each seat took."""


def hand_story(tricks: Iterable[Trick], rules: Rules) -> HandStory:
    """The story of a hand from its complete ``tricks`` (each with its winner)."""
    hearts = [0, 0, 0, 0]
    point_cards = [0, 0, 0, 0]
    taken = [0, 0, 0, 0]
    queen = jack = None
    for trick in tricks:
        seat = trick.winner
        if seat is None:
            raise ValueError("a trick of the story has no winner")
        taken[seat] += 1
        for card in trick.cards:
            if card.mask & HEARTS_MASK:
                hearts[seat] += 1
                point_cards[seat] += 1
            elif card.mask & QS_MASK:
                queen = seat
                point_cards[seat] += 1
            elif card.mask & JD_MASK and rules.jd_bonus:
                jack = seat
    moon = next((s for s in range(4) if hearts[s] == 13 and queen == s), None) \
        if rules.shoot_the_moon else None
    stopped = None
    if rules.shoot_the_moon and moon is None:
        total = sum(point_cards)
        for s in range(4):
            rest = [o for o in range(4) if o != s and point_cards[o]]
            if point_cards[s] >= 10 and len(rest) == 1 and total == 14:
                stopped = (s, rest[0])
    return HandStory((hearts[0], hearts[1], hearts[2], hearts[3]), queen, jack, moon, stopped,
                     (taken[0], taken[1], taken[2], taken[3]))
