"""Which side of a table a page is on, and the one table of how that changes.

Every change of role is an ``Event`` looked up in ``TRANSITIONS``: (role, event) → the next
role and the ``Effect`` s that go with it. A pair that isn't in the table is an event that
means nothing in that role (a relay's failure after the page stopped looking, a second click):
it is ignored, and nothing changes. ``web.friends.session`` is the only place that looks the
table up and sets the role; its sides (host, guest, fair table) carry out the rest of the
work and tell the session what happened, as events.

The rule the table keeps: the felt table stops showing the person's own game only after the
person said yes to a table (they opened one, pressed Play online and kept the dialog open,
opened an invite or typed a code). ``test_role_table.py`` walks every pair to hold it to that.
"""

from __future__ import annotations

from enum import Enum

__all__ = ["FELT_TABLE_ROLES", "PERSON_EVENTS", "TRANSITIONS", "Effect", "Event", "Role",
           "next_role"]


class Role(Enum):
    IDLE = "idle"
    """The page's own game; no table."""
    HOSTING = "hosting"
    """This page runs a table (for friends, or dealt in the lobby)."""
    HOST_CLOSED = "host-closed"
    """The table this page ran is closed; its game may be carried on alone."""
    JOINING = "joining"
    """On the way to another page's table (an invite answered, a code looked up)."""
    SEATED = "seated"
    """At another page's table."""
    GUEST_CLOSED = "guest-closed"
    """The table this page went to closed, or couldn't be reached: the dialog says why."""
    LOOKING = "looking"
    """In the lobby, looking for players (only while the dialog is open)."""
    NO_RELAY = "no-relay"
    """Play online couldn't reach any relay: the dialog says so and offers to try again."""
    FAIR = "fair"
    """At a fair table, its people's pages dealing among themselves (or waiting to be let
    in at one under way)."""


class Event(Enum):
    """What can happen to a page's role: the person's choices, and the network's news."""

    # the person's choices
    HOST = "host"
    """Open a private table (or open again the one hosted before a reload)."""
    JOIN = "join"
    """Answer an invite, or look for a table by its code (typed, or a link opened)."""
    PLAY_ONLINE = "play online"
    """Press Play online (or Try again after the relays failed)."""
    DIALOG_CLOSED = "dialog closed"
    """Close the dialog (Escape, its Close button)."""
    CLOSE = "close"
    """Close the table this page runs."""
    LEAVE = "leave"
    """Leave the table this page sits at (or stop looking)."""
    SOLO = "solo"
    """Carry the closed table's game on alone."""
    FORGET = "forget"
    """Back to the page's own game with nothing kept (before joining elsewhere)."""
    # the network's news
    BAD_LINK = "bad link"
    """The invite or code opened can't be read."""
    RELAY_FAILED = "relay failed"
    """No relay answered."""
    DEALT = "dealt"
    """The lobby had this page deal: it runs the new table."""
    FAIR_FOUND = "fair found"
    """The lobby sent this page to a fair table (or a person sat down with a lone page)."""
    CONNECTED = "connected"
    """The host's page answered: seated."""
    NOBODY_ANSWERED = "nobody answered"
    """The table looked for didn't answer, or the connection couldn't be made."""
    TABLE_CLOSED = "table closed"
    """The host closed the table (or turned this page away): a close, not a hand-over."""
    FAIR_CLOSED = "fair closed"
    """The fair table closed (a cheat named, a page gone)."""
    BACK = "back"
    """Back to the seat this tab held at a fair table before it reloaded."""
    ALONE = "alone"
    """Every other person left the fair table: this page carries the game on alone, its
    door open to the next person who comes."""


class Effect(Enum):
    """What the session itself does on a change of role (the sides do the rest)."""

    LEAVE_LOBBY = "leave lobby"
    """Out of the lobby's meeting room: no table will be found for this page."""
    OWN_GAME = "own game"
    """The felt table shows the page's own game again."""
    OPEN_DIALOG = "open dialog"
    """The dialog opens to say what happened."""
    CLOSE_DIALOG = "close dialog"
    """The dialog steps aside: the table is on the felt."""


R, E, F = Role, Event, Effect
_Row = tuple[Role, frozenset[Effect]]


def _to(role: Role, *effects: Effect) -> _Row:
    return role, frozenset(effects)


_SET_OUT: dict[Event, _Row] = {
    # from a role that shows the page's own game and loses nothing by leaving it
    E.HOST: _to(R.HOSTING),
    E.JOIN: _to(R.JOINING),
    E.PLAY_ONLINE: _to(R.LOOKING),
    E.BAD_LINK: _to(R.GUEST_CLOSED, F.OPEN_DIALOG),
    E.FORGET: _to(R.IDLE, F.OWN_GAME),
}

