"""Places in queries (English and Chinese) and the country of a free-text headquarters."""

from __future__ import annotations

import pytest

from leadwire.search.understand.geo import find_countries, find_places, place_country
from leadwire.search.understand.geo_data import CAPITALISED_ONLY, UPPERCASE_ONLY
from leadwire.search.understand.types import Place

EU27 = {
    "AT",
    "BE",
    "BG",
    "HR",
    "CY",
    "CZ",
    "DK",
    "EE",
    "FI",
    "FR",
    "DE",
    "GR",
    "HU",
    "IE",
    "IT",
    "LV",
    "LT",
} | {"LU", "MT", "NL", "PL", "PT", "RO", "SK", "SI", "ES", "SE"}
ASEAN = {"BN", "KH", "ID", "LA", "MY", "MM", "PH", "SG", "TH", "VN"}


def kinds_and_codes(query: str) -> list[tuple[str, str, set[str]]]:
    return [(place.text, place.kind, set(place.countries)) for place in find_places(query)[1]]


# (query, rest, [(text as written, kind, countries)])
PLACES = [
    # Countries: pycountry names, aliases, official names with a comma.
    ("Breweries in Mexico", "breweries in", [("Mexico", "country", {"MX"})]),
    ("software companies United Kingdom", "software companies", [("United Kingdom", "country", {"GB"})]),
    ("steel Korea, Republic of", "steel", [("Korea, Republic of", "country", {"KR"})]),
    ("banks in the USA", "banks in the", [("USA", "country", {"US"})]),
    ("U.S. chip makers", "chip makers", [("U.S", "country", {"US"})]),
    ("Holland flower exporters", "flower exporters", [("Holland", "country", {"NL"})]),
    ("Britain fintech", "fintech", [("Britain", "country", {"GB"})]),
    ("Türkiye textiles", "textiles", [("Türkiye", "country", {"TR"})]),
    ("turkey textile mills", "textile mills", [("turkey", "country", {"TR"})]),
    ("china suppliers", "suppliers", [("china", "country", {"CN"})]),
    ("Ivory Coast cocoa", "cocoa", [("Ivory Coast", "country", {"CI"})]),
    # Possessives and plurals.
    ("Germany's largest banks", "largest banks", [("Germany", "country", {"DE"})]),
    ("Japan’s robot makers", "robot makers", [("Japan", "country", {"JP"})]),
    (
        "banks in the Nordics",
        "banks in the",
        [("Nordics", "region", {"DK", "FI", "IS", "NO", "SE", "FO", "GL", "AX"})],
    ),
    ("Baltics logistics", "logistics", [("Baltics", "region", {"EE", "LV", "LT"})]),
    ("Germans in tech", "in tech", [("Germans", "demonym", {"DE"})]),
    # Demonyms.
    ("German machine builders", "machine builders", [("German", "demonym", {"DE"})]),
    ("Swiss private banks", "private banks", [("Swiss", "demonym", {"CH"})]),
    ("japanese robotics", "robotics", [("japanese", "demonym", {"JP"})]),
    ("American insurers", "insurers", [("American", "demonym", {"US"})]),
    ("British retailers", "retailers", [("British", "demonym", {"GB"})]),
    ("Dutch greenhouse builders", "greenhouse builders", [("Dutch", "demonym", {"NL"})]),
    ("South Korean shipyards", "shipyards", [("South Korean", "demonym", {"KR"})]),
    ("Emirati logistics", "logistics", [("Emirati", "demonym", {"AE"})]),
    ("Chinese EV makers", "ev makers", [("Chinese", "demonym", {"CN"})]),
    ("Turkish textiles", "textiles", [("Turkish", "demonym", {"TR"})]),
    ("Congolese cobalt", "cobalt", [("Congolese", "demonym", {"CD", "CG"})]),
    # Words that are places only when capitalised.
    ("us and them", "us and them", []),
    ("banks in the US", "banks in the", [("US", "country", {"US"})]),
    ("Polish furniture makers", "furniture makers", [("Polish", "demonym", {"PL"})]),
    ("polish for cars", "polish for cars", []),
    ("Jordan phosphate", "phosphate", [("Jordan", "country", {"JO"})]),
    ("air jordan sneakers", "air jordan sneakers", []),
    ("guinea pig food", "guinea pig food", []),
    ("Chad oil", "oil", [("Chad", "country", {"TD"})]),
    ("jersey knitwear", "jersey knitwear", []),
    ("chile sauce", "chile sauce", []),
    # Cities.
    ("fintech in Munich", "fintech in", [("Munich", "city", {"DE"})]),
    ("Zurich reinsurers", "reinsurers", [("Zurich", "city", {"CH"})]),
    ("Zürich reinsurers", "reinsurers", [("Zürich", "city", {"CH"})]),
    ("Geneva traders", "traders", [("Geneva", "city", {"CH"})]),
    ("Osaka pharma", "pharma", [("Osaka", "city", {"JP"})]),
    ("Bangalore IT services", "it services", [("Bangalore", "city", {"IN"})]),
    ("São Paulo fintech", "fintech", [("São Paulo", "city", {"BR"})]),
    ("Sao Paulo fintech", "fintech", [("Sao Paulo", "city", {"BR"})]),
    ("New York City law firms", "law firms", [("New York City", "city", {"US"})]),
    ("Silicon Valley startups", "startups", [("Silicon Valley", "city", {"US"})]),
    ("St. Louis breweries", "breweries", [("St. Louis", "city", {"US"})]),
    ("Frankfurt banks", "banks", [("Frankfurt", "city", {"DE"})]),
    ("Nice hotels", "nice hotels", []),  # "Nice" is too common a word to be a city
    # States and provinces.
    ("California solar installers", "solar installers", [("California", "state", {"US"})]),
    ("Wisconsin cheese makers", "cheese makers", [("Wisconsin", "state", {"US"})]),
    ("Ontario mining", "mining", [("Ontario", "state", {"CA"})]),
    ("Bavaria car parts", "car parts", [("Bavaria", "state", {"DE"})]),
    ("New South Wales builders", "builders", [("New South Wales", "state", {"AU"})]),
    ("New Mexico energy", "energy", [("New Mexico", "state", {"US"})]),
    ("Baja California factories", "factories", [("Baja California", "state", {"MX"})]),
    # Ambiguous names take the reading the rest of the query supports.
    ("Atlanta Georgia logistics", "logistics", [("Atlanta", "city", {"US"}), ("Georgia", "state", {"US"})]),
    ("Tbilisi Georgia wine", "wine", [("Tbilisi", "city", {"GE"}), ("Georgia", "country", {"GE"})]),
    ("Georgia wine", "wine", [("Georgia", "state", {"US", "GE"})]),
    # Regions.
    ("machine builders in DACH", "machine builders in", [("DACH", "region", {"DE", "AT", "CH"})]),
    ("Benelux ports", "ports", [("Benelux", "region", {"BE", "NL", "LU"})]),
    ("Scandinavian design", "design", [("Scandinavian", "region", {"DK", "NO", "SE", "FI", "IS"})]),
    ("Iberian wine", "wine", [("Iberian", "region", {"ES", "PT", "AD"})]),
    ("Middle East contractors", "contractors", [("Middle East", "region", None)]),
    ("GCC banks", "banks", [("GCC", "region", {"AE", "SA", "QA", "KW", "BH", "OM"})]),
    ("Greater China distributors", "distributors", [("Greater China", "region", {"CN", "HK", "MO", "TW"})]),
    ("LATAM fintech", "fintech", [("LATAM", "region", None)]),
    ("Asia-Pacific data centres", "data centres", [("Asia-Pacific", "region", None)]),
    # Longest match first.
    ("South Africa mining", "mining", [("South Africa", "country", {"ZA"})]),
    ("Sub-Saharan Africa telecoms", "telecoms", [("Sub-Saharan Africa", "region", None)]),
    ("United Arab Emirates ports", "ports", [("United Arab Emirates", "country", {"AE"})]),
    (
        "Central and Eastern Europe outsourcing",
        "outsourcing",
        [("Central and Eastern Europe", "region", None)],
    ),
    ("Papua New Guinea gold", "gold", [("Papua New Guinea", "country", {"PG"})]),
    ("Latin American retailers", "retailers", [("Latin American", "region", None)]),
    # Two places.
    (
        "German suppliers in Poland",
        "suppliers in",
        [("German", "demonym", {"DE"}), ("Poland", "country", {"PL"})],
    ),
    (
        "steel from India or Vietnam",
        "steel from or",
        [("India", "country", {"IN"}), ("Vietnam", "country", {"VN"})],
    ),
    # None.
    ("industrial robots", "industrial robots", []),
    ("Acme Robotics", "acme robotics", []),
    ("", "", []),
    # Chinese: names inside runs without spaces, longest first.
    ("深圳 半导体 中国", "半导体", [("深圳", "city", {"CN"}), ("中国", "country", {"CN"})]),
    ("德国汽车零部件供应商", "汽车零部件供应商", [("德国", "country", {"DE"})]),
    ("在德国的汽车公司", "在 的汽车公司", [("德国", "country", {"DE"})]),
    ("瑞士钟表", "钟表", [("瑞士", "country", {"CH"})]),
    ("印度尼西亚煤炭", "煤炭", [("印度尼西亚", "country", {"ID"})]),
    ("印度软件外包", "软件外包", [("印度", "country", {"IN"})]),
    ("上海和东京的物流公司", "和 的物流公司", [("上海", "city", {"CN"}), ("东京", "city", {"JP"})]),
    ("慕尼黑机械", "机械", [("慕尼黑", "city", {"DE"})]),
    ("硅谷初创公司", "初创公司", [("硅谷", "city", {"US"})]),
    ("北欧能源", "能源", [("北欧", "region", {"DK", "FI", "IS", "NO", "SE", "FO", "GL", "AX"})]),
    (
        "东南亚电商",
        "电商",
        [("东南亚", "region", {"BN", "KH", "ID", "LA", "MY", "MM", "PH", "SG", "TH", "VN", "TL"})],
    ),
    ("拉美矿业", "矿业", [("拉美", "region", None)]),
    ("大中华区代理", "代理", [("大中华区", "region", {"CN", "HK", "MO", "TW"})]),
    ("美资银行", "银行", [("美资", "demonym", {"US"})]),
    ("沿海地区港口", "沿海地区港口", []),  # 海地 (Haiti) inside 沿海地区 is no place
    ("上海南站", "南站", [("上海", "city", {"CN"})]),
    ("ガス会社 東京", "ガス会社", [("東京", "city", {"JP"})]),  # kana kept as written, never folded
    ("Chinese 半导体 in 台湾", "半导体 in", [("Chinese", "demonym", {"CN"}), ("台湾", "country", {"TW"})]),
]


