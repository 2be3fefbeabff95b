"""Countries and cities of the sandbox world: weights, name locales, legal forms, currencies,
which customs directories each country publishes, and Chinese place names."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import pycountry


@dataclass(frozen=True)
class Country:
    """A country of the world as the generator needs it."""

    alpha2: str
    alpha3: str
    name: str
    weight: float  # relative share of companies
    names: str  # name source: a Faker locale or one of names.SPECIAL_SOURCES
    cities: tuple[str, ...]  # most important first
    legal_forms: tuple[str, ...]  # a form ending with a space is a prefix ("PT ")
    currency: str
    catalogs: str  # "i": import directory published, "e": export directory published
    region: str
    boosts: tuple[str, ...] = ()  # sectors over-represented among its companies
    cities_zh: tuple[str, ...] = ()  # Chinese city names, same order as cities

    @property
    def zh(self) -> bool:
        """Whether companies and people here also have Chinese names and texts."""
        return bool(self.cities_zh)


_NAME_OVERRIDES = {
    "TW": "Taiwan",
    "KR": "South Korea",
    "VN": "Vietnam",
    "US": "United States",
    "GB": "United Kingdom",
    "CZ": "Czechia",
    "TR": "Türkiye",
    "HK": "Hong Kong",
}

# alpha2, weight, name source, cities, legal forms, currency, catalogs, region, boosts
_ROWS: tuple[tuple[str, float, str, str, str, str, str, str, str], ...] = (
    (
        "US",
        14,
        "en_US",
        "New York|San Francisco|Chicago|Austin|Boston|Seattle|Atlanta|Houston",
        "Inc.|LLC|Corp.",
        "USD",
        "i",
        "north_america",
        "software it_services finance",
    ),
    (
        "CA",
        2.5,
        "en_CA",
        "Toronto|Vancouver|Montreal|Calgary|Ottawa",
        "Inc.|Ltd.",
        "CAD",
        "",
        "north_america",
        "mining",
    ),
    (
        "MX",
        2,
        "es_MX",
        "Mexico City|Monterrey|Guadalajara|Querétaro|Tijuana",
        "S.A. de C.V.",
        "MXN",
        "ie",
        "latin_america",
        "automotive",
    ),
    (
        "BR",
        2,
        "pt_BR",
        "São Paulo|Rio de Janeiro|Curitiba|Belo Horizonte|Porto Alegre",
        "Ltda.|S.A.",
        "BRL",
        "ie",
        "latin_america",
        "agriculture food",
    ),
    (
        "AR",
        0.7,
        "es_AR",
        "Buenos Aires|Córdoba|Rosario|Mendoza",
        "S.A.|S.R.L.",
        "ARS",
        "ie",
        "latin_america",
        "food",
    ),
    (
        "CL",
        0.5,
        "es_CL",
        "Santiago|Valparaíso|Concepción",
        "SpA|S.A.",
        "CLP",
        "ie",
        "latin_america",
        "mining food",
    ),
    ("CO", 0.6, "es_CO", "Bogotá|Medellín|Cali|Barranquilla", "S.A.S.", "COP", "ie", "latin_america", "food"),
    (
        "GB",
        6,
        "en_GB",
        "London|Manchester|Birmingham|Edinburgh|Leeds|Bristol",
        "Ltd|plc",
        "GBP",
        "i",
        "europe",
        "finance consulting software",
    ),
    ("IE", 0.8, "en_IE", "Dublin|Cork|Galway", "Ltd|DAC", "EUR", "", "europe", "software medical"),
    (
        "DE",
        7,
        "de_DE",
        "Berlin|Munich|Hamburg|Frankfurt|Stuttgart|Cologne|Düsseldorf|Leipzig",
        "GmbH|AG|GmbH & Co. KG",
        "EUR",
        "",
        "europe",
        "machinery automotive logistics chemicals software",
    ),
    ("AT", 1.2, "de_AT", "Vienna|Graz|Linz|Salzburg", "GmbH|AG", "EUR", "", "europe", "machinery"),
    (
        "CH",
        1.5,
        "de_CH",
        "Zurich|Geneva|Basel|Lausanne|Zug",
        "AG|SA|GmbH",
        "CHF",
        "",
        "europe",
        "chemicals finance medical",
    ),
    (
        "FR",
        4,
        "fr_FR",
        "Paris|Lyon|Marseille|Toulouse|Lille|Nantes",
        "SAS|SA|SARL",
        "EUR",
        "",
        "europe",
        "food consumer",
    ),
    (
        "BE",
        1.2,
        "nl_BE",
        "Brussels|Antwerp|Ghent|Liège",
        "NV|BV|SA",
        "EUR",
        "",
        "europe",
        "chemicals logistics",
    ),
    (
        "NL",
        2.5,
        "nl_NL",
        "Amsterdam|Rotterdam|Eindhoven|Utrecht|The Hague",
        "B.V.|N.V.",
        "EUR",
        "",
        "europe",
        "logistics wholesale",
    ),
    (
        "ES",
        2.5,
        "es_ES",
        "Madrid|Barcelona|Valencia|Seville|Bilbao",
        "S.L.|S.A.",
        "EUR",
        "",
        "europe",
        "food",
    ),
    ("PT", 0.8, "pt_PT", "Lisbon|Porto|Braga", "Lda.|S.A.", "EUR", "", "europe", "textiles"),
    (
        "IT",
        3,
        "it_IT",
        "Milan|Rome|Turin|Bologna|Florence|Naples",
        "S.r.l.|S.p.A.",
        "EUR",
        "",
        "europe",
        "machinery textiles food",
    ),
    ("SE", 1.5, "sv_SE", "Stockholm|Gothenburg|Malmö|Uppsala", "AB", "SEK", "", "europe", "software"),
    ("DK", 0.8, "da_DK", "Copenhagen|Aarhus|Odense", "A/S|ApS", "DKK", "", "europe", "medical logistics"),
    ("NO", 0.8, "no_NO", "Oslo|Bergen|Trondheim|Stavanger", "AS|ASA", "NOK", "", "europe", "energy"),
    ("FI", 0.8, "fi_FI", "Helsinki|Espoo|Tampere|Oulu", "Oy|Oyj", "EUR", "", "europe", "software materials"),
    (
        "PL",
        1.5,
        "pl_PL",
        "Warsaw|Kraków|Wrocław|Poznań|Gdańsk",
        "Sp. z o.o.|S.A.",
        "PLN",
        "",
        "europe",
        "it_services consumer",
    ),
    ("CZ", 0.8, "cs_CZ", "Prague|Brno|Ostrava|Plzeň", "s.r.o.|a.s.", "CZK", "", "europe", "automotive"),
    ("SK", 0.4, "sk_SK", "Bratislava|Košice|Žilina", "s.r.o.|a.s.", "EUR", "", "europe", "automotive"),
    ("HU", 0.6, "hu_HU", "Budapest|Debrecen|Győr", "Kft.|Zrt.", "HUF", "", "europe", "automotive"),
    (
        "RO",
        0.6,
        "ro_RO",
        "Bucharest|Cluj-Napoca|Timișoara|Iași",
        "S.R.L.|S.A.",
        "RON",
        "",
        "europe",
        "it_services",
    ),
    ("HR", 0.3, "hr_HR", "Zagreb|Split|Rijeka", "d.o.o.", "EUR", "", "europe", ""),
    ("SI", 0.3, "sl_SI", "Ljubljana|Maribor", "d.o.o.", "EUR", "", "europe", ""),
    ("EE", 0.3, "et_EE", "Tallinn|Tartu", "OÜ|AS", "EUR", "", "europe", "software"),
    ("LT", 0.3, "lt_LT", "Vilnius|Kaunas|Klaipėda", "UAB", "EUR", "", "europe", "logistics"),
    ("LV", 0.3, "lv_LV", "Riga|Daugavpils", "SIA", "EUR", "", "europe", "logistics"),
    (
        "TR",
        1.5,
        "tr_TR",
        "Istanbul|Ankara|Izmir|Bursa",
        "A.Ş.|Ltd. Şti.",
        "TRY",
        "ie",
        "europe",
        "textiles automotive",
    ),
    (
        "AE",
        1,
        "ar_AE",
        "Dubai|Abu Dhabi|Sharjah",
        "LLC|FZE|FZCO",
        "AED",
        "i",
        "middle_east",
        "logistics wholesale",
    ),
    (
        "ZA",
        0.7,
        "zu_ZA",
        "Johannesburg|Cape Town|Durban|Pretoria",
        "(Pty) Ltd",
        "ZAR",
        "ie",
        "africa",
        "mining",
    ),
    ("NG", 0.5, "en_NG", "Lagos|Abuja|Port Harcourt", "Ltd|Plc", "NGN", "ie", "africa", "mining"),
    ("KE", 0.4, "en_KE", "Nairobi|Mombasa|Kisumu", "Ltd", "KES", "ie", "africa", "agriculture"),
    (
        "IN",
        4,
        "en_IN",
        "Bengaluru|Mumbai|New Delhi|Chennai|Hyderabad|Pune",
        "Pvt. Ltd.|Ltd.",
        "INR",
        "ie",
        "asia",
        "it_services software chemicals textiles",
    ),
    (
        "PK",
        0.5,
        "en_PK",
        "Karachi|Lahore|Islamabad|Faisalabad",
        "(Pvt.) Ltd.",
        "PKR",
        "ie",
        "asia",
        "textiles",
    ),
    (
        "TH",
        1.2,
        "en_TH",
        "Bangkok|Chiang Mai|Chonburi",
        "Co., Ltd.|PCL",
        "THB",
        "ie",
        "asia",
        "automotive food",
    ),
    (
        "VN",
        1.5,
        "vi_VN",
        "Ho Chi Minh City|Hanoi|Da Nang|Hai Phong",
        "JSC|Co., Ltd.",
        "VND",
        "ie",
        "asia",
        "textiles electronics",
    ),
    (
        "ID",
        1.2,
        "id_ID",
        "Jakarta|Surabaya|Bandung|Medan",
        "PT ",
        "IDR",
        "ie",
        "asia",
        "agriculture textiles",
    ),
    ("PH", 0.8, "en_PH", "Manila|Cebu|Davao|Makati", "Inc.|Corp.", "PHP", "ie", "asia", "staffing"),
    (
        "JP",
        4,
        "ja_JP",
        "Tokyo|Osaka|Nagoya|Yokohama|Fukuoka|Kyoto",
        "K.K.|Co., Ltd.|Corporation",
        "JPY",
        "",
        "asia",
        "machinery automotive electronics",
    ),
    (
        "KR",
        2.5,
        "ko_KR",
        "Seoul|Busan|Incheon|Daejeon|Suwon",
        "Co., Ltd.|Corp.",
        "KRW",
        "ie",
        "asia",
        "electronics automotive",
    ),
    (
        "CN",
        9,
        "zh_CN",
        "Shanghai|Shenzhen|Beijing|Guangzhou|Suzhou|Hangzhou|Ningbo|Dongguan",
        "Co., Ltd.",
        "CNY",
        "e",
        "asia",
        "electronics machinery textiles consumer metals",
    ),
    (
        "TW",
        2,
        "zh_TW",
        "Taipei|Hsinchu|Taichung|Kaohsiung|Taoyuan",
        "Co., Ltd.|Corp.",
        "TWD",
        "ie",
        "asia",
        "electronics",
    ),
    (
        "HK",
        1.5,
        "zh_HK",
        "Hong Kong|Kowloon|Tsuen Wan",
        "Limited|Co., Ltd.",
        "HKD",
        "ie",
        "asia",
        "wholesale finance",
    ),
    (
        "SG",
        1.5,
        "zh_SG",
        "Singapore|Jurong|Tuas",
        "Pte. Ltd.",
        "SGD",
        "ie",
        "asia",
        "logistics finance wholesale",
    ),
    ("AU", 2, "en_AU", "Sydney|Melbourne|Brisbane|Perth|Adelaide", "Pty Ltd", "AUD", "", "oceania", "mining"),
    (
        "NZ",
        0.5,
        "en_NZ",
        "Auckland|Wellington|Christchurch",
        "Limited",
        "NZD",
        "",
        "oceania",
        "agriculture food",
    ),
)

_CITIES_ZH = {
    "CN": "上海|深圳|北京|广州|苏州|杭州|宁波|东莞",
    "TW": "台北|新竹|台中|高雄|桃园",
    "HK": "香港|九龙|荃湾",
    "SG": "新加坡|裕廊|大士",
}


@cache
def countries() -> tuple[Country, ...]:
    """All countries of the world, in a stable order."""
    out = []
    for a2, weight, source, cities, forms, currency, catalogs, region, boosts in _ROWS:
        rec = pycountry.countries.get(alpha_2=a2)
        assert rec is not None, a2
        name = _NAME_OVERRIDES.get(a2) or getattr(rec, "common_name", None) or rec.name
        out.append(
            Country(
                alpha2=a2,
                alpha3=rec.alpha_3,
                name=name,
                weight=weight,
                names=source,
                cities=tuple(cities.split("|")),
                legal_forms=tuple(forms.split("|")),
                currency=currency,
                catalogs=catalogs,
                region=region,
                boosts=tuple(boosts.split()),
                cities_zh=tuple(_CITIES_ZH[a2].split("|")) if a2 in _CITIES_ZH else (),
            )
        )
    return tuple(out)


def country_by_alpha2() -> dict[str, Country]:
    """Countries keyed by ISO alpha-2 code."""
    return {c.alpha2: c for c in countries()}


TRADE_FAIRS: dict[str, tuple[str, ...]] = {
    "machinery": ("Hannover Messe", "EMO Hannover", "AMB Stuttgart", "IMTS Chicago"),
    "electronics": ("electronica Munich", "Computex Taipei", "CES Las Vegas", "Canton Fair"),
    "automotive": ("IAA Mobility", "Automechanika Frankfurt", "Auto Shanghai"),
    "food": ("Anuga Cologne", "SIAL Paris", "Gulfood Dubai"),
    "textiles": ("Texworld Paris", "Heimtextil Frankfurt", "Intertextile Shanghai"),
    "chemicals": ("ACHEMA Frankfurt", "CPHI Worldwide", "K Fair Düsseldorf"),
    "logistics": ("transport logistic Munich", "Multimodal Birmingham", "Air Cargo China"),
    "software": ("Web Summit Lisbon", "SaaStr Annual", "VivaTech Paris", "GITEX Dubai"),
    "medical": ("MEDICA Düsseldorf", "Arab Health", "CMEF Shanghai"),
    "consumer": ("Ambiente Frankfurt", "Spielwarenmesse Nuremberg", "Canton Fair"),
    "default": ("Canton Fair", "Hannover Messe", "Web Summit Lisbon", "GITEX Dubai"),
}
