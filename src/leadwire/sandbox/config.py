"""Size presets of the sandbox world and the seeded random streams every generator stage draws from."""

from __future__ import annotations

import random
import zlib
from dataclasses import dataclass

import numpy as np

SCHEMA_VERSION = "1"

# share of documents per category; the order is the generation order
DOCUMENT_MIX: tuple[tuple[str, float], ...] = (
    ("company", 0.36),
    ("news", 0.24),
    ("financial report", 0.10),
    ("people", 0.10),
    ("personal site", 0.20),
)


@dataclass(frozen=True)
class SizeConfig:
    """Row counts of one world size."""

    name: str
    companies: int
    people: int
    documents: int
    posts: int
    shipments: int
    max_people_per_company: int = 40

    def document_counts(self) -> dict[str, int]:
        """Documents per category, summing exactly to `documents`."""
        counts = {cat: int(self.documents * share) for cat, share in DOCUMENT_MIX}
        counts["company"] += self.documents - sum(counts.values())
        return counts


SIZES: dict[str, SizeConfig] = {
    "small": SizeConfig("small", companies=300, people=2_000, documents=1_500, posts=3_000, shipments=20_000),
    "default": SizeConfig(
        "default", companies=20_000, people=150_000, documents=100_000, posts=300_000, shipments=2_000_000
    ),
    "large": SizeConfig(
        "large", companies=20_000, people=150_000, documents=100_000, posts=300_000, shipments=20_000_000
    ),
}


def size_config(size: str) -> SizeConfig:
    """The preset called `size`; ValueError for an unknown name."""
    try:
        return SIZES[size]
    except KeyError:
        raise ValueError(f"unknown world size {size!r}; expected one of {', '.join(SIZES)}") from None


def _stream_seed(seed: int, stage: str) -> int:
    # crc32 rather than hash(): str hashes are salted per process
    return (seed & 0xFFFFFFFF) << 32 | zlib.crc32(stage.encode())


def stage_rng(seed: int, stage: str) -> np.random.Generator:
    """A numpy generator for one stage, independent of the other stages' draws."""
    return np.random.default_rng(_stream_seed(seed, stage))


def stage_random(seed: int, stage: str) -> random.Random:
    """A stdlib generator for one stage's per-row text choices (cheaper than numpy per call)."""
    return random.Random(_stream_seed(seed, stage))
