"""A match of Hearts to 100: dealing, simultaneous passing, tricks, scoring, the end.

Under ``MoonScoring.SHOOTER_CHOOSES`` a hand that ends in a moon waits in ``Phase.MOON``
for the shooter's ``choose_moon`` before it is scored, checked like a pass or a play.

``Game`` checks every move and explains refusals. Its state is the seed, the finished
hands' scores and the current hand's record (deal, passes, plays); the text form and
the JSON save (written and read by ``hearts.serialize``) hold exactly that, and loading
replays the record through the same checked moves, so a tampered save can never
produce a broken game. ``SAVE_VERSION``, ``LoadError`` and ``json_too_deep`` are
re-exported here for the code that imports them from this module.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Final

from hearts.cards import ALL_CARDS, CARD_POINTS, FULL_DECK_MASK, Card, cards_of_mask
from hearts.events import (
    CardPlayed,
    Event,
    GameOver,
    HandDealt,
    HandScored,
    HeartsBroken,
    MoonShot,
    PassChosen,
    PassesExchanged,
    TrickWon,
)
from hearts.handstate import HandState
from hearts.rules import (
    JD_MASK,
    NUM_SEATS,
    SEAT_NAMES,
    MoonScoring,
    PassDirection,
    Rules,
    hand_scores,
    moon_shooter,
    pass_target,
    possible_hand_scores,
)
from hearts.serialize import (
    SAVE_FORMAT,
    SAVE_VERSION,
    LoadError,
    Record,
    json_too_deep,
    record_from_json,
    record_from_text,
    record_to_json,
    record_to_text,
    text_mask,
)
from hearts.view import Phase, PlayerView, Trick, moon_refusal, pass_refusal, play_refusal

__all__ = ["SAVE_FORMAT", "SAVE_VERSION", "Game", "IllegalMoveError", "LoadError", "UndoError",
           "deal", "json_too_deep"]

_MAX_SEED: Final = 2**53  # seeds stay exact in JSON and JavaScript numbers

# Hot-path constants: a module global is cheaper to read than an enum class attribute.
_PASS: Final = Phase.PASS
_PLAY: Final = Phase.PLAY
_GAME_OVER: Final = Phase.GAME_OVER
_MOON: Final = Phase.MOON
_POINTS: Final = CARD_POINTS
_BITS: Final = tuple(1 << index for index in range(52))
_DRAW_BITS: Final = tuple((i + 1).bit_length() for i in range(52))  # to draw 0..i
_PASS_CHOSEN: Final = tuple(PassChosen(seat) for seat in range(NUM_SEATS))
_EXCHANGED: Final = {d: PassesExchanged(d) for d in PassDirection}

# Events are immutable values, so the few thousand possible CardPlayed / HeartsBroken
# events are made once and shared (building a frozen dataclass costs more than a play).
_CARD_PLAYED: Final[list[CardPlayed | None]] = [None] * (13 * NUM_SEATS * 52)
_HEARTS_BROKEN: Final[list[HeartsBroken | None]] = [None] * (NUM_SEATS * 52)


def _card_played(seat: int, index: int, trick_number: int) -> CardPlayed:
    key = ((trick_number - 1) * NUM_SEATS + seat) * 52 + index
    event = _CARD_PLAYED[key]
    if event is None:
        event = _CARD_PLAYED[key] = CardPlayed(seat, ALL_CARDS[index], trick_number)
    return event


def _hearts_broken(seat: int, index: int) -> HeartsBroken:
    key = seat * 52 + index
    event = _HEARTS_BROKEN[key]
    if event is None:
        event = _HEARTS_BROKEN[key] = HeartsBroken(seat, ALL_CARDS[index])
    return event


class IllegalMoveError(ValueError):
    """A move the rules don't allow; the message names the move, the reason and the position."""


class UndoError(ValueError):
    """``Game.pop`` with nothing to take back in the current hand."""


Scores = tuple[int, int, int, int]


