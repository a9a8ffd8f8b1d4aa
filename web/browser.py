"""The page's one door to the browser: its document and window, element lookup, listeners.

Nothing imports ``pyscript`` or ``pyodide.ffi`` but ``connect()`` here, called once by the
composition root (``web.main``): every other module gets a ``Browser`` handed in, so it
can be imported anywhere (pytest, the build's memory snapshot) without a page.
"""

from __future__ import annotations

import datetime
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Protocol

__all__ = ["Browser", "ClassList", "ClientRect", "Collection", "DataSet", "Document",
           "DomEvent", "Element", "Style", "connect"]


class ClassList(Protocol):
    """An element's ``classList``."""

    def add(self, *names: str) -> None: ...
    def remove(self, *names: str) -> None: ...
    def toggle(self, name: str, force: bool = ...) -> bool: ...
    def contains(self, name: str) -> bool: ...


class DataSet(Protocol):
    """An element's ``data-*`` attributes (``dataset.readyMs`` is ``data-ready-ms``): the
    browser keeps them as text."""

    def __getattr__(self, name: str) -> str: ...
    def __setattr__(self, name: str, value: str) -> None: ...


class Collection(Protocol):
    """A live list of nodes (an element's ``children``, its ``getClientRects()``)."""

    length: int

    def item(self, index: int) -> Any: ...


class Style(Protocol):
    left: str
    top: str

    def setProperty(self, name: str, value: str) -> None: ...


class ClientRect(Protocol):
    left: float
    top: float
    right: float
    bottom: float
    width: float
    height: float


class Element(Protocol):
    """The part of a DOM element the page uses (the properties and methods it reads and
    writes), so a misspelt one is a type error rather than a silent JavaScript property.
    Add a member here when the page needs a new one."""

    id: str
    className: str
    textContent: str
    innerHTML: str
    hidden: bool
    disabled: bool
    checked: bool
    open: bool
    value: str
    tabIndex: int
    title: str
    name: str
    type: str
    tagName: str
    content: Element
    """A ``<template>``'s content."""
    children: Collection
    childElementCount: int
    scrollTop: float
    offsetLeft: float
    offsetTop: float
    isConnected: bool
    lastElementChild: Element | None
    parentElement: Element | None
    classList: ClassList
    dataset: DataSet
    style: Style

    def getAttribute(self, name: str) -> str | None: ...
    def setAttribute(self, name: str, value: str) -> None: ...
    def removeAttribute(self, name: str) -> None: ...
    def querySelector(self, selector: str) -> Element | None: ...
    def querySelectorAll(self, selector: str) -> Sequence[Element]: ...
    def closest(self, selector: str) -> Element | None: ...
    def matches(self, selector: str) -> bool: ...
    def contains(self, other: Element | None) -> bool: ...
    def append(self, *nodes: Element | str) -> None: ...
    def appendChild(self, node: Element) -> Element: ...
    def insertBefore(self, node: Element, before: Element | None) -> Element: ...
    def prepend(self, *nodes: Element | str) -> None: ...
    def after(self, *nodes: Element | str) -> None: ...
    def replaceChildren(self, *nodes: Element | str) -> None: ...
    def remove(self) -> None: ...
    def cloneNode(self, deep: bool) -> Element: ...
    def getBoundingClientRect(self) -> ClientRect: ...
    def getClientRects(self) -> Collection: ...
    def hasAttribute(self, name: str) -> bool: ...
    def addEventListener(self, event: str, handler: Any) -> None: ...
    def animate(self, frames: Any, options: Any) -> Any: ...
    def focus(self, options: Any = ...) -> None: ...
    def blur(self) -> None: ...
    def click(self) -> None: ...
    def select(self) -> None: ...
    def showModal(self) -> None: ...
    def close(self) -> None: ...


class DomEvent(Protocol):
    """The part of a DOM event the page's handlers read (a click, a key, a change)."""

    target: Element
    key: str
    shiftKey: bool
    ctrlKey: bool
    altKey: bool
    metaKey: bool
    clientX: float
    clientY: float

    def preventDefault(self) -> None: ...


class Document(Protocol):
    """The part of ``document`` the page uses."""

    documentElement: Element
    activeElement: Element | None
    body: Element
    hidden: bool

    def getElementById(self, name: str) -> Element | None: ...
    def querySelector(self, selector: str) -> Element | None: ...
    def querySelectorAll(self, selector: str) -> Sequence[Element]: ...
    def createElement(self, tag: str) -> Element: ...
    def addEventListener(self, event: str, handler: Any) -> None: ...
    def execCommand(self, command: str) -> bool: ...


