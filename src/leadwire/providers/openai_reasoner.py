"""OpenAI-compatible adapter of the reasoner port: a client of ``POST {base_url}/chat/completions``.

Each step asks the model for an answer under a strict JSON Schema (OpenAI structured outputs), then
checks and cleans it here, since compatible servers may not enforce the schema. Every failure (HTTP,
timeout, refusal, truncation, malformed or off-schema answer) is a ``ReasonerError`` whose message
never carries the API key.
"""

from __future__ import annotations

import asyncio
import json
import math
import re
from collections.abc import Callable, Coroutine, Sequence
from typing import Any, Final, TypeVar

import httpx
import pycountry

from leadwire.providers import openai_enrich
from leadwire.providers.reasoner import (
    CRITERION_TYPES,
    JUDGEMENTS,
    Cell,
    Criterion,
    CriterionDraft,
    EnrichmentAsk,
    PlannedQuery,
    Prospect,
    QueryGroup,
    ReasonerError,
    StrategyPlan,
    TargetKind,
    Verdict,
)

T = TypeVar("T")
BatchAnswer = Callable[[Sequence[Prospect]], Coroutine[Any, Any, list[T]]]
MAX_CRITERIA: Final = 6
MAX_GROUPS: Final = 6
MAX_QUERIES_PER_GROUP: Final = 5
MAX_ADDITIONAL_QUERIES: Final = 10
MAX_QUERY_CHARS: Final = 500
MAX_EVIDENCE_PER_PROSPECT: Final = 8
EVIDENCE_TEXT_CHARS: Final = 1500
CONCURRENT_BATCHES: Final = 4
_LANGUAGES: Final = {"en": "English", "zh": "Simplified Chinese"}
_COUNTRY_ALIASES: Final = {"UK": "GB"}
_KEY_LIKE = re.compile(r"sk-[A-Za-z0-9_*\-]{4,}")
_FENCE = re.compile(r"^```(?:json)?\s*|\s*```$")
_FACTS: Final = ("website", "industry", "industry_code", "country", "city", "employees", "founded")
_PERSON_FACTS: Final = ("title", "company", "email", "linkedin_url")


def _object(props: dict[str, Any]) -> dict[str, Any]:
    """A strict-mode object: every property required, nothing else allowed."""
    return {"type": "object", "properties": props, "required": [*props], "additionalProperties": False}


def _array(items: dict[str, Any]) -> dict[str, Any]:
    return {"type": "array", "items": items}


def _enum(values: Sequence[Any]) -> dict[str, Any]:
    return {"type": "integer" if values and isinstance(values[0], int) else "string", "enum": list(values)}


_STRING: Final = {"type": "string"}
_NUMBER: Final = {"type": "number"}
_BOOL: Final = {"type": "boolean"}
_QUERY: Final = _object(
    {"text": _STRING, "user_location": {"type": "string", "description": "ISO alpha-2 or ''"}}
)
_CRITERION: Final = _object(
    {"description": _STRING, "type": _enum(CRITERION_TYPES), "weight": _NUMBER, "required": _BOOL}
)
_GROUP: Final = _object({"angle": _STRING, "rationale": _STRING, "queries": _array(_QUERY)})
CRITERIA_SCHEMA: Final = _object({"criteria": _array(_CRITERION)})
STRATEGY_SCHEMA: Final = _object({"query_groups": _array(_GROUP), "additional_queries": _array(_QUERY)})


def verdicts_schema(criterion_ids: Sequence[str], batch_size: int) -> dict[str, Any]:
    """The answer of one verify call: per prospect index, one verdict per criterion id."""
    verdict = _object(
        {
            "criterion_id": _enum(criterion_ids),
            "verdict": _enum(JUDGEMENTS),
            "score": {"type": "number", "description": "0..1, how likely the criterion holds"},
            "reasoning": _STRING,
            "confidence": {"type": "number", "description": "0..1"},
            "references": _array(_STRING),
        }
    )
    prospect = _object({"index": _enum(range(batch_size)), "verdicts": _array(verdict)})
    return _object({"prospects": _array(prospect)})


