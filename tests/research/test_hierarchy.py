"""Title classification (English and Chinese) and the reporting tree inferred from titles."""

from __future__ import annotations

import pytest

from leadwire.providers.contacts import ContactRecord
from leadwire.research.hierarchy import NOTE, Hierarchy, TitleClass, classify_title, infer_hierarchy


@pytest.mark.parametrize(
    ("title", "seniority", "department"),
    [
        ("Chief Executive Officer", "c_level", "executive"),
        ("Founder & CEO", "c_level", "executive"),
        ("Managing Director", "c_level", "executive"),
        ("CTO", "c_level", "engineering"),
        ("Chief Revenue Officer", "c_level", "sales"),
        ("Chief People Officer", "c_level", "hr"),
        ("General Counsel", "c_level", "legal"),
        ("VP of Sales", "vp", "sales"),
        ("SVP Marketing", "vp", "marketing"),
        ("Vice President, Customer Support", "vp", "support"),
        ("Director of Engineering", "director", "engineering"),
        ("Finance Director", "director", "finance"),
        ("Head of People", "director", "hr"),
        ("Plant Manager", "manager", "operations"),
        ("IT Team Lead", "manager", "it"),
        ("Purchasing Manager", "manager", "procurement"),
        ("Senior Backend Engineer", "senior", "engineering"),
        ("Senior Legal Counsel", "senior", "legal"),
        ("Support Engineer", "entry", "support"),
        ("IT Support Specialist", "entry", "it"),
        ("Product Marketing Specialist", "entry", "marketing"),
        ("QA Engineer", "entry", "engineering"),
        ("Junior FP&A Analyst", "entry", "finance"),
        ("UX Researcher", "entry", "product"),
        ("Key Account Executive", "entry", "sales"),
    ],
)
def test_english_titles(title: str, seniority: str, department: str) -> None:
    cls = classify_title(title)
    assert (cls.seniority, cls.department) == (seniority, department)


@pytest.mark.parametrize(
    ("title", "seniority", "department"),
    [
        ("首席执行官", "c_level", "executive"),
        ("总经理", "c_level", "executive"),
        ("总裁兼首席执行官", "c_level", "executive"),
        ("首席技术官", "c_level", "engineering"),
        ("首席财务官", "c_level", "finance"),
        ("总法律顾问", "c_level", "legal"),
        ("销售副总裁", "vp", "sales"),
        ("副总经理", "vp", "executive"),
        ("工程总监", "director", "engineering"),
        ("人力资源负责人", "director", "hr"),
        ("市场经理", "manager", "marketing"),
        ("采购主管", "manager", "procurement"),
        ("高级软件工程师", "senior", "engineering"),
        ("高级律师助理", "senior", "legal"),
        ("财务专员", "entry", "finance"),
        ("初级会计", "entry", "finance"),
        ("技术支持工程师", "entry", "support"),
        ("IT支持专员", "entry", "it"),
        ("总经理助理", "entry", "executive"),
        ("客服代表", "entry", "support"),
        ("信息技术经理", "manager", "it"),
    ],
)
def test_chinese_titles(title: str, seniority: str, department: str | None) -> None:
    cls = classify_title(title)
    assert (cls.seniority, cls.department) == (seniority, department)


@pytest.mark.parametrize(
    ("title", "seniority", "department"),
    [
        ("總經理", "c_level", "executive"),
        ("首席技術官", "c_level", "engineering"),
        ("銷售總監", "director", "sales"),
        ("人力資源經理", "manager", "hr"),
        ("資訊部經理", "manager", "it"),
        ("高級軟體工程師", "senior", "engineering"),
        ("採購專員", "entry", "procurement"),
        ("客戶服務副總裁", "vp", "support"),
    ],
)
def test_traditional_chinese_titles(title: str, seniority: str, department: str) -> None:
    cls = classify_title(title)
    assert (cls.seniority, cls.department) == (seniority, department)


def test_rank_orders_the_top_executive_before_other_chiefs_and_bands() -> None:
    ranks = [
        classify_title(t).rank
        for t in (
            "CEO",
            "CFO",
            "VP Sales",
            "Sales Director",
            "Sales Manager",
            "Senior Account Executive",
            "Account Executive",
        )
    ]
    assert ranks == sorted(ranks)
    assert ranks[0] == 0 < ranks[1]


def test_empty_title_is_unknown() -> None:
    assert classify_title("") == TitleClass(None, None, classify_title("  ").rank)
    assert classify_title("").seniority is None


def person(title: str, name: str) -> ContactRecord:
    return ContactRecord(
        email=f"{name}@acme.example",
        status="valid",
        position=title,
        first_name=name,
        last_name=None,
        full_name=name,
        linkedin_url=f"https://www.linkedin.com/in/{name}",
    )


ORG = [
    person("Senior Backend Engineer", "sbe"),
    person("Chief Executive Officer", "ceo"),
    person("CTO", "cto"),
    person("VP of Engineering", "vpe"),
    person("Backend Engineering Manager", "bem"),
    person("Frontend Engineering Manager", "fem"),
    person("VP of Sales", "vps"),
    person("Sales Manager", "sm"),
    person("Account Executive", "ae1"),
    person("Account Executive", "ae2"),
    person("Accountant", "acc"),
    person("", "blank"),
]


def edges_by_name(h: Hierarchy) -> dict[str, tuple[str, str, float]]:
    names = {n.id: n.name for n in h.nodes}
    return {names[e.source] or "": (names[e.target] or "", e.relation, e.confidence) for e in h.edges}


