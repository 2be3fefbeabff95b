"""The offline industry judge: yes only on a specific fact inside the industry asked for, no when the
specific facts place a company elsewhere, unclear on a broad label, a mention, or nothing; and how the
verdicts of the criteria make an item's score and band."""

from __future__ import annotations

import pytest

from leadwire.providers.reasoner import Criterion, Evidence, Prospect, Verdict
from leadwire.providers.rules_industry import judge, wanted_codes
from leadwire.search.understand.offers import offer_statements
from leadwire.websets.scoring import score_of

BANKS = Criterion("crit_banks", "In the Commercial Banking (NAICS 5221) industry", "industry", 0.5, True)
MACHINERY = Criterion(
    "crit_machines", "In the Machinery Manufacturing (NAICS 333) industry", "industry", 0.5, True
)
TELECOM = Criterion("crit_telecom", "In the Telecommunications (NAICS 517) industry", "industry", 0.5, True)
CHEMICALS = Criterion(
    "crit_chem", "In the chemical (NAICS 3251, 3252, 3253, 3255, 3259) industry", "industry", 0.5, True
)
OIL = Criterion("crit_oil", "In the Oil and Gas Extraction (NAICS 211) industry", "industry", 0.5, True)


def company(**facts: object) -> Prospect:
    return Prospect(key="acme.example", kind="company", name="Acme", website="https://acme.example", **facts)  # type: ignore[arg-type]


def judged(criterion: Criterion, prospect: Prospect) -> Verdict:
    return judge(criterion, prospect, wanted_codes(criterion.description))


def test_a_criterion_reads_back_every_class_it_cites() -> None:
    assert wanted_codes(CHEMICALS.description) == ("3251", "3252", "3253", "3255", "3259")
    assert wanted_codes("In the Software Publishers (NAICS 5132) or IT (NAICS 5415) industry") == (
        "5132",
        "5415",
    )
    assert wanted_codes("chipmakers") == ("3344",)


@pytest.mark.parametrize(
    ("criterion", "label"),
    [(TELECOM, "Communication Services"), (MACHINERY, "Industrials"), (MACHINERY, "Capital Goods")],
)
def test_a_broad_sector_label_alone_never_gives_yes(criterion: Criterion, label: str) -> None:
    verdict = judged(criterion, company(industry=label))
    assert verdict.verdict == "unclear"
    assert "broad label" in verdict.reasoning
    assert verdict.score < 0.5  # the label gathers many industries: the one asked for is one of them


def test_a_specific_industry_code_gives_yes() -> None:
    verdict = judged(MACHINERY, company(industry_code="333249", industry="Industrials"))
    assert (verdict.verdict, verdict.score) == ("yes", 1.0)
    assert "NAICS 333249" in verdict.reasoning and "strong evidence" in verdict.reasoning


def test_a_specific_label_gives_yes_and_one_elsewhere_gives_no() -> None:
    assert judged(BANKS, company(industry="Regional Banks; Financials")).verdict == "yes"
    no = judged(CHEMICALS, company(industry="Regional Banks"))
    assert (no.verdict, no.score) == ("no", 0.0)
    assert "another industry" in no.reasoning


def test_a_broad_label_that_leaves_the_industry_out_gives_no() -> None:
    assert judged(MACHINERY, company(industry="Financials")).verdict == "no"


def test_a_label_broader_than_the_industry_asked_for_is_unclear() -> None:
    verdict = judged(BANKS, company(industry="Financial services"))
    assert verdict.verdict == "unclear"
    assert "broader" in verdict.reasoning


def test_a_word_that_names_the_customers_does_not_give_yes() -> None:
    pages = (Evidence("https://acme.example/", "Acme", "Acme is a maker of valves for chemical plants."),)
    verdict = judged(CHEMICALS, company(evidence=pages))
    assert verdict.verdict != "yes"


def test_a_page_stating_what_the_company_makes_gives_yes() -> None:
    pages = (
        Evidence("https://acme.example/", "Acme", "Acme manufactures specialty chemicals and adhesives."),
    )
    verdict = judged(CHEMICALS, company(evidence=pages))
    assert verdict.verdict == "yes"
    assert verdict.references == ("https://acme.example/",)


def test_a_product_list_naming_the_industry_once_among_others_does_not_give_yes() -> None:
    text = "Products and services: Seasonings, cooking oils, frozen foods, sweeteners, amino acids."
    verdict = judged(OIL, company(evidence=(Evidence("https://acme.example/", "Acme", text),)))
    assert verdict.verdict != "yes"