class OpenAIReasoner:
    """A ``Reasoner`` backed by any OpenAI-compatible chat endpoint; safe to share between jobs."""

    name = "openai"

    def __init__(
        self,
        base_url: str,
        api_key: str | None,
        model: str,
        *,
        timeout_seconds: float = 60.0,
        transport: httpx.AsyncBaseTransport | None = None,
        max_prospects_per_call: int = 10,
    ) -> None:
        self._url = base_url.rstrip("/") + "/chat/completions"
        self._api_key = api_key
        self._model = model
        self._batch = max(1, max_prospects_per_call)
        self._client = httpx.AsyncClient(timeout=timeout_seconds, transport=transport)

    async def close(self) -> None:
        await self._client.aclose()

    async def write_criteria(self, query: str, target_kind: TargetKind, locale: str) -> list[CriterionDraft]:
        system = (
            f"You write the criteria a B2B prospect list of {target_kind} records is filtered by. "
            "Write 2 to 6 criteria for the request. Each description is one self-contained statement a "
            "reader can judge without seeing the request (e.g. 'Headquartered in Germany'), written in "
            f"{_language(locale)}. type is the closest of: {', '.join(CRITERION_TYPES)}. weight is the "
            "criterion's relative importance (positive). required is true only when a prospect failing "
            "it must be excluded."
        )
        answer = await self._complete("criteria", CRITERIA_SCHEMA, system, query)
        drafts = [d for d in map(_draft, _items(answer, "criteria")[:MAX_CRITERIA]) if d is not None]
        if not drafts:
            raise ReasonerError("the model wrote no criteria")
        return _normalised(drafts)

    async def plan_strategy(
        self, query: str, target_kind: TargetKind, locale: str, criteria: Sequence[Criterion]
    ) -> StrategyPlan:
        wanted = "\n".join(f"- {c.description}" for c in criteria if c.active)
        system = (
            f"You plan web searches that find {target_kind} prospects for a B2B request. Group the "
            f"searches by angle (at most {MAX_GROUPS} groups of at most {MAX_QUERIES_PER_GROUP} "
            "queries), each with a one-sentence rationale. Queries are natural-language web searches in "
            f"the language that best finds the prospects ({_language(locale)} by default). user_location "
            "is the ISO 3166-1 alpha-2 code of the country to search from, or '' for none."
        )
        user = f"Request: {query}\nCriteria:\n{wanted or '- (none)'}"
        answer = await self._complete("strategy", STRATEGY_SCHEMA, system, user)
        groups = [g for g in map(_group, _items(answer, "query_groups")[:MAX_GROUPS]) if g.queries]
        extra = _queries(_items(answer, "additional_queries"))[:MAX_ADDITIONAL_QUERIES]
        plan = StrategyPlan(query_groups=tuple(groups), additional_queries=tuple(extra))
        if not plan.all_queries():
            raise ReasonerError("the model planned no queries")
        return plan

    async def verify(
        self, query: str, criteria: Sequence[Criterion], prospects: Sequence[Prospect]
    ) -> list[list[Verdict]]:
        active = [c for c in criteria if c.active]
        if not active or not prospects:
            return [[] for _ in prospects]
        limit = asyncio.Semaphore(CONCURRENT_BATCHES)
        return await self._in_batches(
            prospects, lambda batch: self._verify_batch(query, active, batch, limit)
        )

    async def _in_batches(
        self,
        prospects: Sequence[Prospect],
        answer: Callable[[Sequence[Prospect]], Coroutine[Any, Any, list[T]]],
    ) -> list[T]:
        """`answer` for each batch of prospects, concurrently; one failed batch cancels the others."""
        batches = [prospects[i : i + self._batch] for i in range(0, len(prospects), self._batch)]
        tasks = [asyncio.create_task(answer(b)) for b in batches]
        try:
            answers = await asyncio.gather(*tasks)
        except BaseException:
            for task in tasks:
                task.cancel()
            raise
        return [one for batch in answers for one in batch]

    async def _verify_batch(
        self, query: str, active: list[Criterion], batch: Sequence[Prospect], limit: asyncio.Semaphore
    ) -> list[list[Verdict]]:
        system = (
            "You judge B2B prospects against criteria, only from the facts and evidence given. For every "
            "prospect index and every criterion id give: verdict 'yes' only when a specific fact shows the "
            "criterion holds (an industry code or a label that names the industry asked for, a page saying "
            "what the company makes or sells), 'no' when the facts show it does not, 'unclear' when the "
            "evidence is weak or missing (a broad sector label such as 'Industrials' gathering many "
            "industries, a label broader than the one asked for, a word that may name the company's "
            "customers); score 0..1, how likely the criterion holds; one-sentence reasoning naming the "
            "evidence and its strength; confidence 0..1; and references: the URLs of that prospect's "
            "evidence or website the judgement rests on (empty when none)."
        )
        user = json.dumps(
            {
                "request": query,
                "criteria": [{"id": c.id, "description": c.description, "type": c.type} for c in active],
                "prospects": [_prospect_facts(i, p) for i, p in enumerate(batch)],
            },
            ensure_ascii=False,
        )
        schema = verdicts_schema([c.id for c in active], len(batch))
        async with limit:
            answer = await self._complete("verdicts", schema, system, user)
        return _batch_verdicts(answer, active, batch)

    async def enrich(self, ask: EnrichmentAsk, prospects: Sequence[Prospect]) -> list[Cell]:
        if not prospects:
            return []
        limit = asyncio.Semaphore(CONCURRENT_BATCHES)

        async def one(batch: Sequence[Prospect]) -> list[Cell]:
            user = json.dumps(
                {"prospects": [_prospect_facts(i, p) for i, p in enumerate(batch)]}, ensure_ascii=False
            )
            schema = openai_enrich.cells_schema(ask, len(batch))
            async with limit:
                answer = await self._complete("cells", schema, openai_enrich.system_prompt(ask), user)
            return openai_enrich.batch_cells(answer, ask, batch, citable_urls, _url_key)

        return await self._in_batches(prospects, one)

    async def _complete(self, name: str, schema: dict[str, Any], system: str, user: str) -> dict[str, Any]:
        """One chat completion under ``schema``; the parsed JSON object the model answered."""
        body = {
            "model": self._model,
            "messages": [{"role": "system", "content": system}, {"role": "user", "content": user}],
            "temperature": 0,
            "response_format": {
                "type": "json_schema",
                "json_schema": {"name": name, "strict": True, "schema": schema},
            },
        }
        response = await self._post(body)
        if response.status_code != 200:
            raise ReasonerError(self._status_error(response))
        return _answer(response)

    async def _post(self, body: dict[str, Any]) -> httpx.Response:
        headers = {"content-type": "application/json"}
        if self._api_key:
            headers["authorization"] = f"Bearer {self._api_key}"
        try:
            return await self._client.post(self._url, json=body, headers=headers)
        except httpx.TimeoutException as exc:
            raise ReasonerError(f"model timed out ({type(exc).__name__})") from None
        except (httpx.HTTPError, httpx.InvalidURL, ValueError) as exc:
            raise ReasonerError(f"model unreachable ({type(exc).__name__})") from None

    def _status_error(self, response: httpx.Response) -> str:
        status = response.status_code
        what = {401: "rejected the API key", 403: "forbade the call", 429: "rate-limited the call"}
        reason = what.get(status, "is unavailable" if status >= 500 else "refused the request")
        return self._scrub(f"model {reason} (HTTP {status}{_error_detail(response)})")

    def _scrub(self, text: str) -> str:
        if self._api_key:
            text = text.replace(self._api_key, "***")
        return _KEY_LIKE.sub("sk-***", text)


