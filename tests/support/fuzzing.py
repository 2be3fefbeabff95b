"""How much the property tests explore: a fixed, derandomized amount under `make test` and CI, fresh
and longer under `make fuzz`.

`make test` must not go red by chance, so every Hypothesis test draws the same examples on every run
(the `ci` profile: derandomized, no example database). `make fuzz` sets `LEADWIRE_FUZZ=1`: the `fuzz`
profile draws new examples each run, keeps failures in `.hypothesis/` to replay them, and each test
runs `LEADWIRE_FUZZ_SCALE` (10) times its CI number of examples. A failure found there is pinned in
the test as an explicit `@example(...)`, so CI checks it from then on.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

FUZZ = os.environ.get("LEADWIRE_FUZZ") == "1"
SCALE = int(os.environ.get("LEADWIRE_FUZZ_SCALE", "10"))

settings.register_profile(
    "ci",
    derandomize=True,
    database=None,
    deadline=None,
    print_blob=True,
    suppress_health_check=list(HealthCheck),
)
settings.register_profile(
    "fuzz", derandomize=False, deadline=None, print_blob=True, suppress_health_check=list(HealthCheck)
)


def load_profile() -> None:
    settings.load_profile("fuzz" if FUZZ else "ci")


def examples(in_ci: int) -> int:
    """The number of examples a test draws: `in_ci` under CI, `SCALE` times that under `make fuzz`."""
    return in_ci * SCALE if FUZZ else in_ci