@pytest.mark.parametrize(("query", "rest", "places"), PLACES)
def test_places_are_found_in_queries(
    query: str, rest: str, places: list[tuple[str, str, set[str] | None]]
) -> None:
    found_rest, found = find_places(query)
    assert found_rest == rest
    assert [(p.text, p.kind) for p in found] == [(text, kind) for text, kind, _ in places]
    for place, (_, _, codes) in zip(found, places, strict=True):
        if codes is not None:
            assert set(place.countries) == codes


def test_regions_stand_for_their_members() -> None:
    assert set(find_countries("EU suppliers")[1]) == EU27
    assert set(find_countries("European Union grants")[1]) == EU27
    europe = find_countries("European manufacturers")[1]
    assert {"GB", "CH", "NO", "DE"} <= europe and "CN" not in europe
    assert {"SA", "AE", "IL", "EG"} <= find_countries("MENA")[1]
    assert {"ZA", "NG", "KE"} <= find_countries("Africa")[1]
    assert "EG" not in find_countries("Sub-Saharan Africa")[1]
    assert {"AU", "JP", "IN", "SG"} <= find_countries("APAC")[1]
    assert {"US", "CA"} <= find_countries("North America")[1]
    assert {"BR", "AR", "CL"} <= find_countries("South America")[1]
    assert {"AU", "NZ"} <= find_countries("Oceania")[1]
    assert {"PL", "RO", "UA"} <= find_countries("Eastern Europe")[1]
    assert {"FR", "DE", "GB"} <= find_countries("Western Europe")[1]
    assert find_countries("ASEAN")[1] == ASEAN
    assert {"DE", "FR"} <= find_countries("欧洲")[1]
    assert {"JP", "CN", "IN"} <= find_countries("亚洲")[1]