def _answer(response: httpx.Response) -> dict[str, Any]:
    """The JSON object in ``choices[0].message.content``, or why there is none."""
    try:
        payload = response.json()
        choice = payload["choices"][0]
        message = choice["message"]
    except (ValueError, KeyError, IndexError, TypeError):
        raise ReasonerError("response is not a chat completion") from None
    if not isinstance(message, dict):
        raise ReasonerError("response is not a chat completion")
    if message.get("refusal"):
        raise ReasonerError(f"model refused: {str(message['refusal'])[:200]}")
    if choice.get("finish_reason") in ("length", "content_filter"):
        raise ReasonerError(f"answer cut short (finish_reason={choice['finish_reason']})")
    content = message.get("content")
    if not isinstance(content, str):
        raise ReasonerError("answer has no text content")
    try:
        parsed = json.loads(_FENCE.sub("", content.strip()))
    except ValueError:
        raise ReasonerError("answer is not JSON") from None
    if not isinstance(parsed, dict):
        raise ReasonerError("answer is not a JSON object")
    return parsed


def _error_detail(response: httpx.Response) -> str:
    """OpenAI's error body is ``{"error": {"message", "type", "code"}}``; keep a short part of it."""
    try:
        error = response.json().get("error")
    except (ValueError, AttributeError):
        return ""
    if not isinstance(error, dict):
        return ""
    parts = [str(error[k])[:200] for k in ("code", "message") if isinstance(error.get(k), str)]
    return ": " + " ".join(parts) if parts else ""


