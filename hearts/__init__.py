"""Hearts: a pure-Python rules engine and computer players.

>>> from hearts import Game
>>> game = Game.new(seed=1)
>>> len(game.hand(0))
13
"""

from hearts.cards import Card, CardParseError, Rank, Suit, parse_cards
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
from hearts.game import Game, IllegalMoveError, LoadError, UndoError
from hearts.rules import SEAT_NAMES, PassDirection, Rules
from hearts.view import Phase, PlayerView, Trick

__all__ = [
    "SEAT_NAMES",
    "Card",
    "CardParseError",
    "CardPlayed",
    "Event",
    "Game",
    "GameOver",
    "HandDealt",
    "HandScored",
    "HeartsBroken",
    "IllegalMoveError",
    "LoadError",
    "MoonShot",
    "PassChosen",
    "PassDirection",
    "PassesExchanged",
    "Phase",
    "PlayerView",
    "Rank",
    "Rules",
    "Suit",
    "Trick",
    "TrickWon",
    "UndoError",
    "parse_cards",
]
