"""Which recent post is about a topic: cosine similarity of multilingual sentence embeddings.

The threshold was chosen with `bench/post_like_relevance.py` on the sandbox world (en and zh
(profile, topic) pairs): the highest value that keeps at least 90 % of posted-about topics picked
correctly in both languages. Similarities of this model between a short topic and a whole post are
low in absolute terms (a matching post scores ~0.1-0.5), so the threshold is low and skips only
clearly unrelated content (at 0.03: en accuracy 0.902, zh 0.958 on the small world, seed 7).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

import numpy as np

from leadwire.search.embed import encode

THRESHOLD = 0.03

P = TypeVar("P")


@dataclass(frozen=True)
class Scored(Generic[P]):
    item: P
    score: float


def similarities(topic: str, texts: Sequence[str]) -> list[float]:
    """Cosine similarity of each text to the topic (the vectors are L2-normalised)."""
    if not texts:
        return []
    vectors = encode([topic, *texts])
    return [float(s) for s in vectors[1:] @ vectors[0]]


def ranked(
    topic: str, items: Sequence[P], texts: Sequence[str], threshold: float | None = None
) -> list[Scored[P]]:
    """The items whose text reaches the threshold, most relevant first (ties: the earlier, i.e. newer)."""
    floor = THRESHOLD if threshold is None else threshold  # read at call time: tests may raise it
    scores = similarities(topic, texts)
    order: list[int] = np.argsort(-np.asarray(scores, dtype=np.float64), kind="stable").tolist()
    return [Scored(items[i], scores[i]) for i in order if scores[i] >= floor]