def deal(seed: int, hand_number: int) -> list[int]:
    """The four hands (bit masks) dealt for ``hand_number`` of the game with ``seed``.

    A pure function of its arguments, identical on CPython and Pyodide (string seeds
    are hashed with SHA-512 by ``random``).
    """
    rng = random.Random(f"hearts/{seed}/{hand_number}")
    # random.shuffle(order), spelled out (the same Fisher-Yates with the same draws from
    # getrandbits, as CPython's shuffle and _randbelow do) to save a call per card.
    getrandbits = rng.getrandbits
    order = list(range(52))
    for i in range(51, 0, -1):
        bits = _DRAW_BITS[i]
        j = getrandbits(bits)
        while j > i:
            j = getrandbits(bits)
        order[i], order[j] = order[j], order[i]
    # The n-th card of the shuffled deck goes to seat n % 4; distinct bits add like OR.
    bit = _BITS.__getitem__
    return [sum(map(bit, order[0::4])), sum(map(bit, order[1::4])),
            sum(map(bit, order[2::4])), sum(map(bit, order[3::4]))]


def _as_card(card: Card | str) -> Card:
    if isinstance(card, Card):
        return card
    return Card.parse(card)


def _check_seat(seat: int) -> int:
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < NUM_SEATS:
        raise ValueError(f"seat must be 0 (South), 1 (West), 2 (North) or 3 (East), not {seat!r}")
    return seat


