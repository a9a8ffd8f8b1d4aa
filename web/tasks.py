"""Background work of the page: coroutines kept alive until they end, failures reported.

``asyncio.ensure_future`` alone keeps only a weak reference to a task, and an exception in
one is lost in the console; every background job of the page (the computers' turn, making
an invite, copying to the clipboard) goes through ``Tasks.spawn`` instead.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any

__all__ = ["Tasks"]


class Tasks:
    """The jobs running in the background, and what to do when one fails."""

    def __init__(self, on_error: Callable[[BaseException], None] = lambda error: None) -> None:
        self.on_error = on_error
        self.running: set[asyncio.Future[None]] = set()

    def spawn(self, job: Coroutine[Any, Any, None], *,
              on_done: Callable[[], None] | None = None) -> None:
        """Run ``job``; ``on_done`` after it ends without an error (not if cancelled)."""
        task = asyncio.ensure_future(job)
        self.running.add(task)
        task.add_done_callback(lambda done: self._ended(done, on_done))

    def _ended(self, task: asyncio.Future[None], on_done: Callable[[], None] | None) -> None:
        self.running.discard(task)
        if task.cancelled():
            return
        error = task.exception()
        if error is not None:
            self.on_error(error)
        elif on_done is not None:
            on_done()

    def __bool__(self) -> bool:
        return bool(self.running)
