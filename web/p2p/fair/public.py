"""The game at a fair table as every page can see it: from the cards played, and one hand.

No page holds a ``Game`` with hidden hands; each builds its seat's ``PlayerView`` from the
public record (the plays, who chose a pass, the scores so far) and its own cards. The rules
are the engine's: ``legal_mask`` for the legal plays, the highest card of the led suit wins
a trick, ``hand_scores`` scores the hand. Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from hearts import Card, Phase, PlayerView, Trick
from hearts.cards import Suit, cards_of_mask, mask_of
from hearts.rules import NUM_SEATS, PassDirection, Rules, hand_scores, legal_mask
from web.p2p.fair.transcript import Play

__all__ = ["PublicHand", "Score", "game_winner"]

Score = tuple[int, int, int, int]


def _winner(cards: Sequence[Play]) -> int:
    led = cards[0].card.suit
    return max((p for p in cards if p.card.suit == led), key=lambda p: p.card.rank).seat


@dataclass(frozen=True)
class PublicHand:
    """One hand's public facts: the plays in order (everything else follows from them)."""

    plays: tuple[Play, ...]

    def tricks(self) -> tuple[Trick, ...]:
        """The finished tricks, each with its winner."""
        done = len(self.plays) - len(self.plays) % 4
        return tuple(Trick(group[0].seat, tuple(p.card for p in group), _winner(group))
                     for group in (self.plays[i:i + 4] for i in range(0, done, 4)))

    def trick(self) -> Trick | None:
        """The trick being played (None between tricks)."""
        rest = self.plays[len(self.plays) - len(self.plays) % 4:]
        return Trick(rest[0].seat, tuple(p.card for p in rest)) if rest else None

    def points(self) -> Score:
        """Penalty points each seat has taken so far."""
        taken = [0] * NUM_SEATS
        for trick in self.tricks():
            assert trick.winner is not None
            taken[trick.winner] += trick.points
        return (taken[0], taken[1], taken[2], taken[3])

    def scores(self, rules: Rules) -> Score:
        """The hand's scores, moon applied (only once all 52 cards are played)."""
        return hand_scores(self.points(), rules)[0]

    def legal(self, hand: Sequence[Card], rules: Rules) -> tuple[Card, ...]:
        """The legal plays from ``hand`` now (the engine's ``legal_mask``)."""
        trick = self.trick()
        led = trick.cards[0].suit if trick is not None else -1
        return tuple(cards_of_mask(legal_mask(mask_of(hand), led, len(self.plays) < 4,
                                              self.hearts_broken(), rules)))

    def hearts_broken(self) -> bool:
        """Whether a heart has been played (the Q♠ doesn't break hearts in our rules)."""
        return any(p.card.suit == Suit.HEARTS for p in self.plays)

    def view(self, seat: int, *, rules: Rules, hand_number: int, direction: PassDirection,
             hand: Sequence[Card], passed: tuple[Card, ...] | None,
             received: tuple[Card, ...] | None, chosen: Sequence[bool], to_play: int | None,
             scores: Score, history: Sequence[Score], playing: bool,
             legal: tuple[Card, ...]) -> PlayerView:
        """``seat``'s view: its ``hand`` now, and everything public (``playing``: the cards
        changed hands and the hand is under way; else it is the passing; ``legal``: its
        plays, ``legal`` above when it is to play)."""
        sizes = [13 - sum(1 for p in self.plays if p.seat == s) for s in range(NUM_SEATS)]
        mine = tuple(sorted(hand))
        c = tuple(bool(x) for x in chosen)
        return PlayerView(
            seat=seat, rules=rules, phase=Phase.PLAY if playing else Phase.PASS,
            hand_number=hand_number, pass_direction=direction, hand=mine, passed=passed,
            received=received, pass_chosen=(c[0], c[1], c[2], c[3]), tricks=self.tricks(),
            trick=self.trick(), hearts_broken=self.hearts_broken(), hand_points=self.points(),
            scores=scores, hand_history=tuple(history),
            hand_sizes=(sizes[0], sizes[1], sizes[2], sizes[3]),
            to_play=to_play if playing else None, legal_plays=legal, winner=None)


def game_winner(totals: Score, rules: Rules) -> int | None:
    """The seat that won (the lowest total) once someone reached the end score, else None."""
    if max(totals) < rules.end_score:
        return None
    return min(range(NUM_SEATS), key=lambda s: totals[s])