def test_nodes_company_first_then_people_by_rank() -> None:
    h = infer_hierarchy("Acme", "acme.example", ORG)
    assert h.nodes[0].id == "n0"
    assert (h.nodes[0].kind, h.nodes[0].name, h.nodes[0].sort_order) == ("company", "Acme", 0)
    people = h.nodes[1:]
    assert [n.id for n in people] == [f"n{i}" for i in range(1, len(ORG) + 1)]
    assert [n.sort_order for n in people] == list(range(1, len(ORG) + 1))
    assert [n.name for n in people[:3]] == ["ceo", "cto", "vpe"]
    assert people[-1].name == "blank"
    assert all(n.kind == "person" for n in people)
    ceo = people[0]
    assert (ceo.title, ceo.email, ceo.status, ceo.seniority, ceo.department) == (
        "Chief Executive Officer",
        "ceo@acme.example",
        "valid",
        "c_level",
        "executive",
    )


def test_company_name_falls_back_to_the_domain() -> None:
    assert infer_hierarchy(None, "acme.example", []).nodes[0].name == "acme.example"


def test_edges_follow_department_and_band() -> None:
    edges = edges_by_name(infer_hierarchy("Acme", "acme.example", ORG))
    assert edges["ceo"][:2] == ("Acme", "belongs_to")
    assert edges["cto"][:2] == ("ceo", "reports_to")
    assert edges["vpe"][:2] == ("cto", "reports_to")
    assert edges["bem"][:2] == ("vpe", "reports_to")
    assert edges["fem"][:2] == ("vpe", "reports_to")
    assert edges["sm"][:2] == ("vps", "reports_to")
    assert edges["ae1"][:2] == ("sm", "reports_to")
    # The title's team word picks the backend manager over the frontend one.
    assert edges["sbe"][:2] == ("bem", "reports_to")


def test_department_heads_without_a_superior_in_the_department_report_to_the_chief_executive() -> None:
    edges = edges_by_name(infer_hierarchy("Acme", "acme.example", ORG))
    assert edges["vps"][:2] == ("ceo", "reports_to")
    assert edges["acc"][:2] == ("ceo", "reports_to")  # alone in finance


def test_people_without_a_plausible_manager_stay_unattached() -> None:
    without_ceo = [c for c in ORG if c.full_name != "ceo"]
    edges = edges_by_name(infer_hierarchy("Acme", "acme.example", without_ceo))
    assert "acc" not in edges  # nobody in finance above an accountant, and no chief executive
    assert "blank" not in edges  # no title, no inference
    assert edges["cto"][:2] == ("Acme", "belongs_to")  # the most senior people returned


def test_confidence_reflects_the_evidence() -> None:
    edges = edges_by_name(infer_hierarchy("Acme", "acme.example", ORG))
    adjacent_same_department = edges["ae1"][2]
    skipped_level = edges["sm"][2]
    department_head_to_ceo = edges["vps"][2]
    lone_contributor_to_ceo = edges["acc"][2]
    assert (
        0 < lone_contributor_to_ceo < skipped_level < department_head_to_ceo < adjacent_same_department <= 1
    )


def test_equally_good_candidates_lower_the_confidence() -> None:
    rep = person("Account Executive", "a")
    m1, m2 = person("Sales Manager", "m1"), person("Sales Manager", "m2")
    one = infer_hierarchy("Acme", "acme.example", [m1, rep])
    two = infer_hierarchy("Acme", "acme.example", [m1, m2, rep])
    conf_one = edges_by_name(one)["a"][2]
    conf_two = edges_by_name(two)["a"][2]
    assert conf_two < conf_one


def test_edges_are_deterministic_and_ordered() -> None:
    first = infer_hierarchy("Acme", "acme.example", ORG)
    second = infer_hierarchy("Acme", "acme.example", list(ORG))
    assert first == second
    assert [e.sort_order for e in first.edges] == list(range(1, len(first.edges) + 1))
    for edge in first.edges:
        assert 0.0 <= edge.confidence <= 1.0
        assert edge.relation in {"reports_to", "belongs_to"}
        assert (edge.relation == "belongs_to") == (edge.target == "n0")


def test_as_dict_has_the_spec_shape() -> None:
    body = infer_hierarchy("Acme", "acme.example", ORG).as_dict()
    assert body["note"] == NOTE
    assert set(body["nodes"][1]) == {
        "id",
        "kind",
        "title",
        "name",
        "email",
        "status",
        "linkedin_url",
        "department",
        "seniority",
        "sort_order",
    }
    assert set(body["edges"][0]) == {"from", "to", "relation", "confidence", "sort_order"}
    assert isinstance(body["edges"][0]["confidence"], float)


def test_chinese_titles_build_the_same_tree() -> None:
    org = [
        person("总经理", "gm"),
        person("销售总监", "sd"),
        person("销售经理", "sm"),
        person("销售代表", "rep"),
    ]
    edges = edges_by_name(infer_hierarchy("龙贸易", "dragon.example", org))
    assert edges["gm"][:2] == ("龙贸易", "belongs_to")
    assert edges["sd"][:2] == ("gm", "reports_to")
    assert edges["sm"][:2] == ("sd", "reports_to")
    assert edges["rep"][:2] == ("sm", "reports_to")


def test_empty_contacts_give_only_the_company_node() -> None:
    h = infer_hierarchy("Acme", "acme.example", [])
    assert [n.id for n in h.nodes] == ["n0"]
    assert h.edges == []