class Game:
    """A game of Hearts to the end score. Seats: 0 South, 1 West, 2 North, 3 East.

    >>> game = Game.new(seed=7)
    >>> game.phase, game.pass_direction
    (<Phase.PASS: 'pass'>, <PassDirection.LEFT: 1>)
    >>> for seat in range(4):
    ...     game.choose_pass(seat, game.hand(seat)[:3])
    >>> game.phase, game.legal_plays()
    (<Phase.PLAY: 'play'>, [Card.parse('2C')])
    """

    def __init__(self, seed: int, rules: Rules | None = None, *,
                 hands: Sequence[int] | None = None,
                 history: Sequence[Sequence[int]] = ()) -> None:
        """Start at the deal of the hand after ``history`` (normally use ``Game.new``).

        ``hands`` overrides the seeded deal of this first hand (scripted deals in tests).
        """
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < _MAX_SEED:
            raise ValueError(f"seed must be an int from 0 to 2**53 - 1, not {seed!r}")
        self.rules: Final = rules if rules is not None else Rules()
        self.seed: Final = seed
        self.events: list[Event] = []
        self._history: list[Scores] = [_check_history_row(row, self.rules) for row in history]
        self._totals = [sum(row[s] for row in self._history) for s in range(NUM_SEATS)]
        self._winner: int | None = None
        if self._history and self._match_winner() is not None:
            raise ValueError("that history already ends the game")
        self._start_hand(len(self._history) + 1, hands)

    @classmethod
    def new(cls, seed: int | None = None, rules: Rules | None = None) -> Game:
        """A new game; the first hand is dealt from ``seed`` (a random seed if None)."""
        if seed is None:
            seed = random.SystemRandom().randrange(_MAX_SEED)
        return cls(seed, rules)

    @classmethod
    def from_deal(cls, hands: Sequence[Iterable[Card | str] | str], *,
                  history: Sequence[Sequence[int]] = (), seed: int = 0,
                  rules: Rules | None = None) -> Game:
        """A game whose next hand is dealt as given (South, West, North, East).

        ``history`` holds the scores of earlier hands (it sets the hand number and so
        the pass direction). Raises ValueError unless the four hands are 13 cards
        each, 52 distinct in all.

        >>> Game.from_deal(["2C3C4C5C6C7C8C9CTCJCQCKCAC", "2D3D4D5D6D7D8D9DTDJDQDKDAD",
        ...                 "2H3H4H5H6H7H8H9HTHJHQHKHAH", "2S3S4S5S6S7S8S9STSJSQSKSAS"],
        ...                history=[(13, 0, 0, 13)]).pass_direction
        <PassDirection.RIGHT: 3>
        """
        masks = [_hand_mask(h) for h in hands]
        _check_deal(masks)
        return cls(seed, rules, hands=masks, history=history)

    # --- the hand's lifecycle ------------------------------------------------------

    def _start_hand(self, hand_number: int, hands: Sequence[int] | None = None) -> None:
        self.hand_number = hand_number
        dealt = list(hands) if hands is not None else deal(self.seed, hand_number)
        self._dealt: tuple[int, ...] = tuple(dealt)
        self._passes: list[int | None] = [None] * NUM_SEATS
        self._plays: list[int] = []
        self._won: list[TrickWon] = []  # this hand's TrickWon events, one per trick
        self._tricks: list[Trick] = []  # Trick values built from _won when first asked for
        self._moon_chooser: int | None = None  # the shooter, while Phase.MOON waits for it
        self._moon_choice: MoonScoring | None = None  # what it chose (kept in the record)
        self.pass_direction = self.rules.pass_direction(hand_number)
        self.events.append(HandDealt(hand_number, self.pass_direction))
        # Before the exchange the state holds the dealt hands; it is rebuilt after it.
        self._state = HandState(list(dealt), self.rules)
        self._legal = -1  # legal_plays() caches its mask here for play(); -1: none
        self._phase = Phase.PLAY if self.pass_direction is PassDirection.NONE else Phase.PASS

    def _hands_after_passing(self) -> list[int]:
        """The four hands as the first trick starts: the deal with the passes exchanged."""
        hands = list(self._dealt)
        if self.pass_direction is PassDirection.NONE:
            return hands
        offset = int(self.pass_direction)
        for seat, chosen in enumerate(self._passes):
            assert chosen is not None
            hands[seat] &= ~chosen
            hands[(seat + offset) & 3] |= chosen
        return hands

    def _exchange(self) -> None:
        self._state = HandState(self._hands_after_passing(), self.rules)
        self._legal = -1
        self._phase = Phase.PLAY
        self.events.append(_EXCHANGED[self.pass_direction])

    def _finish_hand(self) -> None:
        points = self._state.points
        if self.rules.moon_choice and self._moon_choice is None:
            shooter = moon_shooter(points, self.rules)
            if shooter is not None:  # the hand waits for the shooter's choose_moon
                self._moon_chooser = shooter
                self._phase = _MOON
                return
        self._score_hand()

    def _jd_taker(self) -> int | None:
        for won in self._won:
            for card in won.cards:
                if card.mask == JD_MASK:
                    return won.seat
        return None

    def _score_hand(self) -> None:
        points = self._state.points
        scores, shooter = hand_scores(points, self.rules, self._jd_taker(), self._moon_choice)
        self._history.append(scores)
        for seat in range(NUM_SEATS):
            self._totals[seat] += scores[seat]
        if shooter is not None:
            self.events.append(MoonShot(shooter))
        self.events.append(HandScored(self.hand_number, (points[0], points[1], points[2],
                                                         points[3]), scores, self.scores, shooter))
        winner = self._match_winner()
        if winner is not None:
            self._winner = winner
            self._phase = Phase.GAME_OVER
            self.events.append(GameOver(winner, self.scores))
        else:
            self._start_hand(self.hand_number + 1)

    def _match_winner(self) -> int | None:
        totals = self._totals
        if max(totals) < self.rules.end_score:
            return None
        low = min(totals)
        if totals.count(low) > 1:
            return None  # a shared lowest total: play another hand
        return totals.index(low)

    # --- reading the state ----------------------------------------------------------

    @property
    def phase(self) -> Phase:
        """PASS, PLAY, MOON (the shooter chooses how its moon scores) or GAME_OVER."""
        return self._phase

    @property
    def moon_chooser(self) -> int | None:
        """The shooter who is to choose how the moon scores (None outside Phase.MOON)."""
        return self._moon_chooser if self._phase is _MOON else None

    @property
    def to_play(self) -> int | None:
        """The seat to play a card (None outside the PLAY phase)."""
        return self._state.to_play if self._phase is Phase.PLAY else None

    @property
    def scores(self) -> Scores:
        """Running totals of the finished hands."""
        t = self._totals
        return t[0], t[1], t[2], t[3]

    @property
    def hand_history(self) -> list[Scores]:
        """Per finished hand: the four scores (moon applied)."""
        return list(self._history)

    @property
    def winner(self) -> int | None:
        """The winning seat once the game is over."""
        return self._winner

    @property
    def hearts_broken(self) -> bool:
        """True once a heart has been played this hand."""
        return self._state.broken

    @property
    def hand_points(self) -> Scores:
        """Penalty points taken so far this hand, per seat."""
        p = self._state.points
        return p[0], p[1], p[2], p[3]

    @property
    def tricks(self) -> list[Trick]:
        """The completed tricks of this hand."""
        return list(self._completed_tricks())

    def _completed_tricks(self) -> list[Trick]:
        built = self._tricks
        won = self._won
        if len(built) < len(won):
            built.extend(Trick(w.leader, w.cards, w.seat) for w in won[len(built):])
        return built

    @property
    def current_trick(self) -> Trick | None:
        """The trick in progress, or None between tricks."""
        state = self._state
        if self._phase is not Phase.PLAY or not state.trick:
            return None
        return Trick(state.leader, tuple(ALL_CARDS[i] for i in state.trick))

    def hand(self, seat: int) -> list[Card]:
        """The cards ``seat`` holds now, sorted by suit then rank."""
        if seat.__class__ is not int or not 0 <= seat < NUM_SEATS:
            _check_seat(seat)
        if self._phase is _PASS:
            return cards_of_mask(self._dealt[seat])
        return cards_of_mask(self._state.hands[seat])

    def pass_chosen(self, seat: int) -> bool:
        """Whether ``seat`` has chosen its three cards this hand."""
        return self._passes[_check_seat(seat)] is not None

    def legal_plays(self) -> list[Card]:
        """The cards the seat to play may play now (empty outside the PLAY phase)."""
        if self._phase is not _PLAY:
            return []
        legal = self._legal = self._state.legal()
        return cards_of_mask(legal)

    def why_illegal(self, card: Card | str, seat: int | None = None) -> str | None:
        """None if ``seat`` (default: the seat to play) may play ``card`` now, else why not.

        The sentence is for the person, and the same as ``self.view(seat).why_illegal``.

        >>> game = Game.new(seed=7)
        >>> game.why_illegal("2C")
        "It's not time to play yet: first everyone passes three cards."
        """
        card = _as_card(card)
        state = self._state
        to_play = self.to_play
        if seat is None:
            seat = to_play if to_play is not None else 0
        else:
            _check_seat(seat)
        return play_refusal(card, seat, phase=self._phase, to_play=to_play,
                            hand=state.hands[seat], led_suit=state.led_suit,
                            first_trick=state.tricks_done == 0, hearts_broken=state.broken,
                            rules=self.rules)

    def why_pass_refused(self, seat: int, cards: Iterable[Card | str]) -> str | None:
        """None if ``seat`` may pass ``cards`` now, else the sentence for the person.

        The same as ``self.view(seat).why_pass_refused(cards)``; ``choose_pass`` raises
        IllegalMoveError with it. Raises CardParseError on bad notation.

        >>> game = Game.new(seed=7)
        >>> game.why_pass_refused(0, ["2C"])
        'Choose exactly three different cards to pass.'
        """
        _check_seat(seat)
        return pass_refusal([_as_card(c) for c in cards], phase=self._phase,
                            pass_direction=self.pass_direction,
                            chosen=self._passes[seat] is not None, hand=self._dealt[seat])

    # --- moves ------------------------------------------------------------------------

    def choose_pass(self, seat: int, cards: Iterable[Card | str]) -> None:
        """``seat`` chooses three cards to pass; all four exchange once everyone has chosen.

        Raises IllegalMoveError (outside passing, a second choice, not three distinct
        cards of the seat's hand).
        """
        _check_seat(seat)
        chosen = [c if isinstance(c, Card) else Card.parse(c) for c in cards]
        passes = self._passes
        mask = 0
        for card in chosen:
            mask |= card.mask
        if (self._phase is not _PASS or passes[seat] is not None or len(chosen) != 3
                or mask.bit_count() != 3 or mask & ~self._dealt[seat]):
            self._refuse_pass(seat, chosen)
        passes[seat] = mask
        self.events.append(_PASS_CHOSEN[seat])
        if None not in passes:
            self._exchange()

    def _refuse_pass(self, seat: int, chosen: list[Card]) -> None:
        """Raise the IllegalMoveError explaining why ``choose_pass`` refused."""
        reason = pass_refusal(chosen, phase=self._phase, pass_direction=self.pass_direction,
                              chosen=self._passes[seat] is not None, hand=self._dealt[seat])
        text = " ".join(map(str, chosen)) or "no cards"
        raise IllegalMoveError(f"{SEAT_NAMES[seat]} can't pass {text}: {reason} "
                               f"(position {self.to_text()})")

    def why_moon_refused(self, seat: int, choice: MoonScoring | str) -> str | None:
        """None if ``seat`` may choose ``choice`` for the moon now, else why not."""
        _check_seat(seat)
        return moon_refusal(choice, seat, phase=self._phase, chooser=self.moon_chooser)

    def choose_moon(self, seat: int, choice: MoonScoring | str) -> None:
        """The shooter ``seat`` chooses how its moon scores: ``OTHERS_PLUS_26`` or
        ``SHOOTER_MINUS_26``; then the hand is scored. Raises IllegalMoveError (no moon
        waiting, another seat, another choice).

        >>> game = Game.new(seed=7, rules=Rules(moon_scoring="shooter_chooses"))
        >>> game.why_moon_refused(0, "shooter_minus_26")
        'There is no moon to score now.'
        """
        _check_seat(seat)
        reason = moon_refusal(choice, seat, phase=self._phase, chooser=self.moon_chooser)
        if reason is not None:
            raise IllegalMoveError(f"{SEAT_NAMES[seat]} can't choose {choice}: {reason} "
                                   f"(position {self.to_text()})")
        self._moon_choice = MoonScoring(choice)
        self._moon_chooser = None
        self._phase = _PLAY  # only for the moment of scoring, which sets the next phase
        self._score_hand()

    def play(self, card: Card | str) -> None:
        """The seat to play plays ``card``. Raises IllegalMoveError, saying why."""
        if not isinstance(card, Card):
            card = Card.parse(card)
        state = self._state
        legal = self._legal  # set by legal_plays() for this very position, else -1
        if legal < 0:
            if self._phase is not _PLAY:
                self._refuse_play(card)
            legal = state.legal()
        if not legal & card.mask:
            self._refuse_play(card)
        # The play itself (the hot path of every game: kept flat on purpose).
        index = card.index
        seat = state.to_play
        plays = self._plays
        plays.append(index)
        events = self.events
        events.append(_CARD_PLAYED[(state.tricks_done * 4 + seat) * 52 + index]
                      or _card_played(seat, index, state.tricks_done + 1))
        self._legal = -1
        trick = state.trick  # apply() starts a new list when this card ends the trick
        if state.broken or not (26 <= index <= 38 or index == 49):  # can't break hearts
            winner = state.apply(index)
        else:
            winner = state.apply(index)
            if state.broken:
                events.append(_hearts_broken(seat, index))
        if winner >= 0:
            leader = (seat + 1) & 3  # the fourth card is played by the leader's right
            a, b, c, d = trick
            cards = (ALL_CARDS[a], ALL_CARDS[b], ALL_CARDS[c], ALL_CARDS[d])
            won = TrickWon(winner, leader, cards, _POINTS[a] + _POINTS[b] + _POINTS[c]
                             + _POINTS[d], state.tricks_done)
            self._won.append(won)
            events.append(won)
            if state.tricks_done == 13:
                self._finish_hand()

    def _refuse_play(self, card: Card) -> None:
        """Raise the IllegalMoveError explaining why ``play`` refused ``card``."""
        reason = self.why_illegal(card)
        if self._phase is not _PLAY:
            raise IllegalMoveError(f"can't play {card}: {reason} (position {self.to_text()})")
        raise IllegalMoveError(f"{SEAT_NAMES[self._state.to_play]} can't play {card}: {reason} "
                               f"(position {self.to_text()})")

    @property
    def plays(self) -> list[tuple[int, Card]]:
        """The (seat, card) plays of the current hand, in order (the stack ``pop`` undoes).

        Empty while passing and once a hand has been scored (the game over included:
        a finished hand is history, not a stack).
        """
        if self._phase is not _PLAY:
            return []
        won = self._won
        out: list[tuple[int, Card]] = []
        for at, index in enumerate(self._plays):
            trick = at >> 2
            leader = won[trick].leader if trick < len(won) else self._state.leader
            out.append(((leader + at) & 3, ALL_CARDS[index]))
        return out

    def pop(self) -> tuple[int, Card]:
        """Take back the last card played in this hand; return (seat, card).

        The game becomes exactly what it was before that play, ``events`` included (the
        events that play appended are dropped). A finished hand is never undone: raises
        UndoError when no card has been played in the current hand, and once the game is
        over.

        >>> game = Game.from_deal(["2C3C4C5C6C7C8C9CTCJCQCKCAC", "2D3D4D5D6D7D8D9DTDJDQDKDAD",
        ...                        "2H3H4H5H6H7H8H9HTHJHQHKHAH", "2S3S4S5S6S7S8S9STSJSQSKSAS"],
        ...                       history=[(13, 13, 0, 0)] * 3)
        >>> game.play("2C")
        >>> game.pop()
        (0, Card.parse('2C'))
        >>> game.to_play, game.legal_plays()
        (0, [Card.parse('2C')])
        """
        if self._phase is _GAME_OVER:
            raise UndoError("can't take back a card: the game is over")
        if self._phase is _MOON:
            raise UndoError("can't take back a card: the hand is over")
        plays = self.plays
        if not plays:
            raise UndoError(f"can't take back a card: none has been played in hand "
                            f"{self.hand_number} (position {self.to_text()})")
        seat, card = plays[-1]
        events = self.events
        # A play appends its CardPlayed, then maybe HeartsBroken and TrickWon; a play that
        # ends the hand (the only one appending more) is refused above.
        for at in range(len(events) - 1, max(len(events) - 4, -1), -1):
            event = events[at]
            if isinstance(event, CardPlayed):
                if event.seat == seat and event.card is card:
                    del events[at:]
                break
        last = self._plays.pop()
        if len(self._won) * 4 > len(self._plays):  # that card had completed a trick
            self._won.pop()
            del self._tricks[len(self._won):]
        # Rebuild the hand from its start: replaying at most 51 unchecked plays is cheap
        # and cannot drift from what play() did, unlike undoing each field by hand.
        state = HandState(self._hands_after_passing(), self.rules)
        for index in self._plays:
            state.apply(index)
        assert state.hands[seat] >> last & 1 and state.to_play == seat
        self._state = state
        self._legal = -1
        return seat, card

    # --- views ------------------------------------------------------------------------

    def view(self, seat: int) -> PlayerView:
        """Everything ``seat`` may know now, and nothing else."""
        _check_seat(seat)
        state = self._state
        passing = self._phase is Phase.PASS
        chosen = self._passes[seat]
        passed = tuple(cards_of_mask(chosen)) if chosen is not None else None
        received: tuple[Card, ...] | None = None
        if not passing and self.pass_direction is not PassDirection.NONE:
            giver = pass_target(seat, PassDirection(-self.pass_direction % 4))
            got = self._passes[giver]
            assert got is not None
            received = tuple(cards_of_mask(got))
        if passing:
            sizes = (13, 13, 13, 13)
        else:
            h = state.hands
            sizes = (h[0].bit_count(), h[1].bit_count(), h[2].bit_count(), h[3].bit_count())
        to_play = self.to_play
        return PlayerView(
            seat=seat,
            rules=self.rules,
            phase=self._phase,
            hand_number=self.hand_number,
            pass_direction=self.pass_direction,
            hand=tuple(self.hand(seat)),
            passed=passed,
            received=received,
            pass_chosen=(self._passes[0] is not None, self._passes[1] is not None,
                         self._passes[2] is not None, self._passes[3] is not None),
            tricks=tuple(self._completed_tricks()),
            trick=self.current_trick,
            hearts_broken=state.broken,
            hand_points=self.hand_points,
            scores=self.scores,
            hand_history=tuple(self._history),
            hand_sizes=sizes,
            to_play=to_play,
            legal_plays=tuple(self.legal_plays()) if to_play == seat else (),
            winner=self._winner,
            moon_chooser=self.moon_chooser,
        )

    # --- copying (for search) -----------------------------------------------------------

    def copy(self) -> Game:
        """An independent copy without the event list (for search and what-ifs)."""
        other = Game.__new__(Game)
        other.__dict__.update(self.__dict__)
        other.events = []
        other._history = self._history[:]
        other._totals = self._totals[:]
        other._passes = self._passes[:]
        other._plays = self._plays[:]
        other._won = self._won[:]
        other._tricks = self._tricks[:]
        other._state = self._state.copy()
        return other

    # --- text form and JSON (the formats are hearts.serialize's) ----------------------

    def to_text(self) -> str:
        """A one-line, round-tripping text form of the game (see ``from_text``).

        ``seed=7 hist=3.13.0.10 deal=<S>/<W>/<N>/<E> pass=<S>/<W>/<N>/<E> plays=2C5C…``:
        the seed, the scores of each finished hand, the current hand's deal, the cards
        each seat chose to pass (``-`` not yet / no pass) and the cards played, in order.
        """
        return record_to_text(self._record())

    @classmethod
    def from_text(cls, text: str, rules: Rules | None = None) -> Game:
        """Rebuild a game from ``to_text()``; raises LoadError on anything wrong."""
        return cls._replay(record_from_text(text, rules))

    def to_json(self) -> str:
        """The game as versioned JSON; ``Game.from_json`` restores it exactly."""
        return record_to_json(self._record())

    @classmethod
    def from_json(cls, text: str | bytes) -> Game:
        """Restore a game saved by ``to_json``. Raises LoadError on anything wrong."""
        return cls._replay(record_from_json(text))

    def _record(self) -> Record:
        """The seed, the hands before the current one and the current hand's record."""
        # Once the game is over the last hand is both scored and the current record.
        history = self._history[:-1] if self._phase is Phase.GAME_OVER else self._history
        return Record(self.seed, self.rules, history, self._dealt, self._passes,
                      [ALL_CARDS[i] for i in self._plays], self._moon_choice)

    @classmethod
    def _replay(cls, record: Record) -> Game:
        """Rebuild a game through checked moves; any inconsistency is a LoadError."""
        hist, passes, plays = record.history, record.passes, record.plays
        try:
            hands = list(record.deal)
            _check_deal(hands)
            game = cls(record.seed, record.rules, hands=hands, history=hist)
            if game.pass_direction is PassDirection.NONE:
                if any(p is not None for p in passes):
                    raise LoadError("this hand has no passing, but passes are recorded")
            else:
                for seat, chosen in enumerate(passes):
                    if chosen is not None:
                        game.choose_pass(seat, cards_of_mask(chosen))
                if plays and game.phase is Phase.PASS:
                    raise LoadError("cards were played before everyone passed")
            for card in plays:
                if game.hand_number != len(hist) + 1 or game.phase is Phase.GAME_OVER:
                    raise LoadError("more cards were played than the hand holds")
                game.play(card)
            if record.moon is not None:
                if game.phase is not Phase.MOON:
                    raise LoadError("a moon choice is recorded but no moon waits for one")
                chooser = game.moon_chooser
                assert chooser is not None
                game.choose_moon(chooser, record.moon)
            if game.hand_number != len(hist) + 1:
                raise LoadError("a complete hand was recorded but the game is not over")
        except LoadError:
            raise
        except (ValueError, TypeError) as error:  # IllegalMoveError is a ValueError
            raise LoadError(f"impossible saved game: {error}") from None
        return game

    def __repr__(self) -> str:
        return f"Game.from_text({self.to_text()!r})"


