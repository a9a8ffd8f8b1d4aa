"""A guest on the way to a friend's table: the invite read, the answer code made.

The guest's page answers the host's offer (from the invite) with its own connection and
shows the answer code to send back; the table opens once the host pastes it. No DOM.
"""

from __future__ import annotations

import json

from hearts import SEAT_NAMES
from web import words
from web.p2p.codes import Answer, CodeError, Invite, encode_answer, offer_sdp, parse_sdp
from web.p2p.peer import Peer
from web.p2p.protocol import Intent
from web.p2p.tablecode import TableCode

__all__ = ["PUBLIC_RELAYS", "STUN", "CodeJoining", "Joining", "across_internet",
           "read_relays"]

STUN = "stun:stun.l.google.com:19302"
"""The public STUN server a page may ask for its public address (named in the dialog)."""
PUBLIC_RELAYS = ("wss://nos.lol", "wss://relay.mostr.pub", "wss://purplerelay.com",
                 "wss://nostr.data.haus")
"""Public Nostr relays where pages look for a table by its code (named in the dialog;
``?relay=`` replaces them)."""
MAX_RELAYS = 5


def read_relays(text: str) -> list[str]:
    """The relay addresses a person typed (comma- or space-separated); raises CodeError,
    in words, unless each is a ws:// or wss:// address (at most ``MAX_RELAYS``)."""
    urls = [url for url in text.replace(",", " ").split() if url]
    if not urls or len(urls) > MAX_RELAYS or len(text) > 500 or not all(
            url.startswith(("wss://", "ws://")) and len(url) > 6 for url in urls):
        raise CodeError(words.RELAY_ADDRESS)
    return urls


def across_internet(invite: Invite) -> bool:
    """Whether the host's invite holds addresses beyond its own network."""
    return any(c.kind != "host" for c in invite.endpoint.candidates)


class Joining:
    """One invite this page is answering."""

    def __init__(self, invite: Invite) -> None:
        self.invite = invite
        self.conn: str | None = None
        self.code = ""
        """The answer code, once made."""
        self.failed = False
        """Making the answer failed: the dialog offers Try again."""
        self.answering = False
        """The answer is being made (one at a time)."""
        self.step = words.MAKING_ANSWER

    @property
    def ice(self) -> str:
        """The host went through the internet: this page asks the same STUN server."""
        return json.dumps([{"urls": STUN}]) if across_internet(self.invite) else "[]"

    def note(self) -> str:
        """What the guest's dialog says about the invite, where its page asks, and the step."""
        return words.invited_note(SEAT_NAMES[self.invite.seat],
                                  STUN[5:] if across_internet(self.invite) else None, self.step)

    async def make_answer(self, peer: Peer) -> str | None:
        """Answer the invite; returns an error in words, or None once the code is made."""
        if self.conn is not None or self.answering:
            return None
        self.failed = False
        invite = self.invite
        self.answering = True
        try:
            reply = await peer.answer(self.ice, offer_sdp(invite.endpoint), 5000)
        finally:
            self.answering = False
        if "error" in reply:
            self.failed = True
            return "The browser couldn't use this invite: " + reply["error"]
        try:
            code = encode_answer(Answer(invite.table, invite.seat, invite.ticket,
                                        parse_sdp(reply["sdp"])))
        except CodeError as problem:
            peer.close(reply["id"])
            self.failed = True
            return str(problem)
        self.conn = reply["id"]
        self.code = code
        self.step = words.SEND_ANSWER_BACK
        return None


class CodeJoining:
    """A table this page looks for by its short code, through relays: no answer code goes
    back; the host's page seats whoever comes into the table's room."""

    def __init__(self, code: TableCode, claim: tuple[int, str] | None = None) -> None:
        """``claim``: the seat this page held before a reload, and its secret."""
        self.table = code
        self.claim = claim
        self.conn: str | None = None
        """The host's connection, once its first message came (the table's state)."""
        self.room: dict[str, str] = {}
        """page id -> connection of every other page in the table's room (the host's too)."""
        self.code = ""  # no answer code to send back
        self.failed = False

    def note(self) -> str:
        return words.LOOKING_FOR_TABLE.format(code=self.table.shown)

    def greeting(self) -> Intent:
        """This page's first words to each page in the table's room (only the host's page
        answers): a newcomer's, or the claim to the seat it held."""
        if self.claim is None:
            return Intent("hello")
        return Intent("back", seat=self.claim[0], secret=self.claim[1])