def _language(locale: str) -> str:
    return _LANGUAGES.get(locale.split("-")[0].split("_")[0].lower(), "English")


def _mismatch(what: str) -> ReasonerError:
    return ReasonerError(f"answer does not match the schema: {what}")


def _items(obj: object, key: str) -> list[Any]:
    value = obj.get(key) if isinstance(obj, dict) else None
    if not isinstance(value, list):
        raise _mismatch(f"{key} is not a list")
    return value


def _text(obj: dict[str, Any], key: str) -> str:
    value = obj.get(key)
    if not isinstance(value, str):
        raise _mismatch(f"{key} is not a string")
    return value.strip()


def _number(obj: dict[str, Any], key: str) -> float:
    value = obj.get(key)
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise _mismatch(f"{key} is not a number")
    return float(value)


def _draft(item: object) -> CriterionDraft | None:
    if not isinstance(item, dict):
        raise _mismatch("a criterion is not an object")
    description = _text(item, "description")
    if not description:
        return None
    kind = item.get("type")
    return CriterionDraft(
        description=description,
        type=kind if kind in CRITERION_TYPES else "business_fit",
        weight=max(_number(item, "weight"), 0.0),
        required=item.get("required") is True,
    )


def _normalised(drafts: list[CriterionDraft]) -> list[CriterionDraft]:
    """Weights summing to 1; equal weights when the model gave none."""
    total = sum(d.weight for d in drafts)
    weights = [d.weight / total for d in drafts] if total > 0 else [1 / len(drafts)] * len(drafts)
    return [
        CriterionDraft(d.description, d.type, w, d.required) for d, w in zip(drafts, weights, strict=True)
    ]


def country_code(value: object) -> str:
    """An ISO 3166-1 alpha-2 code in upper case, or "" when ``value`` is none."""
    code = value.strip().upper() if isinstance(value, str) else ""
    code = _COUNTRY_ALIASES.get(code, code)
    if len(code) != 2 or not code.isalpha() or pycountry.countries.get(alpha_2=code) is None:
        return ""
    return code


def _queries(items: list[Any]) -> list[PlannedQuery]:
    queries = []
    for item in items:
        if not isinstance(item, dict):
            raise _mismatch("a query is not an object")
        text = " ".join(_text(item, "text").split())[:MAX_QUERY_CHARS].strip()
        if text:
            queries.append(PlannedQuery(text=text, user_location=country_code(item.get("user_location"))))
    return queries


def _group(item: object) -> QueryGroup:
    if not isinstance(item, dict):
        raise _mismatch("a query group is not an object")
    queries = _queries(_items(item, "queries"))[:MAX_QUERIES_PER_GROUP]
    return QueryGroup(angle=_text(item, "angle"), rationale=_text(item, "rationale"), queries=tuple(queries))


