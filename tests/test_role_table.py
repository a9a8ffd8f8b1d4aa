"""The role table of a page at a table (web/friends/role.py): every (role, event) pair.

The table is the whole state machine, so these walk all of it: each pair either changes the
role as listed here or is ignored, and no pair takes the felt away from the person's own game
unless the person said yes to a table.
"""

from __future__ import annotations

import itertools

import pytest

from web.friends.role import (
    FELT_TABLE_ROLES,
    PERSON_EVENTS,
    TRANSITIONS,
    Effect,
    Event,
    Role,
    next_role,
)

R, E = Role, Event

# What each role becomes on each event it answers; every other pair is ignored.
EXPECTED: dict[Role, dict[Event, Role]] = {
    R.IDLE: {E.HOST: R.HOSTING, E.JOIN: R.JOINING, E.PLAY_ONLINE: R.LOOKING,
             E.BAD_LINK: R.GUEST_CLOSED, E.FORGET: R.IDLE, E.BACK: R.FAIR},
    R.GUEST_CLOSED: {E.HOST: R.HOSTING, E.JOIN: R.JOINING, E.PLAY_ONLINE: R.LOOKING,
                     E.BAD_LINK: R.GUEST_CLOSED, E.FORGET: R.IDLE},
    R.NO_RELAY: {E.HOST: R.HOSTING, E.JOIN: R.JOINING, E.PLAY_ONLINE: R.LOOKING,
                 E.BAD_LINK: R.GUEST_CLOSED, E.FORGET: R.IDLE, E.DIALOG_CLOSED: R.IDLE},
    R.HOST_CLOSED: {E.SOLO: R.IDLE, E.FORGET: R.IDLE, E.JOIN: R.JOINING,
                    E.PLAY_ONLINE: R.LOOKING},
    R.LOOKING: {E.DIALOG_CLOSED: R.IDLE, E.LEAVE: R.IDLE, E.FORGET: R.IDLE,
                E.RELAY_FAILED: R.NO_RELAY, E.DEALT: R.HOSTING, E.FAIR_FOUND: R.FAIR},
    R.HOSTING: {E.CLOSE: R.HOST_CLOSED, E.FORGET: R.IDLE, E.JOIN: R.JOINING, E.SOLO: R.IDLE,
                E.FAIR_FOUND: R.FAIR},
    R.JOINING: {E.CONNECTED: R.SEATED, E.NOBODY_ANSWERED: R.GUEST_CLOSED,
                E.RELAY_FAILED: R.GUEST_CLOSED, E.TABLE_CLOSED: R.GUEST_CLOSED,
                E.JOIN: R.JOINING, E.FORGET: R.IDLE, E.LEAVE: R.GUEST_CLOSED},
    R.SEATED: {E.TABLE_CLOSED: R.GUEST_CLOSED, E.NOBODY_ANSWERED: R.GUEST_CLOSED,
               E.LEAVE: R.GUEST_CLOSED,
               E.FORGET: R.IDLE, E.JOIN: R.JOINING},
    R.FAIR: {E.FAIR_CLOSED: R.GUEST_CLOSED, E.LEAVE: R.GUEST_CLOSED, E.FORGET: R.IDLE,
             E.ALONE: R.HOSTING},
}


@pytest.mark.parametrize(("role", "event"), list(itertools.product(Role, Event)),
                         ids=lambda value: value.value)
def test_every_pair_goes_where_the_table_says_or_is_ignored(role: Role, event: Event) -> None:
    row = next_role(role, event)
    wanted = EXPECTED[role].get(event)
    assert (row[0] if row is not None else None) is wanted


def test_every_role_can_go_back_to_the_own_game_with_nothing_kept() -> None:
    for role in Role:
        row = next_role(role, Event.FORGET)
        assert row is not None and row[0] is Role.IDLE


def test_closing_the_dialog_while_looking_stops_looking_and_leaves_the_lobby() -> None:
    row = next_role(Role.LOOKING, Event.DIALOG_CLOSED)
    assert row == (Role.IDLE, frozenset({Effect.LEAVE_LOBBY}))


def test_no_relay_means_nothing_is_dealt_and_the_dialog_says_so() -> None:
    row = next_role(Role.LOOKING, Event.RELAY_FAILED)
    assert row is not None and row[0] is Role.NO_RELAY and Effect.OPEN_DIALOG in row[1]
    assert row[0] not in FELT_TABLE_ROLES


def test_the_own_game_leaves_the_felt_only_after_the_persons_yes() -> None:
    """A role that shows the page's own game goes to one that shows a table only from a role
    the person chose (looking, joining, or their own click), never by news alone."""
    chosen = {role for (role, event), (after, _) in TRANSITIONS.items()
              if event in PERSON_EVENTS and after in (Role.LOOKING, Role.JOINING)}
    assert chosen  # looking and joining exist, and a person's event leads there
    for (role, event), (after, _) in TRANSITIONS.items():
        if after in (Role.LOOKING, Role.JOINING) and role not in (Role.LOOKING, Role.JOINING):
            assert event in PERSON_EVENTS, (role, event)
        if role not in FELT_TABLE_ROLES and after in FELT_TABLE_ROLES:
            assert event in PERSON_EVENTS or role in (Role.LOOKING, Role.JOINING), \
                (role, event)


def test_leaving_a_table_shows_the_own_game_again() -> None:
    for (role, _event), (after, effects) in TRANSITIONS.items():
        if role in FELT_TABLE_ROLES and after not in FELT_TABLE_ROLES:
            assert Effect.OWN_GAME in effects, (role, _event)
