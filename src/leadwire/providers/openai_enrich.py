"""The OpenAI-compatible reasoner's enrichment step: the prompt, the answer's schema, and the checks
that turn an answer into cells (`OpenAIReasoner.enrich`).

The model answers only from the facts and pages it is shown; an answer it cannot back is `null`. An
option outside the labels, a number that is not one, or a date that is not ISO fails the answer (the
fallback reasoner then answers the batch), and references are kept only when they are the prospect's
own pages or website.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any, Final

from leadwire.providers.reasoner import Cell, EnrichmentAsk, Prospect, ReasonerError

MAX_VALUES: Final = 5
_DATE = re.compile(r"^\d{4}(-\d{2}(-\d{2})?)?$")
_FORMAT_RULES: Final = {
    "text": "a short text answer (at most 300 characters)",
    "number": "a number written with digits only (a dot for decimals, no units or separators)",
    "date": "an ISO 8601 date (YYYY-MM-DD), or YYYY-MM or YYYY when only that is known",
    "options": "exactly one of the given option labels, written as given",
    "url": "an absolute URL taken from the prospect's pages or website",
}


def cells_schema(ask: EnrichmentAsk, batch_size: int) -> dict[str, Any]:
    value: dict[str, Any] = {"type": "string"}
    if ask.format == "options":
        value = {"type": "string", "enum": list(ask.options)}
    item = {
        "type": "object",
        "properties": {
            "index": {"type": "integer", "enum": list(range(batch_size))},
            "result": {"anyOf": [{"type": "array", "items": value}, {"type": "null"}]},
            "reasoning": {"type": "string"},
            "references": {"type": "array", "items": {"type": "string"}},
        },
        "required": ["index", "result", "reasoning", "references"],
        "additionalProperties": False,
    }
    return {
        "type": "object",
        "properties": {"prospects": {"type": "array", "items": item}},
        "required": ["prospects"],
        "additionalProperties": False,
    }


def system_prompt(ask: EnrichmentAsk) -> str:
    options = f" The labels: {', '.join(repr(o) for o in ask.options)}." if ask.format == "options" else ""
    return (
        "You fill one column of a B2B prospect list, for every prospect index, only from the facts and "
        f"evidence given. The column: {ask.description!r}. Each value is {_FORMAT_RULES[ask.format]}."
        f"{options} result is a list of values (usually one), or null when the facts and evidence do not "
        "give the answer: never guess or infer what is not written. reasoning is one sentence naming where "
        "the answer was found, or why none was; references are the URLs of that prospect's evidence or "
        "website the answer rests on (empty when none)."
    )


def batch_cells(
    answer: dict[str, Any],
    ask: EnrichmentAsk,
    batch: Sequence[Prospect],
    allowed_urls: Callable[[Prospect], dict[str, str]],
    url_key: Callable[[str], str],
) -> list[Cell]:
    """One cell per prospect of the batch, in order; a missing or malformed one fails the answer."""
    found: dict[int, dict[str, Any]] = {}
    for entry in answer.get("prospects") or []:
        if isinstance(entry, dict) and isinstance(entry.get("index"), int):
            found.setdefault(entry["index"], entry)
    cells = []
    for index, prospect in enumerate(batch):
        entry = found.get(index)
        if entry is None:
            raise ReasonerError(f"no cell for prospect {index}")
        allowed = allowed_urls(prospect)
        references = entry.get("references")
        if not isinstance(references, list):
            raise ReasonerError("references is not a list")
        kept = tuple(
            dict.fromkeys(
                allowed[url_key(r)] for r in references if isinstance(r, str) and url_key(r) in allowed
            )
        )
        reasoning = entry.get("reasoning")
        if not isinstance(reasoning, str):
            raise ReasonerError("reasoning is not text")
        cells.append(Cell(_values(entry.get("result"), ask), reasoning.strip()[:500], kept))
    return cells


def _values(result: object, ask: EnrichmentAsk) -> tuple[str, ...] | None:
    if result is None:
        return None
    if not isinstance(result, list) or not all(isinstance(v, str) for v in result):
        raise ReasonerError("result is not a list of text or null")
    values = tuple(dict.fromkeys(v.strip() for v in result if v.strip()))[:MAX_VALUES]
    if not values:
        return None
    for value in values:
        if ask.format == "options" and value not in ask.options:
            raise ReasonerError(f"{value!r} is not one of the labels")
        if ask.format == "number" and not re.fullmatch(r"-?\d+(\.\d+)?", value):
            raise ReasonerError(f"{value!r} is not a number")
        if ask.format == "date" and not _DATE.match(value):
            raise ReasonerError(f"{value!r} is not an ISO date")
        if ask.format == "url" and not re.match(r"^https?://", value):
            raise ReasonerError(f"{value!r} is not an absolute URL")
    if ask.format == "text":
        values = tuple(v[:300] for v in values)
    return values