TRANSITIONS: dict[tuple[Role, Event], _Row] = {
    **{(R.IDLE, event): row for event, row in _SET_OUT.items()},
    **{(R.GUEST_CLOSED, event): row for event, row in _SET_OUT.items()},
    **{(R.NO_RELAY, event): row for event, row in _SET_OUT.items()},
    (R.NO_RELAY, E.DIALOG_CLOSED): _to(R.IDLE),
    (R.HOST_CLOSED, E.SOLO): _to(R.IDLE, F.OWN_GAME, F.CLOSE_DIALOG),
    (R.HOST_CLOSED, E.FORGET): _to(R.IDLE, F.OWN_GAME),
    (R.HOST_CLOSED, E.JOIN): _to(R.JOINING, F.OWN_GAME),
    (R.HOST_CLOSED, E.PLAY_ONLINE): _to(R.LOOKING, F.OWN_GAME),
    # looking for players: only while the person keeps the dialog open
    (R.LOOKING, E.DIALOG_CLOSED): _to(R.IDLE, F.LEAVE_LOBBY),
    (R.LOOKING, E.LEAVE): _to(R.IDLE, F.LEAVE_LOBBY),
    (R.LOOKING, E.FORGET): _to(R.IDLE, F.LEAVE_LOBBY),
    (R.LOOKING, E.RELAY_FAILED): _to(R.NO_RELAY, F.LEAVE_LOBBY, F.OPEN_DIALOG),
    (R.LOOKING, E.DEALT): _to(R.HOSTING, F.LEAVE_LOBBY, F.CLOSE_DIALOG),
    (R.LOOKING, E.FAIR_FOUND): _to(R.FAIR, F.LEAVE_LOBBY, F.CLOSE_DIALOG),
    # a table this page runs
    (R.HOSTING, E.CLOSE): _to(R.HOST_CLOSED, F.OWN_GAME),
    (R.HOSTING, E.FORGET): _to(R.IDLE, F.OWN_GAME),
    (R.HOSTING, E.JOIN): _to(R.JOINING, F.OWN_GAME),  # only before the game began
    (R.HOSTING, E.SOLO): _to(R.IDLE, F.OWN_GAME, F.CLOSE_DIALOG),
    (R.HOSTING, E.FAIR_FOUND): _to(R.FAIR),  # a person came to the lone page's game
    # on the way to a table
    (R.JOINING, E.CONNECTED): _to(R.SEATED, F.CLOSE_DIALOG),
    (R.JOINING, E.NOBODY_ANSWERED): _to(R.GUEST_CLOSED, F.OPEN_DIALOG),
    (R.JOINING, E.RELAY_FAILED): _to(R.GUEST_CLOSED, F.OPEN_DIALOG),
    (R.JOINING, E.TABLE_CLOSED): _to(R.GUEST_CLOSED, F.OPEN_DIALOG),
    (R.JOINING, E.JOIN): _to(R.JOINING),
    (R.JOINING, E.FORGET): _to(R.IDLE),
    (R.JOINING, E.LEAVE): _to(R.GUEST_CLOSED, F.OPEN_DIALOG),
    # at another page's table
    (R.SEATED, E.TABLE_CLOSED): _to(R.GUEST_CLOSED, F.OWN_GAME, F.OPEN_DIALOG),
    (R.SEATED, E.NOBODY_ANSWERED): _to(R.GUEST_CLOSED, F.OWN_GAME, F.OPEN_DIALOG),
    (R.SEATED, E.LEAVE): _to(R.GUEST_CLOSED, F.OWN_GAME, F.OPEN_DIALOG),
    (R.SEATED, E.FORGET): _to(R.IDLE, F.OWN_GAME),
    (R.SEATED, E.JOIN): _to(R.JOINING, F.OWN_GAME),  # only before the game began
    # a fair table
    (R.FAIR, E.FAIR_CLOSED): _to(R.GUEST_CLOSED, F.OWN_GAME, F.OPEN_DIALOG),
    (R.FAIR, E.LEAVE): _to(R.GUEST_CLOSED, F.OWN_GAME, F.OPEN_DIALOG),
    (R.FAIR, E.FORGET): _to(R.IDLE, F.OWN_GAME),
    (R.FAIR, E.ALONE): _to(R.HOSTING),  # the game goes on, against the computers
    (R.IDLE, E.BACK): _to(R.FAIR),
}
"""(role, event) → (next role, effects). Pairs not here are ignored."""

FELT_TABLE_ROLES = frozenset({R.HOSTING, R.SEATED, R.FAIR})
"""The roles in which the felt shows a table's seat instead of the page's own game."""

PERSON_EVENTS = frozenset({E.HOST, E.JOIN, E.PLAY_ONLINE, E.DIALOG_CLOSED, E.CLOSE, E.LEAVE,
                           E.SOLO, E.FORGET, E.BACK})
"""The events that are the person's own choice."""


def next_role(role: Role, event: Event) -> _Row | None:
    """The role after ``event`` in ``role`` and the effects, or None: the event is ignored.

    >>> next_role(Role.LOOKING, Event.DIALOG_CLOSED)[0]
    <Role.IDLE: 'idle'>
    >>> next_role(Role.IDLE, Event.DEALT) is None
    True
    """
    return TRANSITIONS.get((role, event))
