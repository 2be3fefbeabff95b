"""Query understanding shared by every capability: what a search-box query says beyond its words.

``understand(query)`` finds the places a query names (countries, demonyms, cities, regions; English
and Chinese), the industries it asks for (NAICS 2022 classes, by meaning), company size and founding,
products and HS codes, and for people queries roles, departments and seniority. Public-web search
ranks with it; websets derive criteria from it.
"""

from __future__ import annotations

from leadwire.search.understand.query import understand
from leadwire.search.understand.types import Understanding

__all__ = ["Understanding", "understand"]