class Browser:
    """The document, the window and the helpers that keep Python handlers alive."""

    def __init__(self, document: Any, window: Any, create_proxy: Callable[[Any], Any],
                 null: Any, to_js: Callable[[Any], Any] = lambda value: value) -> None:
        """``to_js``: a Python dict or list as a JavaScript object or array."""
        self.document: Document = document
        self.window = window
        self._create_proxy = create_proxy
        self._null = null
        self._to_js = to_js
        self._proxies: list[Any] = []
        self._focus_options: dict[bool, Any] = {}
        """``focus``'s options as JavaScript objects, made once (a conversion each time was
        a call out of Python per focus)."""
        self._media: dict[str, Any] = {}
        """Each media query asked, as its live ``MediaQueryList`` (``media``)."""
        self.guard: Callable[[Callable[..., Any], str], Callable[..., Any]] = \
            lambda handler, where: handler
        """Wraps every handler (``web.errors.Reporter.guard``: an exception is shown)."""

    def el(self, node: Any) -> Any:
        """A DOM result with JavaScript's null as None."""
        return None if node is None or node is self._null else node

    def by_id(self, name: str) -> Element | None:
        """The element ``#name``, or None if the page has none (now)."""
        node: Element | None = self.el(self.document.getElementById(name))
        return node

    def element(self, name: str) -> Element:
        """One of index.html's own elements, always there (a missing one is a broken page:
        it raises, where a None would fail later and further away)."""
        node = self.by_id(name)
        if node is None:
            raise LookupError(f"the page has no element #{name}")
        return node

    def query(self, selector: str, root: Element | Document | None = None) -> Element | None:
        """The first element under ``root`` (the document by default) that ``selector``
        matches, or None."""
        found = (root if root is not None else self.document).querySelector(selector)
        node: Element | None = self.el(found)
        return node

    def one(self, selector: str, root: Element | Document | None = None) -> Element:
        """``query`` for an element the markup always has (a missing one raises)."""
        node = self.query(selector, root)
        if node is None:
            raise LookupError(f"the page has no {selector}")
        return node

    def focus(self, node: Element, scroll: bool = True) -> None:
        """Focus ``node``; ``scroll=False``: without scrolling it into view."""
        options = self._focus_options.get(scroll)
        if options is None:
            options = self._focus_options[scroll] = self._to_js({"preventScroll": not scroll})
        node.focus(options)

    def proxy(self, function: Callable[..., Any]) -> Any:
        """A JavaScript function calling ``function``, kept alive as long as the page."""
        proxy = self._create_proxy(function)
        self._proxies.append(proxy)
        return proxy

    def after_paint(self, function: Callable[[], None], where: str) -> None:
        """Call ``function()`` once, after the browser has drawn the page as it is now (in
        a hidden page, which draws no frames, a quarter of a second later)."""
        done = False

        def run(*_: Any) -> None:
            nonlocal done
            if not done:
                done = True
                self.guard(function, where)()

        def drawn(*_: Any) -> None:  # (the frame is drawn once this callback returns)
            self.window.setTimeout(self.proxy(run), 0)

        self.window.requestAnimationFrame(self.proxy(drawn))
        self.window.setTimeout(self.proxy(run), 250)

    def after_later_code(self, function: Callable[[], None], where: str) -> None:
        """Call ``function()`` once the page's Python for private tables and online play can
        be imported: web/static/start.mjs fetches it when asked (``heartsLoadLater``), on
        a first visit; a page started without start.mjs has it all at once. If it can't
        be fetched, the error is shown (``guard``)."""
        load = getattr(self.window, "heartsLoadLater", None)
        if load is None:
            self.guard(function, where)()
            return

        def failed(error: Any) -> None:
            raise RuntimeError(f"the page's code for private tables didn't load: {error}")

        load().then(self.proxy(lambda *_: self.guard(function, where)()),
                    self.proxy(self.guard(failed, where)))

    def keep_drawn(self, state: str, local: bool) -> None:
        """The table was drawn (``state``: ``<html data-state>``; ``local``: the game against
        the computers): web/static/boot.js keeps a copy of it to paint at the next start,
        before Python is up, or forgets the one it has (a finished game, a table of friends)."""
        keep = getattr(self.window, "heartsKeepTable", None)
        if keep is not None:
            keep(state, local)

    def painted_taps(self) -> list[str]:
        """The cards tapped on the painted table before Python was up, in order (each a
        notation), handed over once: web/static/boot.js keeps them, and from now on every
        tap is Python's."""
        take = getattr(self.window, "heartsTakeTaps", None)
        return [str(card) for card in take()] if take is not None else []

    def listen(self, target: Element | Document | Any, event: str,
               handler: Callable[[DomEvent], None]) -> None:
        """Call ``handler(event)`` for ``event`` on ``target`` (errors shown, not lost)."""
        target.addEventListener(event, self.proxy(self.guard(handler, f"{event} event")))

    def animate(self, node: Element, frames: list[dict[str, str]], ms: float,
                delay: float = 0, easing: str = "ease-out", fill: str = "backwards") -> Any:
        """Play ``frames`` on ``node`` (the Web Animations API): its Animation. ``fill``:
        "backwards" shows the first frame during ``delay``; "forwards" keeps the last."""
        options = {"duration": ms, "delay": delay, "easing": easing, "fill": fill}
        return node.animate(self._to_js(frames), self._to_js(options))

    def reduced_motion(self) -> bool:
        """The person asked their system for less motion."""
        return self.media("(prefers-reduced-motion: reduce)")

    def media(self, query: str) -> bool:
        """Whether the CSS media ``query`` matches now. Its ``MediaQueryList`` is kept: it
        follows changes by itself, where asking ``matchMedia`` anew each time parses and
        evaluates the query again."""
        found = self._media.get(query)
        if found is None:
            found = self._media[query] = self.window.matchMedia(query)
        return bool(found.matches)

    def now_ms(self) -> float:
        return float(self.window.performance.now())

    def today(self) -> datetime.date:
        """The person's calendar date, from their own clock and time zone."""
        now = self.window.Date.new()
        return datetime.date(int(now.getFullYear()), int(now.getMonth()) + 1,
                             int(now.getDate()))

    def address(self) -> str:
        """The page's address without its query or fragment ("https://…/hearts/")."""
        location = self.window.location
        return f"{location.origin}{location.pathname}"

    def drop_query(self, name: str) -> None:
        """Take ``?name=…`` out of the address bar (read once: a reload doesn't redo it)."""
        location = self.window.location
        params = self.window.URLSearchParams.new(str(location.search))
        params.delete(name)
        rest = str(params.toString())
        self.window.history.replaceState(None, "", str(location.pathname)
                                         + (f"?{rest}" if rest else "") + str(location.hash))

    def share(self, text: str, field: Element | None = None) -> Awaitable[str]:
        """Offer ``text`` to the system's share sheet where the browser has one
        (``navigator.share``), else copy it (``copy``). The sheet is asked for at once, in
        the click that wants it (browsers open it only then); the result, awaited, is
        "shared", "cancelled" (the person closed the sheet), "copied" or "selected" (left
        to copy by hand)."""
        navigator = self.window.navigator
        sheet = None
        if getattr(navigator, "share", None) is not None:
            try:
                sheet = navigator.share(self._to_js({"text": text}))
            except Exception:  # (refused at once: copy instead)
                sheet = None
        return self._shared(sheet, text, field)

    async def _shared(self, sheet: Any, text: str, field: Element | None) -> str:
        if sheet is not None:
            try:
                await sheet
                return "shared"
            except Exception as error:  # (a JavaScript rejection)
                if "AbortError" in f"{getattr(error, 'name', '')} {error}":
                    return "cancelled"
                # refused otherwise (no sheet for text, not allowed here): copy instead
        return "copied" if await self.copy(text, field) else "selected"

    async def copy(self, text: str, field: Element | None = None) -> bool:
        """Put ``text`` on the clipboard; if the browser refuses, select it in ``field`` (a
        text input, opened if it sits in a closed ``<details>``) for copying by hand.
        Returns whether it was copied."""
        try:
            await self.window.navigator.clipboard.writeText(text)
            return True
        except Exception:
            pass
        if field is None:
            return False
        details: Element | None = self.el(field.closest("details"))
        if details is not None:
            details.open = True
        if str(field.value) != text:
            field.value = text
        field.focus()
        field.select()
        try:
            return bool(self.document.execCommand("copy"))
        except Exception:
            return False


def connect() -> Browser:
    """The running page's browser (only in the page: imports PyScript)."""
    from pyodide.ffi import create_proxy, jsnull, to_js  # type: ignore[import-not-found]
    from pyscript import document, window  # type: ignore[import-not-found]

    def js(value: Any) -> Any:
        return to_js(value, dict_converter=window.Object.fromEntries)

    return Browser(document, window, create_proxy, jsnull, js)
