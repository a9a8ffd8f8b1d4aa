"""One hand as one seat saw it: its dealt cards, its pass, what it received, every play.

``SeatHand`` is to a whole hand what ``PlayerView`` is to one moment: it holds nothing the
seat could not see, so whatever is computed from it (the coach's review) cannot depend
on hidden cards. ``SeatHand.from_view(view)`` records the hand so far from the seat's own
view; ``extended(plays)`` adds the cards played after it (from the public ``CardPlayed``
events), which is how a finished hand is recorded; ``decisions()`` rebuilds the seat's
view at each of its decisions by replaying the hand through the engine.

To replay, the engine needs four full hands. Once all 52 cards are played they are
known (each seat held what it played); the passes between the *other* seats are never
known, so stand-in passes that give the same hands after the exchange are used (a view
shows only this seat's own pass and what it received, so the views are unchanged).
For a hand still in progress, the unplayed cards of the others are dealt once by
``DealSampler`` from the seat's latest view, with a fixed seed: a stand-in consistent
with everything the seat saw, never the real cards.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from hearts.bots.sampling import DealSampler
from hearts.cards import Card, cards_of_mask, mask_of
from hearts.events import MoonShot, TrickWon
from hearts.game import Game
from hearts.rules import PassDirection, Rules, pass_target
from hearts.view import Phase, PlayerView

__all__ = ["Decision", "Replay", "SeatHand"]

Scores = tuple[int, int, int, int]


@dataclass(frozen=True, slots=True)
class Decision:
    """One play of the seat: the view it had just before, and the card it played."""

    view: PlayerView
    card: Card
    trick: int
    """The trick's number, from 1."""


@dataclass(frozen=True, slots=True)
class Replay:
    """The seat's decisions in a hand, rebuilt, and what happened in each trick."""

    pass_view: PlayerView | None
    """The view when the seat chose its pass (None on a hand without passing)."""
    decisions: tuple[Decision, ...]
    tricks: tuple[TrickWon, ...]
    """The completed tricks, in order (public: the cards and who took them)."""
    moon: int | None
    """Who shot the moon, when the hand is complete and someone did."""


