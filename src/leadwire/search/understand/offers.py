"""What a page says a company makes or sells, apart from what it merely mentions.

"Acme is a maker of valves for chemical plants" names two industries, and only one of them is Acme's:
chemical plants are its customers. Verification reads a company's industry from its own statements
of what it offers — a "Products and services:" line, "maker of ...", "we manufacture ...", "Acme is a
German chemical company" — cut where the customers begin ("for", "to", "serving", "used by"). A word
anywhere else on the page is a mention, weaker evidence.
"""

from __future__ import annotations

import re

# A line that lists the offer: "Products and services: ...", "Products: ...", "主要产品：...".
_LISTED = re.compile(
    r"(?:^|[.\n]\s*)(?:main\s+)?(?:products(?:\s+and\s+services)?|services|product\s+lines?|brands|"
    r"business(?:\s+lines?)?|主要产品|主营业务|产品)\s*[:：]\s*(?P<offer>[^\n]+?)(?=\.\s|\.$|\n|。|$)",
    re.IGNORECASE,
)
_MAKER = (
    r"manufacturers?|makers?|producers?|suppliers?|providers?|developers?|designers?|distributors?|"
    r"retailers?|sellers?|vendors?|builders?|operators?"
)
_VERB = (
    r"makes|manufactures|produces|sells|develops|designs|supplies|provides|distributes|builds|operates|"
    r"offers|markets|make|manufacture|produce|sell|develop|design|supply|provide|distribute|build|operate|"
    r"offer"
)
# "a maker of X", "manufactures X", "is a German chemical company": X runs to the end of the clause.
_STATED = re.compile(
    rf"\b(?:(?:{_MAKER})\s+of|(?:{_VERB})|(?:is|are|was)\s+(?:a|an|the|one\s+of\s+the))\s+"
    r"(?P<offer>[^.;:!?\n。]{2,200})",
    re.IGNORECASE,
)
_ZH_STATED = re.compile(r"(?:生产|制造|销售|提供|主营|经营)(?P<offer>[^。；，,;\n]{1,60})")
# Where an offer's customers or uses begin: what follows is not what the company is.
_CUSTOMERS = re.compile(
    r"\s(?:for|to|serving|used\s+by|used\s+in|used\s+for|customers|clients|such\s+customers|"
    r"across|in\s+the\s+\w+\s+(?:industry|sector|market)s?|that|which|who|with)\s|为|给|面向",
    re.IGNORECASE,
)


def offer_statements(text: str) -> list[str]:
    """The parts of ``text`` that say what its company makes or sells, customers cut off."""
    found: list[str] = []
    for pattern in (_LISTED, _STATED, _ZH_STATED):
        for match in pattern.finditer(text):
            offer = _CUSTOMERS.split(match.group("offer"), maxsplit=1)[0].strip(" ,")
            if offer and offer not in found:
                found.append(offer)
    return found
