"""The everyday industry lexicon holds words people type, not labels copied from the development split:
a multi-word phrase that some dev row uses as its label, word for word, must come from a general
source (a NAICS title, a GICS name) or be one of the reviewed everyday phrases."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"
sys.path.insert(0, str(BENCH))

from _real import EVERYDAY_PHRASES, verbatim_labels  # noqa: E402

# The dev split's industry labels (../shared/data/real-companies-dev.jsonl), one a line.
LABELS = Path(__file__).with_name("data") / "dev_industry_labels.txt"


def dev_rows() -> list[dict[str, object]]:
    labels = [line for line in LABELS.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [{"industries": labels}]


def test_no_lexicon_phrase_is_copied_from_a_dev_label() -> None:
    copied = {phrase for phrase, _ in verbatim_labels(dev_rows())}
    assert copied <= EVERYDAY_PHRASES, sorted(copied - EVERYDAY_PHRASES)


def test_the_check_finds_a_copied_label(monkeypatch: pytest.MonkeyPatch) -> None:
    """The check is not vacuous: a dev label added to the lexicon word for word is found."""
    from leadwire.search.understand import industry

    phrases = [*industry.everyday_phrases(), "Consumer Non-Cyclicals", "Railway/bus"]
    monkeypatch.setattr(industry, "everyday_phrases", lambda: phrases)
    copied = {phrase for phrase, _ in verbatim_labels(dev_rows())}
    assert {"Consumer Non-Cyclicals", "Railway/bus"} <= copied