def test_places_keep_what_the_user_wrote() -> None:
    assert find_places("Pharma in Baden-Württemberg") == (
        "pharma in",
        (Place("Baden-Württemberg", "state", frozenset({"DE"})),),
    )


def test_find_countries_is_the_union_of_the_places() -> None:
    assert find_countries("Munich or Vienna or Switzerland") == ("or or", frozenset({"DE", "AT", "CH"}))
    assert find_countries("no places here") == ("no places here", frozenset())


def test_case_rules_name_real_places() -> None:
    from leadwire.search.understand.geo import _gazetteer

    assert not (CAPITALISED_ONLY | UPPERCASE_ONLY) - set(_gazetteer().latin)


# (location as written, country); None where the text names no country or several equally. Shaped like
# the headquarters strings of company lists, not copied from any.
HEADQUARTERS = [
    ("Madison , Wisconsin , US", "US"),
    ("Sacramento, California", "US"),
    ("Fresno, California , U.S.", "US"),
    ("Oak Park, Illinois, U.S.", "US"),
    ("Lucerne, Switzerland", "CH"),
    ("Tokyo", "JP"),
    ("Paris, France", "FR"),
    ("Amsterdam", "NL"),
    ("United Kingdom", "GB"),
    ("Leeds , England, UK", "GB"),
    ("Swansea , Wales, UK", "GB"),
    ("Erlangen , Bavaria , Germany", "DE"),
    ("Hakata-ku , Fukuoka , Fukuoka Prefecture , Japan", "JP"),
    ("Karasuma-dori, Shimogyo-ku, Kyoto 600-8008, Japan", "JP"),
    ("Shibaura , Minato-ku, Tokyo 108-0023 , Japan", "JP"),
    ("100 Pearl Street, Hartford, Connecticut , 06103, United States", "US"),
    ("Rue de Rivoli , 1st arrondissement , Paris , France", "FR"),
    ("Sevilla , Andalusia", "ES"),
    ("Jurong,West Region, Singapore", "SG"),
    ("Esch-sur-Alzette , Luxembourg", "LU"),
    ("Pembroke , Bermuda", "BM"),
    ("Dublin , Ireland", "IE"),
    ("Dublin, Ohio", "US"),  # the state outweighs a city of the same name abroad
    ("Paris, Texas", "US"),
    ("Birmingham, Alabama", "US"),
    ("Birmingham", "GB"),
    ("London, Ontario", "CA"),
    ("Indiana , Pennsylvania , United States", "US"),
    ("Atlanta, Georgia", "US"),  # Georgia the state: Atlanta is in the US
    ("Marietta, Georgia", "US"),
    ("Tbilisi, Georgia", "GE"),  # Georgia the country: Tbilisi is its capital
    ("Mesa , Arizona, U.S. Brno , Czech Republic", "US"),
    ("Uster, Switzerland Executive Offices: Dayton, Ohio", "CH"),  # a country beats a state
    ("Kawasaki , Japan", "JP"),
    ("45°45′N 4°50′E / 45.75°N 4.85°E , Lyon , Auvergne-Rhône-Alpes , France", "FR"),
    ("深圳市南山区", "CN"),
    ("德国慕尼黑", "DE"),
    ("Unknown place", None),
    ("", None),
    ("Benelux", None),
    ("Paris, France; Berlin, Germany", None),
]


@pytest.mark.parametrize(("text", "country"), HEADQUARTERS)
def test_place_country(text: str, country: str | None) -> None:
    assert place_country(text) == country
