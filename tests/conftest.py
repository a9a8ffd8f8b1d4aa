"""Shared test settings.

Hypothesis runs derandomized and without per-example deadlines: CI machines are small and
busy, and a property test must fail because of the code, never because of the clock.
"""

from hypothesis import HealthCheck, settings

settings.register_profile("hearts", deadline=None, derandomize=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("hearts")