def test_the_word_before_a_product_noun_only_qualifies_it() -> None:
    """ "Semiconductor equipment" is machinery: its maker is no chipmaker."""
    chips = Criterion("crit_chips", "In the Semiconductor (NAICS 3344) industry", "industry", 0.5, True)
    verdict = judged(chips, company(industry="Semiconductor equipment"))
    assert verdict.verdict != "yes"


def test_a_weaker_fact_does_not_overrule_a_stronger_one() -> None:
    """The label (a stronger kind of fact) covers the industry; products elsewhere do not make it a no."""
    text = "Products and services: Climate control seats, medical devices, electronics."
    prospect = company(industry="Automotive", evidence=(Evidence("https://acme.example/", "Acme", text),))
    cars = Criterion(
        "crit_cars", "In the Automobile Manufacturing (NAICS 3361) industry", "industry", 0.5, True
    )
    assert judged(cars, prospect).verdict == "unclear"


def test_nothing_known_is_unclear() -> None:
    verdict = judged(BANKS, company())
    assert verdict.verdict == "unclear"
    assert "no evidence" in verdict.reasoning


def test_a_label_no_phrase_covers_is_read_by_meaning_as_a_guess() -> None:
    real_estate = Criterion("crit_re", "In the Real Estate (NAICS 531) industry", "industry", 0.5, True)
    verdict = judged(real_estate, company(industry="Immobilien"))
    assert verdict.verdict == "unclear"  # a guess leans, it never decides
    assert "by meaning" in verdict.reasoning


# -- offers --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "offered", "customers"),
    [
        ("Acme is a maker of valves for chemical plants.", "valves", "chemical"),
        ("We manufacture pumps used in the oil industry.", "pumps", "oil"),
        ("Acme sells software to banks and insurers.", "software", "bank"),
    ],
)
def test_offer_statements_stop_where_the_customers_begin(text: str, offered: str, customers: str) -> None:
    statements = offer_statements(text)
    assert any(offered in s for s in statements)
    assert not any(customers in s for s in statements)


def test_a_listed_offer_is_read_to_the_end_of_its_sentence() -> None:
    text = "Acme. Products and services: Boilers Water heaters. Founded in 1874."
    assert offer_statements(text)[0] == "Boilers Water heaters"


# -- bands ---------------------------------------------------------------------------------------

PLACE = Criterion("crit_place", "Headquartered in Germany", "location", 0.46, True)
FIT = Criterion("crit_fit", "Fits the request", "business_fit", 0.2, False)


def verdicts(place: tuple[str, float], industry: tuple[str, float], fit: float = 1.0) -> list[Verdict]:
    return [
        Verdict(PLACE.id, place[1], "", 0.9, (), place[0]),  # type: ignore[arg-type]
        Verdict(BANKS.id, industry[1], "", 0.9, (), industry[0]),  # type: ignore[arg-type]
        Verdict(FIT.id, fit, "", 0.6, (), "yes" if fit >= 0.7 else "no"),
    ]


def test_full_needs_every_required_criterion_judged_yes() -> None:
    assert score_of([PLACE, BANKS, FIT], verdicts(("yes", 1.0), ("yes", 1.0))) == ("full", 100.0)


def test_a_required_criterion_left_open_caps_the_item_at_partial() -> None:
    band, score = score_of([PLACE, BANKS, FIT], verdicts(("yes", 1.0), ("unclear", 0.95)))
    assert band == "partial" and score <= 79


def test_a_required_criterion_judged_no_rejects_the_item() -> None:
    band, score = score_of([PLACE, BANKS, FIT], verdicts(("yes", 1.0), ("no", 0.45)))
    assert band == "rejected" and score <= 39


def test_required_criteria_multiply_and_preferences_move_the_score_by_a_quarter_at_most() -> None:
    _, likely = score_of([PLACE, BANKS, FIT], verdicts(("yes", 1.0), ("unclear", 0.5)))
    _, unlikely = score_of([PLACE, BANKS, FIT], verdicts(("yes", 1.0), ("unclear", 0.1)))
    assert likely == 50.0 and unlikely == 10.0
    _, disliked = score_of([PLACE, BANKS, FIT], verdicts(("yes", 1.0), ("yes", 1.0), fit=0.0))
    assert disliked == 75.0
