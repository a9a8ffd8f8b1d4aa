"""What the Play with friends / Play online dialog shows, as a frozen model of the session.

``sheet`` reads a ``Session`` and says, for its role, which parts of the dialog show, what
each says, and the state the tests read off the dialog (``data-role``, ``data-stage``, …);
``FriendsDialog.render`` only applies it. So every role's screen is decided here, in one
place, and pytest checks each without a browser. The host's invite rows (their links, QR
codes and answer fields) are drawn apart, from the ``Hosting`` itself.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from web import words
from web.friends.role import Role
from web.friends.session import Session

__all__ = ["PARTS", "ROLE_NAMES", "Sheet", "sheet"]

ROLE_NAMES = {Role.IDLE: "", Role.HOSTING: "host", Role.HOST_CLOSED: "host",
              Role.JOINING: "guest", Role.SEATED: "guest", Role.GUEST_CLOSED: "guest",
              Role.LOOKING: "looking", Role.NO_RELAY: "looking", Role.FAIR: "fair"}
"""The dialog's ``data-role`` for each role."""

PARTS = ("#fr-back", "#fr-fair-closed", "#fr-start", "#fr-open", "#fr-intro", "#fr-settings",
         "#fr-net", "#fr-relay-set", "#fr-invites", "#fr-join", "#fr-make-answer", "#fr-answer-row",
         "#fr-paste", "#fr-online", "#fr-paste-note", "#fr-retry", "#fr-solo", "#fr-leave")
"""The parts of the dialog that show or hide with the role (every other part always shows)."""

AT_TABLE = (Role.HOSTING, Role.SEATED, Role.FAIR)
NEWS = frozenset({words.YOU_LEFT, words.GUEST_LEFT, words.FAIR_LEFT, words.HOST_GONE})
"""Why a table closed that is news, not a failure (the host's own words are too)."""


@dataclass(frozen=True)
class Sheet:
    """The dialog for one moment of the session."""

    role: str
    title: str
    shown: frozenset[str]
    """The ``PARTS`` that show (the others hide)."""
    texts: tuple[tuple[str, str], ...]
    """(selector, text) of every part whose words depend on the moment."""
    looking: bool
    connected: bool
    closed: bool
    settings_open: bool = False
    """The connection settings are opened (no relay answered: another is chosen there)."""
    news: frozenset[str] = frozenset()
    """The parts among ``#fr-error`` and ``#fr-fair-closed`` whose line is news (a table
    left or closed) rather than a failure, said in red."""
    stage: str = ""
    """The table's stage ("connecting" before the host has said; "" at no table)."""
    seat: str = ""
    waiting: str = ""
    turn: str = ""
    hand: str = ""
    """The seat, the seats waited for, whether it is this seat's turn, the hand's number:
    "" until the table has said (the dialog keeps what it showed before)."""

    def shows(self, part: str) -> bool:
        return part in self.shown

    def text(self, part: str) -> str:
        return dict(self.texts).get(part, "")