@dataclass(frozen=True, slots=True)
class SeatHand:
    """What ``seat`` saw of one hand (see the module docstring)."""

    seat: int
    rules: Rules
    history: tuple[Scores, ...]
    """The scores of the hands before this one (they fix its number and pass direction)."""
    dealt: tuple[Card, ...]
    passed: tuple[Card, ...] | None
    received: tuple[Card, ...] | None
    plays: tuple[tuple[int, Card], ...]
    """Every card played so far this hand, in order, with its seat."""
    stand_in: tuple[int, int, int, int] | None = field(default=None, compare=False)
    """Hands after the exchange for an unfinished hand (see the module docstring)."""

    @property
    def hand_number(self) -> int:
        return len(self.history) + 1

    @property
    def complete(self) -> bool:
        """All 52 cards were played."""
        return len(self.plays) == 52

    @classmethod
    def from_view(cls, view: PlayerView) -> SeatHand:
        """The hand so far, from the seat's view during play. Raises ValueError outside
        the play of a hand."""
        if view.phase is not Phase.PLAY:
            raise ValueError("a hand is recorded during its play, not while passing")
        plays = tuple(view.plays())
        mine = mask_of(card for seat, card in plays if seat == view.seat)
        held = view.hand_mask | mine
        if view.passed is not None and view.received is not None:
            held = held & ~mask_of(view.received) | mask_of(view.passed)
        hands = DealSampler(view).sample(random.Random("seat-hand/stand-in"))
        for seat, card in plays:
            hands[seat] |= card.mask
        return cls(view.seat, view.rules, view.hand_history, tuple(cards_of_mask(held)),
                   view.passed, view.received, plays, (hands[0], hands[1], hands[2], hands[3]))

    def extended(self, plays: list[tuple[int, Card]]) -> SeatHand:
        """This hand with ``plays`` played after what it holds (no check here:
        ``decisions`` replays them through the engine)."""
        if not plays:
            return self
        return SeatHand(self.seat, self.rules, self.history, self.dealt, self.passed,
                        self.received, self.plays + tuple(plays), self.stand_in)

    # --- replaying ---------------------------------------------------------------------

    def _hands_after_pass(self) -> list[int]:
        if self.complete:
            hands = [0, 0, 0, 0]
            for seat, card in self.plays:
                hands[seat] |= card.mask
            return hands
        if self.stand_in is None:
            raise ValueError("an unfinished hand needs its stand-in deal (use from_view)")
        hands = list(self.stand_in)
        # Cards added by extended() beyond the stand-in's view: move them to their player.
        for seat, card in self.plays:
            if not hands[seat] & card.mask:
                for other in range(4):
                    hands[other] &= ~card.mask
                hands[seat] |= card.mask
        return hands

    def _game(self) -> Game:
        """A game at the start of this hand whose views for this seat are the real ones."""
        after = self._hands_after_pass()
        probe = Game.from_deal([cards_of_mask(h) for h in after], history=self.history,
                               rules=self.rules)
        direction = probe.pass_direction
        if direction is PassDirection.NONE:
            if self.passed is not None or self.received is not None:
                raise ValueError("this hand has no passing, but a pass is recorded")
            return probe
        if self.passed is None or self.received is None:
            raise ValueError("this hand has passing, but the pass is not recorded")
        me = self.seat
        passes: list[int | None] = [None, None, None, None]
        passes[me] = mask_of(self.passed)
        passes[giver_of(me, direction)] = mask_of(self.received)
        for seat in range(4):
            if passes[seat] is None:  # a pass this seat never saw: any three will do
                target = after[pass_target(seat, direction)]
                passes[seat] = mask_of(cards_of_mask(target)[:3])
        dealt = [0, 0, 0, 0]
        for seat in range(4):
            own = passes[seat]
            got = passes[giver_of(seat, direction)]
            assert own is not None and got is not None
            dealt[seat] = after[seat] & ~got | own
        if dealt[me] != mask_of(self.dealt):
            raise ValueError("the recorded pass does not fit the recorded hand")
        game = Game.from_deal([cards_of_mask(h) for h in dealt], history=self.history,
                              rules=self.rules)
        for seat in range(4):
            chosen = passes[seat]
            assert chosen is not None
            if seat != me:
                game.choose_pass(seat, cards_of_mask(chosen))
        return game

    def decisions(self) -> Replay:
        """Replay the hand: the seat's view at its pass and at each of its plays.

        Raises ValueError (IllegalMoveError included) if the record is impossible.
        """
        game = self._game()
        me = self.seat
        pass_view = None
        if game.phase is Phase.PASS:
            pass_view = game.view(me)
            assert self.passed is not None
            game.choose_pass(me, self.passed)
        decisions: list[Decision] = []
        for at, (seat, card) in enumerate(self.plays):
            if game.to_play != seat:
                raise ValueError(f"play {at + 1} is by the wrong seat")
            if seat == me:
                decisions.append(Decision(game.view(me), card, at // 4 + 1))
            game.play(card)
        tricks = tuple(e for e in game.events if isinstance(e, TrickWon))
        moon = next((e.seat for e in game.events if isinstance(e, MoonShot)), None)
        return Replay(pass_view, tuple(decisions), tricks, moon)

    # --- storing -----------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """A finished hand as plain data (the rules are the game's, kept with it)."""
        def text(cards: tuple[Card, ...] | None) -> str | None:
            return None if cards is None else "".join(c.notation for c in cards)
        return {"seat": self.seat, "history": [list(row) for row in self.history],
                "dealt": text(self.dealt), "passed": text(self.passed),
                "received": text(self.received),
                "plays": "".join(f"{seat}{card.notation}" for seat, card in self.plays)}

    @classmethod
    def from_dict(cls, data: object, rules: Rules) -> SeatHand:
        """The hand ``to_dict`` gave, checked by replaying it. Raises ValueError."""
        if not isinstance(data, dict):
            raise ValueError("a recorded hand is an object")
        seat = data.get("seat")
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat <= 3:
            raise ValueError("a recorded hand needs its seat")
        rows = data.get("history")
        if not isinstance(rows, list) or len(rows) > 1000:
            raise ValueError("a recorded hand needs the scores before it")
        history: list[Scores] = []
        for row in rows:
            if not (isinstance(row, list) and len(row) == 4
                    and all(isinstance(v, int) and not isinstance(v, bool) for v in row)):
                raise ValueError("a score row is four whole numbers")
            history.append((row[0], row[1], row[2], row[3]))

        def cards(key: str, count: int) -> tuple[Card, ...] | None:
            value = data.get(key)
            if value is None:
                return None
            if not isinstance(value, str) or len(value) != 2 * count:
                raise ValueError(f"{key}: {count} cards expected")
            return tuple(Card.parse(value[i:i + 2]) for i in range(0, len(value), 2))

        dealt = cards("dealt", 13)
        if dealt is None:
            raise ValueError("a recorded hand needs the dealt cards")
        plays_text = data.get("plays")
        if not isinstance(plays_text, str) or len(plays_text) != 52 * 3:
            raise ValueError("a recorded hand holds its 52 plays")
        plays: list[tuple[int, Card]] = []
        for i in range(0, len(plays_text), 3):
            who = plays_text[i]
            if who not in "0123":
                raise ValueError("a play names its seat 0 to 3")
            plays.append((int(who), Card.parse(plays_text[i + 1:i + 3])))
        record = cls(seat, rules, tuple(history), dealt, cards("passed", 3),
                     cards("received", 3), tuple(plays))
        record.decisions()  # raises on anything impossible
        return record


def giver_of(seat: int, direction: PassDirection) -> int:
    """The seat whose pass ``seat`` receives."""
    return next(s for s in range(4) if pass_target(s, direction) == seat)

