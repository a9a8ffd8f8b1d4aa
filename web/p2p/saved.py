"""A private table as its host's page keeps it: the game and where the table stood.

Written after every change so that a reload of the host's page carries the game on (the
guests' connections can't be kept: every friend's seat goes to the computer until they join
again with a new invite). Pure: pytest runs it.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from hearts import Game, LoadError, Phase
from web import players

if TYPE_CHECKING:
    from web.p2p.host import HostTable

__all__ = ["SAVE_VERSION", "resume_table", "table_json"]

SAVE_VERSION = 1
"""The version of ``table_json``'s text."""


def table_json(host: HostTable) -> str:
    """The host's table as stored text (no connections)."""
    return json.dumps({"v": SAVE_VERSION, "game": host.game.to_json(),
                       "started": host.started, "host_ready": 0 in host.waiting_ready,
                       "last": host.last_scored}, separators=(",", ":"))


def resume_table(text: object, *, grace: float = 20.0,
                 make_bot: players.MakeBot = players.make) -> HostTable | None:
    """The table ``table_json`` wrote, every guest seat the computer's until friends join
    again; None if ``text`` isn't a started table this version can read."""
    from web.p2p.host import HostTable

    try:
        data = json.loads(str(text))
        if not isinstance(data, dict) or data.get("v") != SAVE_VERSION or \
                data.get("started") is not True:
            return None
        game = Game.from_json(str(data["game"]))
        last = data.get("last")
        host = HostTable(game, grace=grace, make_bot=make_bot)
    except (ValueError, KeyError, TypeError, LoadError, RecursionError):
        return None
    if game.phase is Phase.GAME_OVER:
        return None
    host.started = True
    host.last_scored = last if isinstance(last, dict) else None
    if data.get("host_ready") is True:
        host.waiting_ready = {0}
    return host