def _prospect_facts(index: int, prospect: Prospect) -> dict[str, Any]:
    """What the model sees of one prospect: its known facts and its evidence, text truncated."""
    names = _FACTS + (_PERSON_FACTS if prospect.kind == "person" else ())
    facts: dict[str, Any] = {"index": index, "kind": prospect.kind, "name": prospect.name}
    facts.update({n: getattr(prospect, n) for n in names if getattr(prospect, n) is not None})
    if prospect.description:
        facts["description"] = prospect.description[:EVIDENCE_TEXT_CHARS]
    facts.update(
        {n: list(getattr(prospect, n)) for n in ("technologies", "products") if getattr(prospect, n)}
    )
    facts["evidence"] = [
        {"url": e.url, "title": e.title, "text": e.text[:EVIDENCE_TEXT_CHARS]}
        for e in prospect.evidence[:MAX_EVIDENCE_PER_PROSPECT]
    ]
    return facts


def _url_key(url: str) -> str:
    """Compare URLs without scheme, ``www.``, case of the host part or a trailing slash."""
    bare = re.sub(r"^[a-z][a-z0-9+.-]*://", "", url.strip(), flags=re.IGNORECASE)
    host, _, rest = bare.partition("/")
    host = host.lower().removeprefix("www.")
    return f"{host}/{rest}".rstrip("/")


def citable_urls(prospect: Prospect) -> dict[str, str]:
    """The URLs a verdict on ``prospect`` may cite, by comparison key: its evidence and website."""
    urls = [e.url for e in prospect.evidence[:MAX_EVIDENCE_PER_PROSPECT]]
    if prospect.website:
        has_scheme = "://" in prospect.website
        urls.append(prospect.website if has_scheme else f"https://{prospect.website}")
    return {_url_key(u): u for u in reversed(urls) if u.strip()}


def _references(value: object, allowed: dict[str, str]) -> tuple[str, ...]:
    if not isinstance(value, list):
        raise _mismatch("references is not a list")
    kept = [allowed[_url_key(v)] for v in value if isinstance(v, str) and _url_key(v) in allowed]
    return tuple(dict.fromkeys(kept))


def _verdict(item: dict[str, Any], allowed: dict[str, str]) -> Verdict:
    score, confidence = _number(item, "score"), _number(item, "confidence")
    if not (0.0 <= score <= 1.0 and 0.0 <= confidence <= 1.0):
        raise _mismatch("score or confidence outside 0..1")
    judged = item.get("verdict")
    if judged is not None and judged not in JUDGEMENTS:
        raise _mismatch("verdict is not yes, no or unclear")
    return Verdict(
        criterion_id=_text(item, "criterion_id"),
        score=score,
        reasoning=_text(item, "reasoning")[:500],
        confidence=confidence,
        references=_references(item.get("references"), allowed),
        verdict=judged,  # a server that does not hold to the schema may leave it out: read from the score
    )


def _by_index(answer: dict[str, Any]) -> dict[int, list[Any]]:
    found: dict[int, list[Any]] = {}
    for entry in _items(answer, "prospects"):
        index = entry.get("index") if isinstance(entry, dict) else None
        if isinstance(index, int) and not isinstance(index, bool):
            found.setdefault(index, []).extend(_items(entry, "verdicts"))
    return found


def _batch_verdicts(
    answer: dict[str, Any], active: list[Criterion], batch: Sequence[Prospect]
) -> list[list[Verdict]]:
    """One verdict per active criterion, in criteria order, for each prospect of the batch in order."""
    found = _by_index(answer)
    result = []
    for index, prospect in enumerate(batch):
        allowed = citable_urls(prospect)
        verdicts: dict[str, Verdict] = {}
        for item in found.get(index, []):
            if not isinstance(item, dict):
                raise _mismatch("a verdict is not an object")
            verdict = _verdict(item, allowed)
            verdicts.setdefault(verdict.criterion_id, verdict)
        missing = [c.id for c in active if c.id not in verdicts]
        if missing:
            raise _mismatch(f"no verdict for prospect {index} on criteria {', '.join(missing)}")
        result.append([verdicts[c.id] for c in active])
    return result
