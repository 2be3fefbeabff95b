"""The public-web prospects adapter's look-up of named companies: a company named by domain is read
from the search's pages on that domain; one named only by name is not looked up (a namesake would do
as well)."""

from __future__ import annotations

from leadwire.providers.prospects import CompanyRef, SearchProspectSource
from leadwire.search.types import SearchRequest, SearchSource


class RecordingSearch:
    def __init__(self) -> None:
        self.requests: list[SearchRequest] = []

    async def search(self, request: SearchRequest) -> list[SearchSource]:
        self.requests.append(request)
        if request.include_domains == ["acme.example"]:
            return [
                SearchSource(
                    url="https://acme.example/about", title="Acme AG | Pumps", text="Pumps since 1901."
                )
            ]
        return []


async def test_a_company_named_by_domain_is_read_from_its_own_pages() -> None:
    search = RecordingSearch()
    refs = [
        CompanyRef(None, "acme.example", "CH"),
        CompanyRef("Unknown GmbH", "unknown.example", None),
        CompanyRef("Namesake Ltd", None, "GB"),
    ]

    found = await SearchProspectSource(search).lookup(refs)

    acme, unknown, namesake = found
    assert acme is not None and acme.key == "acme.example" and acme.name == "Acme AG"
    assert acme.country == "CH" and [e.url for e in acme.evidence] == ["https://acme.example/about"]
    assert unknown is None and namesake is None
    assert sorted(r.include_domains[0] for r in search.requests) == ["acme.example", "unknown.example"]
