"""The offline reasoner: criteria written from what a request says (English and Chinese, companies and
people), a strategy of query groups, and verdicts from a prospect's record and pages."""

from __future__ import annotations

import pytest

from leadwire.providers.reasoner import Criterion, Evidence, Prospect
from leadwire.providers.rules_reasoner import RulesReasoner, plan_strategy, write_criteria


def kinds(query: str, target_kind: str = "company", locale: str = "en") -> dict[str, tuple[float, bool]]:
    drafts = write_criteria(query, target_kind, locale)  # type: ignore[arg-type]
    assert abs(sum(d.weight for d in drafts) - 1) < 0.01
    return {d.type: (d.weight, d.required) for d in drafts}


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("chipmakers", {"industry"}),
        ("chemical companies in Switzerland", {"location", "industry"}),
        ("瑞士的化工公司", {"location", "industry"}),
        ("software companies in Germany with more than 500 employees", {"location", "industry", "size"}),
    ],
)
def test_a_request_its_criteria_say_in_full_gets_no_fit_criterion(query: str, expected: set[str]) -> None:
    found = kinds(query)
    assert set(found) == expected
    assert all(required for _, required in found.values())


def test_words_beyond_the_criteria_get_a_fit_criterion_that_is_not_required() -> None:
    found = kinds("chipmakers working on automotive radar")
    assert found["industry"][1] is True
    assert "business_fit" in found and found["business_fit"][1] is False


def test_a_request_without_a_known_topic_is_judged_by_fit_alone_beside_its_place() -> None:
    found = kinds("companies in Kenya")
    assert set(found) == {"location", "business_fit"}
    assert found["business_fit"] == (pytest.approx(0.6, abs=0.01), True)


def test_people_requests_get_a_role_criterion_and_their_role_words_are_not_left_over() -> None:
    found = kinds("CTOs at software companies in Germany", "person")
    assert set(found) == {"role", "location", "industry"}


def test_chinese_criteria_are_written_in_chinese() -> None:
    drafts = write_criteria("德国的软件公司", "company", "zh")
    assert any("德国" in d.description for d in drafts)


def test_a_regional_request_plans_one_query_per_country() -> None:
    plan = plan_strategy("software companies in the Nordics", "company")
    angles = {group.angle: group for group in plan.query_groups}
    assert {"request", "industry", "geography"} <= set(angles)
    assert {q.user_location for q in angles["geography"].queries} >= {"SE", "NO", "DK", "FI"}


def company(key: str, **fields: object) -> Prospect:
    return Prospect(key=key, kind="company", name=key, website=f"https://{key}", **fields)  # type: ignore[arg-type]


async def test_verdicts_follow_the_record_and_a_failed_place_fails_its_criterion() -> None:
    query = "chipmakers in Japan"
    criteria = [
        Criterion(f"c{i}", d.description, d.type, d.weight, d.required)
        for i, d in enumerate(write_criteria(query, "company", "en"))
    ]
    page = Evidence(
        url="https://kyoto-chips.example/", title="Kyoto Chips", text="Semiconductors from Kyoto."
    )
    right = company("kyoto-chips.example", industry_code="334413", country="JP", evidence=(page,))
    elsewhere = company("ohio-chips.example", industry_code="334413", country="US")
    bakery = company("osaka-bread.example", industry_code="311811", country="JP")
    verdicts = await RulesReasoner().verify(query, criteria, [right, elsewhere, bakery])
    by_type = [{c.type: v.score for c, v in zip(criteria, row, strict=True)} for row in verdicts]
    assert by_type[0] == {"location": 1.0, "industry": 1.0}
    assert by_type[1]["location"] == 0.0 and by_type[1]["industry"] == 1.0
    assert by_type[2]["industry"] == 0.0 and by_type[2]["location"] == 1.0
    assert all(v.reasoning and v.references for v in verdicts[0])
