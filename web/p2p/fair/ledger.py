"""One page's ledger of a fair table's signed messages: numbered, signed, checked, kept.

Every message a page sends carries its number among its messages of the hand and its
signature (``signing``); every message it takes must carry the next number of its sender
and a signature that holds under that seat's public key. The ledger keeps what was signed,
by hand, seat and number (the digest, keys, evidence and complaints aside: they cross the
mesh while the pages echo), so that at the hand's end the page can echo what it saw, and,
if the echoes differ, show its evidence. No I/O.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Collection, Sequence

from web.p2p.fair.group import Group, KeySource
from web.p2p.fair.signing import Signed, echo, sign, text_hash, verify
from web.p2p.fair.wire import envelope, tag

__all__ = ["Ledger"]

_Record = dict[int, dict[int, dict[int, Signed]]]
"""Hand -> seat -> number -> a signed message."""


class Ledger:
    """The signed messages this page (at ``seat``) sent and took, hand by hand."""

    def __init__(self, seat: int, *, group: Group, name: str, signing_key: int,
                 keys: Sequence[int], unkept: Collection[str],
                 source: KeySource | None = None,
                 now: Callable[[], float] = lambda: 0.0) -> None:
        """``name``: the table's (it goes into every signature); ``signing_key``: this
        page's, ``keys``: every seat's public one, by seat; ``unkept``: the kinds of
        message that are signed but not kept (nor echoed); ``now``: the table's clock (when
        each message was sent or taken: ``beyond``)."""
        self.now = now
        self.seat = seat
        self.group = group
        self.name = name
        self.signing_key = signing_key
        self.keys = tuple(keys)
        self.unkept = frozenset(unkept)
        self.source = source
        self._numbers: dict[int, int] = {}
        """Hand -> the number of this page's next message of it."""
        self._expected: dict[tuple[int, int], int] = {}
        """(seat, hand) -> the number that seat's next message must have."""
        self.signed: _Record = {}
        """Each signed message this page sent or took, but the unkept kinds."""
        self._kinds: dict[int, dict[int, dict[int, str]]] = {}
        """Hand -> seat -> number -> the type of each message in ``signed``."""
        self._echoed: _Record = {}
        """Hand -> ``signed`` as it was when this page sent its digest and echo."""
        self._types: dict[int, dict[int, dict[int, str]]] = {}
        """Hand -> seat -> number -> the type of every message held (``kinds_of``)."""
        self.envelopes: dict[int, dict[int, dict[int, tuple[str, str, float]]]] = {}
        """Hand -> seat -> number -> the text hash, the envelope and when this page sent or
        took it, for every message of every kind: what it relays to a page that missed one
        (``relay``)."""
        self.log: dict[int, list[str]] = {}
        """Hand -> every envelope this page sent or took, in that order: what a reloaded
        page replays to stand where it stood (``resume``)."""

    def seal(self, hand: int, kind: str, text: str) -> str:
        """``text`` (a message of type ``kind``) signed, numbered and enveloped; kept."""
        n = self._numbers.get(hand, 0)
        self._numbers[hand] = n + 1
        digest = text_hash(text)
        source = self.source if self.source is not None else secrets.SystemRandom()
        t, z = sign(self.group, self.signing_key, self.name, hand, self.seat, n, digest,
                    source)
        self.keep(hand, kind, Signed(self.seat, n, digest, t, z))
        self.typed(hand, self.seat, n, kind)
        sealed = envelope(self.seat, tag(self.name), hand, n, text, (t, z))
        self._hold(hand, self.seat, n, digest, sealed)
        return sealed

    def admit(self, seat: int, hand: int, n: int, inner: str, t: int, z: int,
              sealed: str = "") -> Signed | None:
        """The message ``n`` of ``seat`` in ``hand`` as signed, if it is that seat's next
        one and its signature holds (then the one after is expected); else None.
        ``sealed``: its envelope, kept to relay."""
        signed = Signed(seat, n, text_hash(inner), t, z)
        if n != self.expected(seat, hand) or not self.holds_up(signed, hand):
            return None
        self._expected[(seat, hand)] = n + 1
        self._hold(hand, seat, n, signed.digest, sealed)
        return signed

    def holds_up(self, signed: Signed, hand: int) -> bool:
        """Whether ``signed``'s signature holds under its seat's key."""
        return verify(self.group, self.keys[signed.seat], self.name, signed, hand)

    def expected(self, seat: int, hand: int) -> int:
        """The number ``seat``'s next message of ``hand`` must have here."""
        if seat == self.seat:
            return self._numbers.get(hand, 0)
        return self._expected.get((seat, hand), 0)

    def _hold(self, hand: int, seat: int, n: int, digest: str, sealed: str) -> None:
        self.envelopes.setdefault(hand, {}).setdefault(seat, {})[n] = digest, sealed, self.now()
        self.log.setdefault(hand, []).append(sealed)

    def restore(self, hand: int, kind: str, n: int, inner: str, t: int, z: int,
                sealed: str) -> bool:
        """This page's own message ``n`` of ``hand``, sent before a reload, kept again as
        when it was sealed; whether it is its next one and its own key signed it."""
        signed = Signed(self.seat, n, text_hash(inner), t, z)
        if n != self._numbers.get(hand, 0) or not self.holds_up(signed, hand):
            return False
        self._numbers[hand] = n + 1
        self.keep(hand, kind, signed)
        self.typed(hand, self.seat, n, kind)
        self._hold(hand, self.seat, n, signed.digest, sealed)
        return True

    def typed(self, hand: int, seat: int, n: int, kind: str) -> None:
        """Note the type of an admitted message (every kind: ``kinds_of``)."""
        self._types.setdefault(hand, {}).setdefault(seat, {})[n] = kind

    def held(self, hand: int, seat: int, n: int) -> str | None:
        """The text hash of the message ``n`` of ``seat`` this page holds (None: none)."""
        found = self.envelopes.get(hand, {}).get(seat, {}).get(n)
        return None if found is None else found[0]

    def envelope(self, hand: int, seat: int, n: int) -> str:
        """The envelope of the message ``n`` of ``seat`` this page holds ("": none)."""
        found = self.envelopes.get(hand, {}).get(seat, {}).get(n)
        return "" if found is None else found[1]

    def kinds_of(self, hand: int, seat: int) -> dict[int, str]:
        """Number -> type of each message of ``seat`` in ``hand`` this page holds."""
        return dict(self._types.get(hand, {}).get(seat, {}))

    def have(self, hand: int) -> tuple[int, ...]:
        """Per seat, the number of the next message of ``hand`` this page expects."""
        return tuple(self.expected(seat, hand) for seat in range(len(self.keys)))

    def beyond(self, hand: int, have: Sequence[int], since: float) -> list[str]:
        """The envelopes of ``hand`` this page holds that follow ``have`` (``have``), in
        each seat's order, up to the first this page took after ``since``: what a page that
        asked lacks (one this page took just now may still be on its way to it)."""
        held = self.envelopes.get(hand, {})
        out = []
        for seat in sorted(held):
            for n, (_, sealed, at) in sorted(held[seat].items()):
                if at > since:
                    break
                if n >= have[seat] and sealed:
                    out.append(sealed)
        return out

    def keep(self, hand: int, kind: str, signed: Signed) -> None:
        """Keep an admitted (or sealed) message of type ``kind``, unless of an unkept kind."""
        if kind in self.unkept:
            return
        self.signed.setdefault(hand, {}).setdefault(signed.seat, {})[signed.n] = signed
        self._kinds.setdefault(hand, {}).setdefault(signed.seat, {})[signed.n] = kind

    def echo(self, hand: int, only: Collection[str] | None = None) -> tuple[str, ...]:
        """Per seat, the hash of its kept messages of ``hand`` as they are now (``only``:
        of those kinds); frozen, for the evidence if the echoes differ."""
        frozen = {s: dict(m) for s, m in self.signed.get(hand, {}).items()}
        if only is not None:
            kinds = self._kinds.get(hand, {})
            frozen = {s: {n: x for n, x in m.items() if kinds[s][n] in only}
                      for s, m in frozen.items()}
        self._echoed[hand] = frozen
        return tuple(echo({n: x.digest for n, x in frozen.get(s, {}).items()})
                     for s in range(len(self.keys)))

    def evidence(self, hand: int) -> tuple[str, ...]:
        """The signed messages this page echoed for ``hand``, as evidence travels."""
        frozen = self._echoed.get(hand, {})
        return tuple(x.item() for s in sorted(frozen) for _, x in sorted(frozen[s].items()))

    def forget_before(self, hand: int) -> None:
        """A hand over is over: what was kept of it (its evidence too) goes."""
        for kept in (self.signed, self._echoed, self._kinds, self.envelopes, self._types,
                     self.log):
            for old in [h for h in kept if h < hand]:
                del kept[old]