def sheet(session: Session, *, offer_seat: bool = False, intro: str = "") -> Sheet:
    """The dialog for ``session`` now (``offer_seat``: this tab held a seat at a table before
    it reloaded; ``intro``: the private table's own introduction, from the page)."""
    role = session.role
    hosting = session.hosting
    ended = session.fair_ended if role is Role.GUEST_CLOSED else None
    # a page the lobby left alone with the computers, not a table of friends
    online = hosting is not None and hosting.host.online
    offer = offer_seat and role is Role.IDLE
    # come to a table under way, not seated yet: the felt still shows the page's own game
    waiting = role is Role.FAIR and session.fair is not None and session.fair.seat is None
    closed = session.seat.closed if role in (Role.HOST_CLOSED, Role.GUEST_CLOSED) \
        and ended is None else None
    joining = session.joining
    invited = role is Role.JOINING and joining is not None
    bad_link = role is Role.GUEST_CLOSED and joining is None and ended is None
    # a fair table closed: the dialog is Play online's, which offers to look again
    online_closed = ended is not None
    # the ways to connect and meet, where they can still be chosen (an online table met
    # through the relays and STUN already)
    host_side = role in (Role.IDLE, Role.HOSTING, Role.GUEST_CLOSED) and not online \
        and not online_closed
    shown = {
        "#fr-back": offer,
        # first of all: why a fair table closed, or that no relay answered (what to choose
        # instead shows just below it)
        "#fr-fair-closed": ended is not None or (role is Role.NO_RELAY and bool(session.error)),
        "#fr-start": role in (Role.IDLE, Role.GUEST_CLOSED) and not offer
        and not online_closed,
        "#fr-open": role in (Role.IDLE, Role.GUEST_CLOSED) and not offer
        and not online_closed,
        "#fr-intro": role in AT_TABLE,
        "#fr-settings": (host_side and not offer) or role is Role.NO_RELAY,  # (summary)
        "#fr-net": host_side,
        # no relay answered: another one can be chosen right there
        "#fr-relay-set": host_side or role is Role.NO_RELAY,
        "#fr-invites": hosting is not None and not online,  # the lobby offers open seats
        "#fr-join": invited or bad_link,
        "#fr-make-answer": bool(invited and joining and joining.failed),
        "#fr-answer-row": bool(invited and joining and joining.code),
        "#fr-paste": session.can_join() and role not in (Role.LOOKING, Role.NO_RELAY)
        and not offer and not online_closed,
        "#fr-online": role is Role.LOOKING,
        "#fr-paste-note": hosting is not None,
        "#fr-retry": role is Role.NO_RELAY or online_closed,
        "#fr-solo": session.host_side.can_go_solo(),
        "#fr-leave": role in AT_TABLE,
    }
    online_now = session.online
    texts = {
        "#fr-back-note": words.BACK_OFFER if offer else "",
        "#fr-fair-closed": ended or (session.error if role is Role.NO_RELAY else ""),
        "#fr-intro": _fair_intro(session) if role is Role.FAIR else (
            words.ONLINE_HOSTED if online else words.FRIEND_SEATED if role is Role.SEATED
            else words.TABLE_BACK if session.resumed else intro),
        "#fr-join-note": joining.note() if invited and joining else (
            words.BAD_INVITE if bad_link else ""),
        "#fr-online-state": words.looking_text(
            online_now.people(), online_now.seconds_left(), met=online_now.met())
        if role is Role.LOOKING else "",
        "#fr-leave": words.END_TABLE if role is Role.HOSTING else words.LEAVE_TABLE,
        # one way out of the dialog, named for where it goes (looking: it stops looking)
        "#fr-close": words.STOP_LOOKING if role is Role.LOOKING
        else words.BACK_TO_TABLE if role in AT_TABLE and not waiting else words.CLOSE,
        "#fr-error": closed or (session.error if role is not Role.NO_RELAY else ""),
        "#fr-retry": words.PLAY_ONLINE_AGAIN if online_closed else words.TRY_AGAIN,
    }
    news = frozenset(part for part, said in (("#fr-error", texts["#fr-error"]),
                                             ("#fr-fair-closed", ended or ""))
                     if _is_news(said))
    title = words.PLAY_ONLINE if role in (Role.LOOKING, Role.NO_RELAY, Role.FAIR) or ended \
        or online else words.PLAY_WITH_FRIENDS
    made = Sheet(role=ROLE_NAMES[role], title=title,
                 shown=frozenset(part for part, show in shown.items() if show),
                 texts=tuple(texts.items()), looking=role is Role.LOOKING,
                 connected=role is Role.SEATED, closed=bool(closed or ended),
                 news=news, settings_open=role is Role.NO_RELAY)
    state = session.seat.state
    if state is None:
        stage = "connecting" if role in (Role.JOINING, Role.SEATED) else ""
        return replace(made, stage=stage)
    view = state.view
    return replace(made, stage=state.stage, seat=str(view.seat),
                   waiting=",".join(str(s) for s in state.waiting),
                   turn="true" if state.stage == "play" and view.my_turn else "false",
                   hand=str(view.hand_number))


def _is_news(said: str) -> bool:
    """Whether a line of the dialog says what happened (someone left or closed a table)
    rather than what failed."""
    return said in NEWS or said.startswith(words.CLOSED_BY_YOU) \
        or said.endswith(" closed the table.")


def _fair_intro(session: Session) -> str:
    """What the dialog says at a fair table: who could know which cards, once seated."""
    fair = session.fair
    if fair is not None and fair.seat is not None:
        return fair.seat.intro
    if fair is not None and fair.door.late:
        return words.FAIR_BACK_AGAIN if fair.anew else words.FAIR_LATE
    return words.FAIR_SEATED