def _hand_mask(hand: Iterable[Card | str] | str) -> int:
    if isinstance(hand, str):
        return text_mask(hand)
    mask = 0
    for card in hand:
        c = _as_card(card)
        if mask & c.mask:
            raise ValueError(f"{c} appears twice in one hand")
        mask |= c.mask
    return mask


def _check_deal(hands: Sequence[int]) -> None:
    if len(hands) != NUM_SEATS:
        raise ValueError(f"a deal has four hands, not {len(hands)}")
    seen = 0
    for seat, mask in enumerate(hands):
        if mask.bit_count() != 13:
            raise ValueError(f"{SEAT_NAMES[seat]} must be dealt 13 cards, not "
                             f"{mask.bit_count()}")
        if seen & mask:
            dup = " ".join(str(c) for c in cards_of_mask(seen & mask))
            raise ValueError(f"{dup} dealt to more than one seat")
        seen |= mask
    assert seen == FULL_DECK_MASK


def _check_history_row(row: Sequence[int], rules: Rules) -> Scores:
    values = tuple(row)
    if len(values) != 4 or not all(isinstance(v, int) and not isinstance(v, bool)
                                   for v in values):
        raise ValueError(f"a hand's scores are four whole numbers, not {list(values)}")
    a, b, c, d = values
    scores = (a, b, c, d)
    if not possible_hand_scores(scores, rules):
        raise ValueError(f"impossible scores for one hand: {list(scores)}")
    return scores
