"""Computer players (easy / normal / hard, and the arena's ``basic``) and the hint (the
hard player's choice).

Every player sees only a ``PlayerView`` and is deterministic for a given seed and view.

>>> from hearts import Game
>>> from hearts.bots import make
>>> game = Game.new(seed=5)
>>> bot = make("normal", seed=1)
>>> len(bot.choose_pass(game.view(0)))
3
"""

from __future__ import annotations

from hearts.bots.base import Bot
from hearts.bots.hint import Hint, hint, hint_steps

__all__ = ["DEFAULT_LEVEL", "LEVELS", "Bot", "Hint", "hint", "hint_steps", "make"]

LEVELS = ("easy", "normal", "hard", "basic")
"""The levels ``make`` knows; the table offers the first three."""
DEFAULT_LEVEL = "normal"


def make(level: str, seed: int = 0) -> Bot:
    """A computer player of ``level`` ("easy", "normal", "hard" or "basic").

    Raises ValueError for an unknown level. The hard player is imported only when asked
    for, so the others load fast.
    """
    if level == "normal":
        from hearts.bots.normal import NormalBot
        return NormalBot(seed=seed)
    if level == "easy":
        from hearts.bots.easy import EasyBot
        return EasyBot(seed=seed)
    if level == "basic":
        from hearts.bots.basic import BasicBot
        return BasicBot(seed=seed)
    if level == "hard":
        import hearts.bots.hard
        bot: Bot = hearts.bots.hard.HardBot(seed=seed)
        return bot
    raise ValueError(f"unknown level {level!r}: choose one of {', '.join(LEVELS)}")
