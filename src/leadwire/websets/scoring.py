"""An item's score and band from its criteria's verdicts, and the stored form of a verdict: the one rule a
run and a refresh both apply."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from leadwire.providers.reasoner import Criterion, Verdict

FULL, PARTIAL = 80.0, 40.0
# A required criterion the evidence leaves open keeps an item below full; one it contradicts, below partial.
UNCLEAR_CAP, NO_CAP = 79.0, 39.0
PREFERENCE_SHARE = 0.25  # how far criteria that are not required can move an item's score


def score_of(criteria: Sequence[Criterion], verdicts: Sequence[Verdict]) -> tuple[str, float]:
    """Score 0-100 and its band. `full` means verified: every required criterion judged yes. A required
    criterion judged unclear caps the item at partial, one judged no at rejected.

    A verdict's score is how likely the criterion holds. Required criteria must all hold, so the item's
    chance is their product; the other criteria are preferences, their weighted mean moving the score
    down by at most a quarter. With no required criterion the weighted mean is the score.
    """
    by_id = {v.criterion_id: v for v in verdicts}
    active = [c for c in criteria if c.active and c.id in by_id]
    required = [c for c in active if c.required]
    preferred = [c for c in active if not c.required]
    weight = sum(c.weight for c in preferred)
    preference = sum(c.weight * by_id[c.id].score for c in preferred) / weight if weight > 0 else 1.0
    if required:
        score = (
            100.0 * math.prod(by_id[c.id].score for c in required) * (1 - PREFERENCE_SHARE * (1 - preference))
        )
    else:
        score = 100.0 * preference if preferred else 0.0
    judged = {by_id[c.id].judged for c in required}
    if "no" in judged:
        score = min(score, NO_CAP)
    elif "unclear" in judged:
        score = min(score, UNCLEAR_CAP)
    score = round(score, 1)
    return ("full" if score >= FULL else "partial" if score >= PARTIAL else "rejected"), score


def evaluation(v: Verdict) -> dict[str, Any]:
    return {
        "criterion_id": v.criterion_id,
        "verdict": v.judged,
        "score": round(v.score, 3),
        "reasoning": v.reasoning,
        "confidence": v.confidence,
        "references": list(v.references),
    }
