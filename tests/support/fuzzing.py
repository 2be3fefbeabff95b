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
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

FUZZ = os.environ.get("LEADWIRE_FUZZ") == "1"
SCALE = int(os.environ.get("LEADWIRE_FUZZ_SCALE", "10"))

# Every cursor-paged list: its `limit` is read as a number before the object the path names is looked up.
PAGED_LISTS = [
    "/api/v2/jobs",
    "/api/v2/webhooks",
    "/api/v2/webhooks/wh_x/deliveries",
    "/api/v2/keys",
    "/api/v2/websets",
    "/api/v2/websets/ws_x/items",
    "/api/v2/credits/ledger",
    "/api/v2/imports",
    "/api/v2/monitors",
    "/api/v2/monitors/mon_x/runs",
    "/api/v2/outreach/suppressions",
    "/api/v2/outreach/queue",
]

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


def _nest(depth: int, leaf: Any, in_lists: bool) -> Any:
    value = leaf
    for level in range(depth):
        value = [value] if in_lists and level % 2 else {"a": value}
    return value


# Text beyond ASCII (accents, CJK, emoji, a lone surrogate's neighbours, NUL): what a validator, a
# comparison or a byte-oriented walk may not expect.
hostile_text = st.text(
    alphabet=st.sampled_from(["\u0000", "é", "日", "本", "😀", "\ud7ff", "\ufeff", "a", ".", "%"])
    | st.characters(codec="utf-8"),
    max_size=12,
)
# JSON nested from a little to far past the body's depth limit (`platform/http/body.py: MAX_DEPTH`),
# around hostile text: a recursive walk of it once raised RecursionError, a 500.
deep_json = st.builds(_nest, st.integers(min_value=1, max_value=400), hostile_text, st.booleans())


# Text a parameter read as a number must refuse: digits beyond ASCII ("²", "١", "１", "𝟗": `str.isdigit()`
# takes them, `int()` refuses or misreads them) among ASCII digits, signs, spaces and underscores.
number_text = st.text(
    alphabet=st.sampled_from(["0", "1", "9", "²", "¹", "١", "٣", "１", "𝟗", "߁", "-", "+", " ", "_"])
    | st.characters(categories=("Nd", "No")),
    min_size=1,
    max_size=8,
)
_CRON_PARTS = [
    "*", "0", "1", "5", "9", "23", "29", "30", "31", "59", "60", "R", "r", "H", "L", "W", "15W", "1#5",
    "5L", "?", "mon", "feb", "sun-sat", "1-5", "*/2", "R/20", "R(0-30)", "R(1-31)", "0-59/7", "/", ",", "-",
    "#", "²", "١", "0/0", "99999999999999999999",
]  # fmt: skip
_cron_field = st.lists(st.sampled_from(_CRON_PARTS), min_size=1, max_size=3).map("".join)
# Cron expressions around the monitor's rules: five fields mostly, random (`R`) ones, days a month lacks
# ("31 2"), steps under an hour, syntax croniter rejects, and digits beyond ASCII.
cron_text = st.lists(_cron_field, min_size=4, max_size=6).map(" ".join) | st.sampled_from(
    ["0 0 31 2 *", "0 0 30 2 *", "R * * * *", "R/20 * * * *", "0,30 * 29 2 *", "0 0 R 2 *", "0 9 * * 1"]
)
time_zones = st.sampled_from(["UTC", "Europe/Berlin", "Asia/Kathmandu", "America", "Mars/Olympus", ""])
