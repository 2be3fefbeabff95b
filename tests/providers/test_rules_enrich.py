"""The offline reasoner's enrichment cells: a field the description names comes from the record; else a
page passage sharing the description's words; nothing found is empty with the reason; an options cell
wins only by a margin; phone numbers are read from the pages."""

from __future__ import annotations

from leadwire.providers.contacts import ContactRecord
from leadwire.providers.reasoner import EnrichmentAsk, Evidence, Prospect
from leadwire.providers.rules_enrich import enrich_all
from leadwire.websets.cells import email_cell, phone_on_pages

ACME = Prospect(
    key="acme.example",
    kind="company",
    name="Acme Robotics",
    website="https://acme.example",
    industry="Industrial Machinery Manufacturing",
    country="DE",
    employees=420,
    founded=1998,
    evidence=(
        Evidence(
            "https://acme.example/about",
            "About Acme",
            "Acme builds welding robots for car plants. The company opened its Munich plant on 2019-03-04. "
            "Around 35 engineers work in research.",
        ),
        Evidence("https://acme.example/careers", "Careers at Acme", "Join our team of robot builders."),
        Evidence("https://acme.example/kontakt", "Kontakt", "Acme GmbH, Tel. +49 89 1234567, München"),
    ),
)


def one(description: str, format: str, *options: str) -> tuple[tuple[str, ...] | None, str, tuple[str, ...]]:
    (cell,) = enrich_all(EnrichmentAsk(description, format, options), [ACME])  # type: ignore[arg-type]
    return cell.result, cell.reasoning, cell.references


def test_a_field_the_description_names_comes_from_the_record() -> None:
    assert one("Number of employees", "number")[0] == ("420",)
    assert one("Year founded", "date")[0] == ("1998",)
    assert one("Industry", "text")[0] == ("Industrial Machinery Manufacturing",)
    assert one("LinkedIn page", "url")[0] is None  # the record has none: not made up
    assert one("Company website", "url")[0] == ("https://acme.example",)


def test_otherwise_the_passage_that_shares_the_description_s_words() -> None:
    result, reasoning, refs = one("How many engineers work in research?", "number")
    assert result == ("35",) and refs == ("https://acme.example/about",) and "engineers" in reasoning
    assert one("When did the Munich plant open?", "date")[0] == ("2019-03-04",)
    assert one("Careers page", "url")[0] == ("https://acme.example/careers",)
    assert one("What does the company build?", "text")[0] == ("Acme builds welding robots for car plants.",)


def test_nothing_found_is_empty_with_its_reason() -> None:
    result, reasoning, refs = one("Annual revenue in euros", "number")
    assert result is None and refs == () and "pages read" in reasoning


def test_an_option_wins_only_by_a_margin() -> None:
    question = "Which sector is the company in?"
    result, reasoning, _ = one(question, "options", "Robotics and machinery", "Banking")
    assert result == ("Robotics and machinery",) and "against" in reasoning
    tie = one(question, "options", "Robots", "Robotics")
    assert tie[0] is None and "do not settle" in tie[1]


def test_a_phone_number_is_read_from_the_pages_contact_pages_first() -> None:
    cell = phone_on_pages(ACME)
    assert cell.result == ("+49891234567",) and cell.references == ("https://acme.example/kontakt",)
    bare = Prospect(key="x.example", kind="company", name="X", evidence=(Evidence("u", "t", "call 12"),))
    assert phone_on_pages(bare).result is None


def test_an_email_is_the_contacts_source_s_for_the_role_asked_and_says_when_it_is_not_verified() -> None:
    ceo = ContactRecord(
        "ceo@acme.example", "accept_all", "Founder & CEO", "Ada", "Muster", "Ada Muster", None
    )
    cto = ContactRecord("cto@acme.example", "valid", "CTO", "Bo", "Muster", "Bo Muster", None)
    co_ceo = ContactRecord("co@acme.example", "valid", "Co-CEO", "Cy", "Muster", "Cy Muster", None)
    only = email_cell(ACME, [cto, ceo], "acme.example", ["CEO"])
    assert only.result == ("ceo@acme.example",), "another role's address is not the CEO's"
    assert "not verified" in only.reasoning and "accept_all" in only.reasoning
    verified_first = email_cell(ACME, [ceo, co_ceo], "acme.example", ["CEO"])
    assert (
        verified_first.result == ("co@acme.example",) and "verified this address" in verified_first.reasoning
    )
    assert email_cell(ACME, [cto], "acme.example", ["CEO"]).result is None
    assert email_cell(ACME, [], "acme.example", ["CEO"]).result is None


def test_only_a_number_written_as_one_is_a_phone() -> None:
    def page(text: str) -> Prospect:
        return Prospect(
            key="x.example", kind="company", name="X", country="DE", evidence=(Evidence("u", "t", text),)
        )

    assert phone_on_pages(page("Order number 336390 shipped.")).result is None
    assert phone_on_pages(page("Revenue 89123456 euros.")).result is None
    assert phone_on_pages(page("Telefon: 089 1234567")).result == ("+49891234567",)
    assert phone_on_pages(page("Reach us at +41 44 668 18 00.")).result == ("+41446681800",)
