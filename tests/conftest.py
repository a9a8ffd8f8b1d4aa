"""Shared test settings.

Hypothesis runs derandomized and without per-example deadlines: CI machines are small and
busy, and a property test must fail because of the code, never because of the clock.

A fair table's slices measure work, not the machine's time: a table given no clock of its
own reads one that moves a millisecond each time it is read, so a slice takes the same
steps on any machine, however busy (``web.p2p.fair.table.SLICE_CLOCK``).
"""

from collections.abc import Iterator
from itertools import count

import pytest
from hypothesis import HealthCheck, settings

from web.p2p.fair import table

settings.register_profile("hearts", deadline=None, derandomize=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("hearts")


@pytest.fixture(autouse=True)
def slices_count_work(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every fair table made without a clock reads one that counts its readings."""
    readings = count()
    monkeypatch.setattr(table, "SLICE_CLOCK", lambda: next(readings) / 1000)
    yield
