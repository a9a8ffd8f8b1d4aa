"""The friends dialog's network choices: how pages connect, and where they meet.

"How to connect" picks the ICE servers a connection may use (none beyond the local
network, Google's public STUN server, or the person's own TURN server); "Where players meet"
picks the relays that tables' codes and Play online are looked up through (the public
ones, or the person's own, checked and kept in storage). Every place in the dialog that
names the STUN server or the relays is filled from here, so it always names the ones in use.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from web import words
from web.browser import Browser, DomEvent, Element
from web.friends.joining import PUBLIC_RELAYS, STUN, read_relays
from web.p2p.codes import CodeError

__all__ = ["NetworkChoices", "attr"]


def relay_names(relays: list[str] | tuple[str, ...]) -> str:
    """Relay addresses as the dialog names them (without ``wss://``)."""
    return ", ".join(url.split("://", 1)[1] for url in relays)


def attr(node: Any, name: str) -> str:
    """An element's attribute, or "" if it has none."""
    value = node.getAttribute(name)
    return value if isinstance(value, str) else ""


class NetworkChoices:
    """The fields of both choices in the ``#friends`` dialog, read and kept."""

    def __init__(self, browser: Browser, dialog: Element, error: Callable[[str], None],
                 keep_relays: Callable[[str], None]) -> None:
        """``error(text)``: say what is wrong with a choice ("" clears it);
        ``keep_relays(text)``: store the person's own relays ("" for the public ones)."""
        self.browser = browser
        self.dialog = dialog
        self.error = error
        self.keep_relays = keep_relays
        self.own_relays: list[str] = []
        """The person's own relays, chosen under "Where players meet" (kept in storage) or
        named by the address (``?relay=``), instead of the public ones."""

    def q(self, selector: str) -> Element:
        return self.browser.one(selector, self.dialog)

    def name_servers(self) -> None:
        """Name the STUN server and the relays wherever the dialog mentions them."""
        for names in self.dialog.querySelectorAll(".fr-stun"):
            names.textContent = STUN[5:]
        self.q(".fr-public-relays").textContent = relay_names(PUBLIC_RELAYS)
        self._name_relays()

    def ice(self) -> str | None:
        """The ICE servers chosen (JSON); None while the TURN server's details are
        incomplete (an address that can't be one is said in the dialog)."""
        choice = str(self.q("input[name='fr-net']:checked").value)
        if choice == "stun":
            return json.dumps([{"urls": STUN}])
        if choice == "turn":
            url = str(self.q("#fr-turn-url").value).strip()
            if not url:
                return None
            if not url.startswith(("turn:", "turns:")):
                self.error(words.TURN_ADDRESS)
                return None
            return json.dumps([{"urls": url, "username": str(self.q("#fr-turn-user").value),
                                "credential": str(self.q("#fr-turn-pass").value)}])
        return "[]"

    def relays(self) -> list[str]:
        """Where players meet: the person's own relays, else the public ones."""
        return list(self.own_relays or PUBLIC_RELAYS)

    def use_relays(self, typed: str) -> None:
        """The person's own relays as stored (or given by the address): shown as chosen."""
        try:
            self.own_relays = read_relays(typed)
        except CodeError:
            return
        self.q("#fr-relay-url").value = typed
        self.q("input[name='fr-relay'][value='own']").checked = True
        self._name_relays()

    def on_change(self, event: DomEvent) -> None:
        """A choice under "Where players meet": checked, kept, and named wherever relays are."""
        target = event.target
        if attr(target, "name") != "fr-relay" and attr(target, "id") != "fr-relay-url":
            return
        own = bool(self.q("input[name='fr-relay'][value='own']").checked)
        typed = str(self.q("#fr-relay-url").value).strip()
        self.own_relays = []
        if own and typed:
            try:
                self.own_relays = read_relays(typed)
                self.error("")
            except CodeError as problem:
                self.error(str(problem))
        self.keep_relays(typed if self.own_relays else "")
        self._name_relays()

    def _name_relays(self) -> None:
        for names in self.dialog.querySelectorAll(".fr-relays"):
            names.textContent = relay_names(self.relays())
