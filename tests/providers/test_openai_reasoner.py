"""OpenAI-compatible reasoner against answers of the documented Chat Completions shape (respx, no network)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Sequence
from typing import Any

import httpx
import pytest
import respx

from leadwire.providers.openai_reasoner import OpenAIReasoner
from leadwire.providers.reasoner import (
    Criterion,
    CriterionDraft,
    Evidence,
    FallbackReasoner,
    PlannedQuery,
    Prospect,
    QueryGroup,
    Reasoner,
    ReasonerError,
    StrategyPlan,
    TargetKind,
    Verdict,
    judged_from_score,
)

BASE = "https://llm.test/v1"
URL = f"{BASE}/chat/completions"
KEY = "sk-test-secret-0123456789abcdef"
MODEL = "gpt-4o-mini"

CRITERIA = [
    Criterion(id="c1", description="Headquartered in Germany", type="location", weight=0.6, required=True),
    Criterion(id="c2", description="Makes industrial robots", type="product", weight=0.4, required=False),
    Criterion(
        id="c3", description="Founded before 2000", type="founding", weight=0.0, required=False, active=False
    ),
]


def completion(answer: Any, *, finish_reason: str = "stop", refusal: str | None = None) -> dict[str, Any]:
    content = answer if isinstance(answer, str) or answer is None else json.dumps(answer)
    return {
        "id": "chatcmpl-B9MHDbslfkBeAs8l4bebGdFOJ6PeG",
        "object": "chat.completion",
        "created": 1741570283,
        "model": "gpt-4o-mini-2024-07-18",
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": content, "refusal": refusal, "annotations": []},
                "logprobs": None,
                "finish_reason": finish_reason,
            }
        ],
        "usage": {"prompt_tokens": 1117, "completion_tokens": 46, "total_tokens": 1163},
        "service_tier": "default",
        "system_fingerprint": "fp_fc9f1d7035",
    }


def prospect(n: int) -> Prospect:
    return Prospect(
        key=f"robot{n}.de",
        kind="company",
        name=f"Robot {n} GmbH",
        website=f"https://robot{n}.de",
        country="DE",
        evidence=(
            Evidence(url=f"https://news.example/robot{n}", title=f"Robot {n} news", text="x" * 4000),
            Evidence(url=f"https://robot{n}.de/about", title="About", text="Industrial robots from Munich."),
        ),
    )


def verdict(cid: str, score: float = 0.9, refs: list[str] | None = None, **extra: Any) -> dict[str, Any]:
    item = {
        "criterion_id": cid,
        "verdict": judged_from_score(score) if isinstance(score, int | float) else "unclear",
        "score": score,
        "reasoning": f"r-{cid}",
        "confidence": 0.8,
        "references": refs or [],
    }
    item.update(extra)
    return item


def verify_answer(count: int, offset: int = 0) -> dict[str, Any]:
    """Every prospect index, with scores that encode its position in the whole list."""
    return {
        "prospects": [
            {"index": i, "verdicts": [verdict("c2", (offset + i) / 100), verdict("c1", 0.5)]}
            for i in range(count)
        ]
    }


@pytest.fixture
async def reasoner() -> AsyncIterator[OpenAIReasoner]:
    model = OpenAIReasoner(BASE, KEY, MODEL, timeout_seconds=5)
    yield model
    await model.close()


def sent_body(route: respx.Route, n: int = -1) -> dict[str, Any]:
    return json.loads(route.calls[n].request.content)


def test_it_implements_the_port(reasoner: OpenAIReasoner) -> None:
    assert isinstance(reasoner, Reasoner)
    assert reasoner.name == "openai"


@respx.mock
async def test_write_criteria_sends_a_strict_schema_and_normalises_weights(reasoner: OpenAIReasoner) -> None:
    answer = {
        "criteria": [
            {"description": "Headquartered in Germany", "type": "location", "weight": 3, "required": True},
            {"description": "Makes industrial robots", "type": "product", "weight": 1, "required": False},
            {"description": "Cares about quality", "type": "vibes", "weight": 0, "required": False},
            {"description": "  ", "type": "size", "weight": 5, "required": False},
        ]
    }
    route = respx.post(URL).mock(return_value=httpx.Response(200, json=completion(answer)))

    drafts = await reasoner.write_criteria("German robot makers", "company", "zh-CN")

    assert drafts == [
        CriterionDraft("Headquartered in Germany", "location", 0.75, True),
        CriterionDraft("Makes industrial robots", "product", 0.25, False),
        CriterionDraft("Cares about quality", "business_fit", 0.0, False),
    ]
    request = route.calls.last.request
    assert request.headers["authorization"] == f"Bearer {KEY}"
    body = sent_body(route)
    assert body["model"] == MODEL and body["temperature"] == 0
    assert body["messages"][1] == {"role": "user", "content": "German robot makers"}
    assert "Simplified Chinese" in body["messages"][0]["content"]
    fmt = body["response_format"]
    assert fmt["type"] == "json_schema"
    assert fmt["json_schema"]["name"] == "criteria" and fmt["json_schema"]["strict"] is True
    item = fmt["json_schema"]["schema"]["properties"]["criteria"]["items"]
    assert item["required"] == ["description", "type", "weight", "required"]
    assert item["additionalProperties"] is False
    assert "business_fit" in item["properties"]["type"]["enum"]


@respx.mock
async def test_write_criteria_with_no_usable_criterion_fails(reasoner: OpenAIReasoner) -> None:
    respx.post(URL).mock(return_value=httpx.Response(200, json=completion({"criteria": []})))
    with pytest.raises(ReasonerError, match="no criteria"):
        await reasoner.write_criteria("x", "company", "en")


@respx.mock
async def test_plan_strategy_cleans_locations_and_caps_lengths(reasoner: OpenAIReasoner) -> None:
    groups = [
        {
            "angle": f"angle {g}",
            "rationale": "why",
            "queries": [{"text": f"q{g}-{i}", "user_location": "de"} for i in range(7)],
        }
        for g in range(8)
    ]
    groups[0]["queries"][0] = {"text": "long " + "y" * 600, "user_location": "Germany"}
    groups[0]["queries"][1] = {"text": "uk query", "user_location": " uk "}
    groups[0]["queries"][2] = {"text": "   ", "user_location": "US"}
    answer = {"query_groups": groups, "additional_queries": [{"text": "extra", "user_location": "zz"}]}
    route = respx.post(URL).mock(return_value=httpx.Response(200, json=completion(answer)))

    plan = await reasoner.plan_strategy("German robot makers", "company", "en", CRITERIA)

    assert len(plan.query_groups) == 6
    assert all(len(g.queries) == 5 for g in plan.query_groups)
    first = plan.query_groups[0].queries
    assert len(first[0].text) == 500 and first[0].user_location == ""
    assert first[1] == PlannedQuery("uk query", "GB")
    assert first[2] == PlannedQuery("q0-3", "DE")
    assert plan.additional_queries == (PlannedQuery("extra", ""),)
    assert plan.query_groups[5].angle == "angle 5"
    body = sent_body(route)
    assert body["response_format"]["json_schema"]["name"] == "strategy"
    schema = body["response_format"]["json_schema"]["schema"]
    assert schema["required"] == ["query_groups", "additional_queries"]
    assert schema["additionalProperties"] is False
    query_schema = schema["properties"]["additional_queries"]["items"]
    assert query_schema["required"] == ["text", "user_location"]
    user = body["messages"][1]["content"]
    assert "Headquartered in Germany" in user and "Founded before 2000" not in user


@respx.mock
async def test_a_verdict_the_model_left_out_is_read_from_its_score(reasoner: OpenAIReasoner) -> None:
    """A compatible server that does not hold to the schema may drop the field; one outside the three
    answers is a mismatch (the offline reasoner then answers)."""
    item = verdict("c1", 0.5)
    del item["verdict"]
    answer = {"prospects": [{"index": 0, "verdicts": [item, verdict("c2", 0.9)]}]}
    respx.post(URL).mock(return_value=httpx.Response(200, json=completion(answer)))
    [verdicts] = await reasoner.verify("German robot makers", CRITERIA, [prospect(0)])
    assert [v.judged for v in verdicts] == ["unclear", "yes"]
    answer = {"prospects": [{"index": 0, "verdicts": [verdict("c1", verdict="maybe"), verdict("c2")]}]}
    respx.post(URL).mock(return_value=httpx.Response(200, json=completion(answer)))
    with pytest.raises(ReasonerError, match="yes, no or unclear"):
        await reasoner.verify("German robot makers", CRITERIA, [prospect(0)])


@respx.mock
async def test_verify_keeps_criteria_order_and_only_the_prospects_own_urls(reasoner: OpenAIReasoner) -> None:
    refs = [
        "https://robot0.de/about/",
        "https://evil.example/",
        "HTTPS://www.robot0.de",
        "https://robot1.de/about",
    ]
    answer = {"prospects": [{"index": 0, "verdicts": [verdict("c2", 0.2), verdict("c1", 1, refs)]}]}
    route = respx.post(URL).mock(return_value=httpx.Response(200, json=completion(answer)))

    [verdicts] = await reasoner.verify("German robot makers", CRITERIA, [prospect(0)])

    assert verdicts == [
        Verdict("c1", 1.0, "r-c1", 0.8, ("https://robot0.de/about", "https://robot0.de"), "yes"),
        Verdict("c2", 0.2, "r-c2", 0.8, (), "no"),
    ]
    body = sent_body(route)
    assert body["model"] == MODEL
    schema = body["response_format"]["json_schema"]["schema"]
    verdict_schema = schema["properties"]["prospects"]["items"]["properties"]["verdicts"]["items"]
    assert verdict_schema["properties"]["criterion_id"]["enum"] == ["c1", "c2"]
    assert verdict_schema["required"] == [
        "criterion_id",
        "verdict",
        "score",
        "reasoning",
        "confidence",
        "references",
    ]
    assert verdict_schema["properties"]["verdict"]["enum"] == ["yes", "no", "unclear"]
    sent = json.loads(body["messages"][1]["content"])
    assert [c["id"] for c in sent["criteria"]] == ["c1", "c2"]
    evidence = sent["prospects"][0]["evidence"]
    assert evidence[0]["url"] == "https://news.example/robot0" and len(evidence[0]["text"]) == 1500
    assert sent["prospects"][0]["country"] == "DE"


@respx.mock
async def test_verify_batches_requests_and_keeps_order(reasoner: OpenAIReasoner) -> None:
    calls: list[int] = []

    def reply(request: httpx.Request) -> httpx.Response:
        sent = json.loads(json.loads(request.content)["messages"][1]["content"])["prospects"]
        offset = int(sent[0]["name"].split()[1])
        calls.append(len(sent))
        return httpx.Response(200, json=completion(verify_answer(len(sent), offset)))

    respx.post(URL).mock(side_effect=reply)
    prospects = [prospect(n) for n in range(25)]

    verdicts = await reasoner.verify("robots", CRITERIA, prospects)

    assert sorted(calls) == [5, 10, 10]
    assert len(verdicts) == 25
    assert [v[1].score for v in verdicts] == [n / 100 for n in range(25)]
    assert all([x.criterion_id for x in v] == ["c1", "c2"] for v in verdicts)


@respx.mock
async def test_verify_without_active_criteria_calls_nothing(reasoner: OpenAIReasoner) -> None:
    route = respx.post(URL)
    assert await reasoner.verify("x", [CRITERIA[2]], [prospect(0), prospect(1)]) == [[], []]
    assert not route.called


@pytest.mark.parametrize(
    ("answer", "match"),
    [
        (
            {"prospects": [{"index": 0, "verdicts": [verdict("c1")]}]},
            "no verdict for prospect 0 on criteria c2",
        ),
        ({"prospects": []}, "no verdict for prospect 0"),
        ({"prospects": [{"index": 0, "verdicts": [verdict("c1", 1.4), verdict("c2")]}]}, "outside 0..1"),
        ({"prospects": [{"index": 0, "verdicts": [verdict("c1", confidence=-1), verdict("c2")]}]}, "outside"),
        ({"prospects": [{"index": 0, "verdicts": [verdict("c1", "high"), verdict("c2")]}]}, "score is not"),
        ({"verdicts": []}, "prospects is not a list"),
    ],
)
@respx.mock
async def test_verify_answers_off_the_schema_fail(reasoner: OpenAIReasoner, answer: Any, match: str) -> None:
    respx.post(URL).mock(return_value=httpx.Response(200, json=completion(answer)))
    with pytest.raises(ReasonerError, match=match):
        await reasoner.verify("x", CRITERIA, [prospect(0)])


@pytest.mark.parametrize(
    ("reply", "match"),
    [
        (completion(None, refusal="I'm sorry, I cannot help with that."), "model refused: I'm sorry"),
        (completion('{"criteria": [', finish_reason="length"), r"cut short \(finish_reason=length\)"),
        (completion("Sure! Here are the criteria: ..."), "not JSON"),
        (completion("[1, 2]"), "not a JSON object"),
        (completion({"criteria": "none"}), "criteria is not a list"),
        (completion({"criteria": [{"description": "x", "type": "size", "required": True}]}), "weight"),
        ({"object": "chat.completion", "choices": []}, "not a chat completion"),
    ],
)
@respx.mock
async def test_unusable_answers_are_reasoner_errors(
    reasoner: OpenAIReasoner, reply: dict[str, Any], match: str
) -> None:
    respx.post(URL).mock(return_value=httpx.Response(200, json=reply))
    with pytest.raises(ReasonerError, match=match):
        await reasoner.write_criteria("x", "company", "en")


@pytest.mark.parametrize(
    ("status", "match"),
    [(401, "rejected the API key"), (429, "rate-limited"), (500, "unavailable"), (503, "unavailable")],
)
@respx.mock
async def test_http_errors_are_reasoner_errors_without_the_key(
    reasoner: OpenAIReasoner, status: int, match: str
) -> None:
    error = {"message": f"Incorrect API key provided: {KEY}.", "type": "invalid_request_error", "code": "x"}
    respx.post(URL).mock(return_value=httpx.Response(status, json={"error": error}))
    with pytest.raises(ReasonerError, match=match) as caught:
        await reasoner.plan_strategy("x", "company", "en", CRITERIA)
    assert f"HTTP {status}" in str(caught.value)
    assert KEY not in str(caught.value) and "0123456789" not in str(caught.value)


@pytest.mark.parametrize(
    ("error", "match"),
    [(httpx.ReadTimeout("slow"), "timed out"), (httpx.ConnectError("refused"), "unreachable")],
)
@respx.mock
async def test_transport_failures_are_reasoner_errors(
    reasoner: OpenAIReasoner, error: Exception, match: str
) -> None:
    respx.post(URL).mock(side_effect=error)
    with pytest.raises(ReasonerError, match=match):
        await reasoner.verify("x", CRITERIA, [prospect(0)])


async def test_a_custom_transport_and_no_key_send_no_authorization() -> None:
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(200, json=completion({"criteria": [verdict_free_criterion()]}))

    model = OpenAIReasoner(
        "http://127.0.0.1:11434/v1/", None, "llama3", transport=httpx.MockTransport(handler)
    )
    try:
        drafts = await model.write_criteria("x", "person", "en")
    finally:
        await model.close()
    assert drafts == [CriterionDraft("Works in sales", "department", 1.0, False)]
    assert str(seen[0].url) == "http://127.0.0.1:11434/v1/chat/completions"
    assert "authorization" not in seen[0].headers


def verdict_free_criterion() -> dict[str, Any]:
    return {"description": "Works in sales", "type": "department", "weight": 0, "required": False}


class StubReasoner:
    name = "stub"

    async def write_criteria(self, query: str, target_kind: TargetKind, locale: str) -> list[CriterionDraft]:
        return [CriterionDraft("stub criterion", "business_fit", 1.0, False)]

    async def plan_strategy(
        self, query: str, target_kind: TargetKind, locale: str, criteria: Sequence[Criterion]
    ) -> StrategyPlan:
        return StrategyPlan((QueryGroup("stub", "stub", (PlannedQuery("stub query"),)),))

    async def verify(
        self, query: str, criteria: Sequence[Criterion], prospects: Sequence[Prospect]
    ) -> list[list[Verdict]]:
        return [[Verdict(c.id, 0.1, "stub", 0.1) for c in criteria if c.active] for _ in prospects]


@respx.mock
async def test_fallback_answers_failed_steps_and_counts_them(reasoner: OpenAIReasoner) -> None:
    respx.post(URL).mock(
        side_effect=[
            httpx.Response(500, json={"error": {"message": "boom", "type": "server_error", "code": None}}),
            httpx.Response(200, json=completion(None, refusal="no")),
            httpx.Response(200, json=completion({"prospects": [{"index": 0, "verdicts": [verdict("c1")]}]})),
            httpx.Response(200, json=completion(verify_answer(1))),
        ]
    )
    wrapped = FallbackReasoner(reasoner, StubReasoner())

    assert await wrapped.write_criteria("x", "company", "en") == [
        CriterionDraft("stub criterion", "business_fit", 1.0, False)
    ]
    plan = await wrapped.plan_strategy("x", "company", "en", CRITERIA)
    assert plan.all_queries() == [PlannedQuery("stub query")]
    [fallen] = await wrapped.verify("x", CRITERIA, [prospect(0)])
    assert [(v.criterion_id, v.reasoning) for v in fallen] == [("c1", "stub"), ("c2", "stub")]
    [answered] = await wrapped.verify("x", CRITERIA, [prospect(0)])
    assert [(v.criterion_id, v.score) for v in answered] == [("c1", 0.5), ("c2", 0.0)]
    assert wrapped.fallbacks == {"criteria": 1, "strategy": 1, "verify": 1}
    assert wrapped.name == "openai"
