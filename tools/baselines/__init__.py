"""Frozen copies of past computer players, for the arena only (never shipped to players).

A new player is measured against the one it replaces: ``python tools/arena.py
--candidate hard --baseline hard-today``. Each frozen copy is a whole package (the
player and the modules it searches with), so later changes to ``hearts/bots`` can't
move the baseline.

- ``hard-today``: the hard player as of commit c375d94 (flat Monte Carlo, 3,000
  uniform-sampled playouts per decision, heuristic pass), ``tools/baselines/hard_today``.
"""

from __future__ import annotations

from hearts.bots.base import Bot

__all__ = ["BASELINES", "make_baseline"]

BASELINES = ("hard-today",)
"""The names ``make_baseline`` knows."""


def make_baseline(name: str, seed: int = 0) -> Bot:
    """The frozen player ``name`` (one of ``BASELINES``); ValueError for another name."""
    if name == "hard-today":
        from tools.baselines.hard_today.hard import HardBot
        bot: Bot = HardBot(seed=seed)
        return bot
    raise ValueError(f"unknown baseline {name!r}: choose one of {', '.join(BASELINES)}")
