"""Resuming a fair hand after a reload: what a page keeps of the hand under way, and the
table rebuilt from it. No I/O.

A page's part of a hand is its keys (``party.Secrets``: its shuffling key, its 52 slot
keys, its shuffle's order, its keys on the cards passed to it) and its place in the signed
record: every envelope it sent or took, in that order (``Ledger.log``). A ``HandKept`` holds
both; the page stores its text for its tab before any message of its own leaves (so the
record always holds every message it ever sent), and a page that reloads within its seat's
grace rebuilds its ``FairTable`` from it (``FairTable(kept=...)``): its own messages are
taken back as sent (each checked against its own signature and the record), the others'
are checked exactly as on arrival, then it reads its cards again with its keys. Its
missing messages (those sent while it was away) it asks the others for, and they relay
the signed copies (``relay``).

The next hand's deal is made while a hand is played (``FairTable.upcoming``), so the record
holds it too: the next hand's keys and shuffle, and every envelope of it sent or taken
(``HandKept.upcoming``, ``upcoming_log``). Replayed after the hand under way, it brings
the next deck back where it stood: a page that reloads while it is being made neither
shuffles again (which would be two messages signed with one number: ``EQUIVOCATED``) nor
loses the keys its sent shuffle and lock were made with.

What the others check of a page that comes back this way (``resume_fault``): that its
claim names the hand under way, and the number of its next message no lower than what it
already sent them, and the commitment to its shuffling key it sent with its shuffle. A
page that comes back with other keys, or another hand's record, is refused and named; an
honest page whose record doesn't hold any more (spoilt, or of a hand over) keeps the seat
the old way: the hand under way charged to it (``played.left``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from web.p2p.fair.hand_record import HandRecord
from web.p2p.fair.party import Secrets
from web.p2p.fair.transcript import Cheat, CheatDetected, Fault
from web.p2p.fair.wire import apply, open_envelope, parse, tag

if TYPE_CHECKING:
    from web.p2p.fair.hand import FairHand
    from web.p2p.fair.table import FairTable

__all__ = [
    "END", "HandKeeper", "HandKept", "Resume", "Segment", "claim_of", "joined", "replay",
    "resume_fault",
]

VERSION = 1
MAX_CHARS = 4_000_000
"""The longest record read back (a hand's is some tens of kilobytes)."""


@dataclass(frozen=True)
class Resume:
    """What a page that comes back claims of the hand under way: its number, the number of
    its own next message, and its commitment ``g**e`` (0 before it shuffled)."""

    hand: int
    next: int
    commitment: int

    def text(self) -> str:
        return f"{self.hand}:{self.next}:{self.commitment:x}"

    @staticmethod
    def read(text: str) -> Resume | None:
        try:
            hand, n, commitment = text.split(":")
            return Resume(int(hand), int(n), int(commitment, 16))
        except ValueError:
            return None


@dataclass(frozen=True)
class HandKept:
    """A page's part of the hand under way, kept for its tab."""

    table: str
    seat: int
    hand: int
    secrets: Secrets
    log: tuple[str, ...]
    upcoming: Secrets | None = None
    """The next hand's keys and shuffle, if its deal was begun."""
    upcoming_log: tuple[str, ...] = ()
    """Every envelope of the next hand this page sent or took, in that order."""

    @staticmethod
    def read(data: object) -> HandKept | None:
        """A record read back from its JSON (None: foreign, spoilt or of another version)."""
        try:
            assert isinstance(data, dict) and data.get("v") == VERSION
            secrets = _secrets(data["keys"])
            log = tuple(data["log"])
            after = data.get("next") or {}
            upcoming = _secrets(after["keys"]) if "keys" in after else None
            kept = HandKept(str(data["table"]), int(data["seat"]), int(data["hand"]),
                            secrets, log, upcoming, tuple(after.get("log", ())))
        except (AssertionError, ValueError, KeyError, TypeError, AttributeError):
            return None
        if not 0 <= kept.seat < 4 or kept.hand < 1 \
                or not all(_sound(k) for k in (secrets, upcoming) if k is not None) \
                or not all(isinstance(item, str) for item in log + kept.upcoming_log):
            return None
        return kept


def _secrets(keys: Any) -> Secrets:
    """A page's keys read back from their JSON (raises on anything else)."""
    return Secrets(int(keys["e"], 16), tuple(int(k, 16) for k in keys["k"]),
                   tuple(int(i) for i in keys["o"]),
                   tuple((int(s), int(k, 16)) for s, k in keys["b"]))


def _sound(secrets: Secrets) -> bool:
    return len(secrets.slot_keys) == 52 and sorted(secrets.order) in ([], list(range(52)))


def _keys_text(secrets: Secrets) -> str:
    return json.dumps({
        "e": f"{secrets.shuffle_key:x}", "k": [f"{k:x}" for k in secrets.slot_keys],
        "o": list(secrets.order), "b": [[s, f"{k:x}"] for s, k in secrets.blind_keys]},
        separators=(",", ":"))


class HandKeeper:
    """The text of a table's ``HandKept``, made again only when it changed, each envelope
    encoded once: a card costs the join of the texts, not their encoding. In parts too
    (``parts``), for a tab that stores only what is new."""

    def __init__(self) -> None:
        self._hand: tuple[str, int, int] = ("", -1, -1)
        self._parts = [_Part(), _Part()]
        """The hand under way's, and the next one's."""

    def parts(self, table: FairTable) -> tuple[tuple[str, int, int], list[Segment]] | None:
        """If the record changed since the last call (else None): the hand it is of, and
        its segments, each the JSON that leads up to a log's first envelope and that log's
        envelopes, encoded: the hand under way's, then the next one's. The record is each
        segment's lead and its envelopes joined by commas, one after the other, then
        ``END``."""
        hand = (table.name, table.seat, table.hand_number)
        if hand != self._hand:  # the next hand's part, made already, becomes the hand's
            moved = hand[:2] == self._hand[:2] and hand[2] == self._hand[2] + 1
            self._hand = hand
            self._parts = [self._parts[1] if moved else _Part(), _Part()]
        now, after = self._parts
        upcoming = table.upcoming
        changed = now.update(table.ledger.log.get(table.hand_number, []),
                             table.current.party.secrets())
        changed = after.update(table.ledger.log.get(table.hand_number + 1, []),
                               None if upcoming is None else upcoming.party.secrets()) \
            or changed
        if not changed:
            return None
        head = (f'{{"v":{VERSION},"table":{json.dumps(table.name)},"seat":{table.seat},'
                f'"hand":{table.hand_number},{now.lead()}')
        return hand, [(head, now.items), ('],"next":{' + after.lead(), after.items)]

    def text(self, table: FairTable) -> str | None:
        """The record's JSON, if it changed since the last call (else None)."""
        parts = self.parts(table)
        return None if parts is None else joined(parts[1])


Segment = tuple[str, list[str]]
"""A record's JSON up to a log's first envelope, and that log's envelopes (``HandKeeper``)."""

END = "]}}"
"""What closes a record after its last segment."""


def joined(segments: list[Segment]) -> str:
    """The record that ``segments`` (``HandKeeper.parts``) make."""
    return "".join(lead + ",".join(items) for lead, items in segments) + END


class _Part:
    """One hand's part of the record, its envelopes each encoded once."""

    def __init__(self) -> None:
        self.items: list[str] = []
        self.secrets: Secrets | None = None
        self.keys = ""

    def update(self, log: list[str], secrets: Secrets | None) -> bool:
        """Take the log and keys as they stand; whether they changed."""
        if len(log) == len(self.items) and secrets == self.secrets:
            return False
        self.items += [json.dumps(item) for item in log[len(self.items):]]
        if secrets != self.secrets:
            self.secrets = secrets
            self.keys = "" if secrets is None else _keys_text(secrets)
        return True

    def lead(self) -> str:
        """Its JSON up to its log's first envelope."""
        keys = f'"keys":{self.keys},' if self.keys else ""
        return keys + '"log":['


def claim_of(table: FairTable) -> Resume:
    """What ``table``, resumed, claims of its hand (``Resume``)."""
    t, me = table.transcript, table.seat
    return Resume(table.hand_number, table.ledger.expected(me, table.hand_number),
                  t.commitments[me] if len(t.commitments) > me else 0)


def replay(table: FairTable, kept: HandKept) -> bool:
    """Bring ``table``, just made for hand ``kept.hand``, to where its page stood before
    the reload; whether the record held (if not, the table may be anywhere: drop it)."""
    hand = table.current
    if (kept.table, kept.seat, kept.hand) != (table.name, table.seat, hand.number):
        return False
    if not _replay_hand(table, hand, kept.secrets, kept.log):
        return False
    t, party = hand.transcript, hand.party
    if table.seat in t.pass_slots:
        hand.passing = tuple(sorted(party.known[s] for s in t.pass_slots[table.seat]))
    if kept.upcoming is None:
        return not kept.upcoming_log  # (others' envelopes alone: none of its own went)
    table.take_kept(None)  # its cards read: the next hand's deal is begun
    upcoming = table.upcoming
    return upcoming is not None and _replay_hand(table, upcoming, kept.upcoming,
                                                 kept.upcoming_log)


def _replay_hand(table: FairTable, hand: FairHand, secrets: Secrets,
                 log: tuple[str, ...]) -> bool:
    """``hand`` (the one under way, or the next one's deal) brought back with the keys
    and envelopes kept; whether they held."""
    party, t = hand.party, hand.transcript
    party.restore(secrets)
    for text in log:
        opened = open_envelope(text, table.group)
        if opened is None or opened[1] != tag(table.name) or opened[2] != hand.number:
            return False
        if opened[0] == table.seat:
            if not _restore_own(table, hand, text, opened):
                return False
        else:
            table.take_kept(text, opened)
        if table.closed is not None:
            return False
        if t.dealt and hand.dealt is None:  # read as soon as dealt, as when live: a card
            hand.dealt = tuple(sorted(party.read_hand()))  # passed on changes its value
    me = table.seat
    if len(t.commitments) > me and t.commitments[me] != table.group.power(
            table.group.generator, secrets.shuffle_key):
        return False  # the keys kept aren't those this page shuffled with
    if len(t.shuffles) > me and me not in t.shuffle_proofs:
        hand.proving = party.prove_shuffle()  # its proof wasn't out yet: made again
    return True


def _restore_own(table: FairTable, hand: FairHand, text: str,
                 opened: tuple[int, str, int, int, str, int, int]) -> bool:
    """This page's own envelope ``text`` of ``hand``, sent before the reload, into the
    record again; whether it holds: signed by this page, its next one, and a step that
    fits the record (else the record kept is spoilt)."""
    _, _, number, n, inner, t, z = opened
    record = hand.transcript
    try:
        parsed = parse(inner, table.group, table.seat)
        if parsed[0] == "fair_digest" and tuple(parsed[1]["echo"]) != table.dispute.echo():
            # Its echo froze the messages it held then: its evidence, should the digests
            # differ, is those (``Dispute.echo``), frozen again here as they were, or the
            # judging would read an honest page's evidence as a false echo.
            return False
        if not table.ledger.restore(number, parsed[0], n, inner, t, z, text):
            return False
        if parsed[0] == "fair_open":
            # It opened cards only once it had checked the four shuffle proofs (the
            # longest check of the hand: not made again), so what waited on them fits now.
            record.proven |= set(record.shuffle_proofs)
            table.take_kept(None)
        apply(record, table.seat, parsed)
    except CheatDetected:
        return False
    if parsed[0] == "fair_proof":
        record.proven.add(table.seat)
    return True


def resume_fault(record: HandRecord, sent: int, hand: int, seat: int, claim: Resume
                 ) -> Fault | None:
    """Whether the page at ``seat``, coming back to ``hand`` with ``claim``, stands where
    the record shows it stood: None, or the fault that names it (a page that resumes
    another hand's record, or with keys other than those it committed to). ``sent``: how
    many of its messages of the hand this page holds."""
    if claim.hand != hand or claim.next < sent:
        return Fault(seat, Cheat.RESUMED_ELSEWHERE)
    committed = record.commitments[seat] if len(record.commitments) > seat else 0
    if committed and claim.commitment != committed:  # (its shuffle may be on its way)
        return Fault(seat, Cheat.RESUMED_ELSEWHERE)
    return None

