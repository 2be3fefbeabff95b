"""The OpenAI-compatible reasoner's enrichment step against Chat Completions answers in the shape the
API documents: the schema sent, the cells read back (references kept only when they are the
prospect's own pages), and every answer off the schema failing — for the fallback to answer."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest
import respx

from leadwire.providers.openai_reasoner import OpenAIReasoner
from leadwire.providers.reasoner import Cell, EnrichmentAsk, FallbackReasoner, ReasonerError
from leadwire.providers.rules_reasoner import RulesReasoner
from tests.providers.test_openai_reasoner import BASE, KEY, MODEL, URL, completion, prospect, sent_body

SECTOR = EnrichmentAsk("Which sector is the company in?", "options", ("Robotics", "Banking"))
EMPLOYEES = EnrichmentAsk("Number of employees", "number")


@pytest.fixture
async def reasoner() -> AsyncIterator[OpenAIReasoner]:
    model = OpenAIReasoner(BASE, KEY, MODEL, timeout_seconds=5, max_prospects_per_call=2)
    yield model
    await model.close()


def cell(index: int, result: list[str] | None, refs: list[str] | None = None) -> dict[str, object]:
    return {"index": index, "result": result, "reasoning": f"r{index}", "references": refs or []}


@respx.mock
async def test_options_cells_are_read_in_order_with_only_the_prospects_own_references(
    reasoner: OpenAIReasoner,
) -> None:
    route = respx.post(URL).mock(
        side_effect=[
            httpx.Response(
                200,
                json=completion(
                    {
                        "prospects": [
                            cell(1, None),
                            cell(0, ["Robotics"], ["https://robot0.de/about/", "https://elsewhere.example"]),
                        ]
                    }
                ),
            ),
            httpx.Response(200, json=completion({"prospects": [cell(0, ["Banking"])]})),
        ]
    )
    cells = await reasoner.enrich(SECTOR, [prospect(0), prospect(1), prospect(2)])
    assert cells == [
        Cell(("Robotics",), "r0", ("https://robot0.de/about",)),
        Cell(None, "r1", ()),
        Cell(("Banking",), "r0", ()),
    ]
    body = sent_body(route, 0)
    schema = body["response_format"]["json_schema"]["schema"]
    value = schema["properties"]["prospects"]["items"]["properties"]["result"]["anyOf"][0]["items"]
    assert value == {"type": "string", "enum": ["Robotics", "Banking"]}
    assert "never guess" in body["messages"][0]["content"] and "'Robotics'" in body["messages"][0]["content"]


@pytest.mark.parametrize(
    ("ask", "result"),
    [
        (SECTOR, ["Insurance"]),  # a label not offered
        (EMPLOYEES, ["about 1,200"]),  # not digits
        (EnrichmentAsk("Founded", "date"), ["March 2001"]),  # not ISO
        (EnrichmentAsk("Careers page", "url"), ["robot0.de/careers"]),  # not absolute
    ],
)
@respx.mock
async def test_an_answer_off_the_format_fails_and_the_fallback_answers(
    reasoner: OpenAIReasoner, ask: EnrichmentAsk, result: list[str]
) -> None:
    respx.post(URL).mock(return_value=httpx.Response(200, json=completion({"prospects": [cell(0, result)]})))
    with pytest.raises(ReasonerError):
        await reasoner.enrich(ask, [prospect(0)])
    wrapped = FallbackReasoner(reasoner, RulesReasoner())
    (answered,) = await wrapped.enrich(ask, [prospect(0)])
    assert wrapped.fallbacks == {"enrich": 1}
    assert answered.result is None or ask.format != "options" or set(answered.result) <= set(ask.options)


@respx.mock
async def test_a_missing_prospect_fails_the_answer(reasoner: OpenAIReasoner) -> None:
    respx.post(URL).mock(return_value=httpx.Response(200, json=completion({"prospects": [cell(0, ["12"])]})))
    with pytest.raises(ReasonerError):
        await reasoner.enrich(EMPLOYEES, [prospect(0), prospect(1)])
