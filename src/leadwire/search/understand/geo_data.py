"""The hand-kept gazetteer behind :mod:`leadwire.search.understand.geo`.

pycountry supplies every country's English names and Chinese (zh_CN) names; everything here is
what it lacks: everyday aliases, demonyms, states and provinces, ambiguous names, and the words
that only count as places when written with a capital letter. Cities are in ``geo_cities``,
country groups in ``geo_regions``, Chinese names in ``geo_data_zh``.

Tables map an ISO 3166-1 alpha-2 code to a ``|``-separated list of names, so one line holds one
country. Names are written as people write them; the builder folds case and diacritics.
"""

from __future__ import annotations

# Everyday English names pycountry does not carry.
COUNTRY_ALIASES: dict[str, str] = {
    "US": "US|USA|U.S.|U.S.A.|United States of America|America|the States",
    "GB": "UK|U.K.|Britain|Great Britain|England|Scotland|Wales|Northern Ireland",
    "AE": "UAE|U.A.E.|Emirates",
    "TR": "Turkey|Turkiye",
    "KR": "Korea|Republic of Korea|S. Korea",
    "KP": "DPRK|N. Korea",
    "RU": "Russia",
    "CZ": "Czech Republic",
    "NL": "Holland|The Netherlands",
    "CN": "Mainland China|PRC|P.R.C.|People's Republic of China",
    "TW": "Taiwan|Republic of China",
    "HK": "Hong Kong SAR|Hongkong",
    "MO": "Macau|Macao SAR",
    "VN": "Vietnam|Viet Nam",
    "LA": "Laos",
    "MM": "Burma",
    "CI": "Ivory Coast|Cote d'Ivoire",
    "CV": "Cape Verde",
    "SZ": "Swaziland",
    "TL": "East Timor",
    "MK": "Macedonia",
    "CD": "DRC|DR Congo|Congo-Kinshasa|Democratic Republic of Congo",
    "CG": "Congo-Brazzaville|Republic of the Congo",
    "BA": "Bosnia",
    "TT": "Trinidad",
    "SA": "KSA|Saudi",
    "VA": "Vatican|Vatican City",
    "PS": "Palestine",
    "BN": "Brunei",
    "BS": "The Bahamas",
    "GM": "The Gambia",
    "KN": "St Kitts and Nevis|St Kitts",
    "FM": "Micronesia",
    "TC": "Turks and Caicos",
    "XK": "Kosovo",
}

# Adjectives and nouns for a country's people and things: "German suppliers", "Swiss banks".
# "English" is left out on purpose: it names a language far more often than a country.
DEMONYMS: dict[str, str] = {
    "AF": "Afghan",
    "AL": "Albanian",
    "DZ": "Algerian",
    "AD": "Andorran",
    "AO": "Angolan",
    "AR": "Argentine|Argentinian|Argentinean",
    "AM": "Armenian",
    "AU": "Australian|Aussie",
    "AT": "Austrian",
    "AZ": "Azerbaijani|Azeri",
    "BS": "Bahamian",
    "BH": "Bahraini",
    "BD": "Bangladeshi",
    "BB": "Barbadian",
    "BY": "Belarusian",
    "BE": "Belgian|Flemish|Walloon",
    "BZ": "Belizean",
    "BJ": "Beninese",
    "BM": "Bermudian",
    "BT": "Bhutanese",
    "BO": "Bolivian",
    "BA": "Bosnian",
    "BW": "Botswanan",
    "BR": "Brazilian",
    "BN": "Bruneian",
    "BG": "Bulgarian",
    "BF": "Burkinabe",
    "BI": "Burundian",
    "KH": "Cambodian",
    "CM": "Cameroonian",
    "CA": "Canadian|Quebecois",
    "CV": "Cape Verdean",
    "KY": "Caymanian",
    "TD": "Chadian",
    "CL": "Chilean",
    "CN": "Chinese|Mainland Chinese",
    "CO": "Colombian",
    "KM": "Comoran",
    "CR": "Costa Rican",
    "CI": "Ivorian",
    "HR": "Croatian|Croat",
    "CU": "Cuban",
    "CY": "Cypriot",
    "CZ": "Czech",
    "DK": "Danish|Dane",
    "DJ": "Djiboutian",
    "DO": "Dominican",
    "EC": "Ecuadorian|Ecuadorean",
    "EG": "Egyptian",
    "SV": "Salvadoran|Salvadorian",
    "ER": "Eritrean",
    "EE": "Estonian",
    "ET": "Ethiopian",
    "FJ": "Fijian",
    "FI": "Finnish|Finn",
    "FR": "French",
    "GA": "Gabonese",
    "GM": "Gambian",
    "GE": "Georgian",
    "DE": "German|Bavarian",
    "GH": "Ghanaian",
    "GR": "Greek",
    "GL": "Greenlandic",
    "GT": "Guatemalan",
    "GN": "Guinean",
    "GY": "Guyanese",
    "HT": "Haitian",
    "HN": "Honduran",
    "HK": "Hongkonger",
    "HU": "Hungarian",
    "IS": "Icelandic|Icelander",
    "IN": "Indian",
    "ID": "Indonesian",
    "IR": "Iranian|Persian",
    "IQ": "Iraqi",
    "IE": "Irish",
    "IL": "Israeli",
    "IT": "Italian",
    "JM": "Jamaican",
    "JP": "Japanese",
    "JO": "Jordanian",
    "KZ": "Kazakh|Kazakhstani",
    "KE": "Kenyan",
    "KW": "Kuwaiti",
    "KG": "Kyrgyz",
    "LA": "Lao|Laotian",
    "LV": "Latvian",
    "LB": "Lebanese",
    "LR": "Liberian",
    "LY": "Libyan",
    "LI": "Liechtensteiner",
    "LT": "Lithuanian",
    "LU": "Luxembourgish|Luxembourger",
    "MO": "Macanese",
    "MG": "Malagasy",
    "MW": "Malawian",
    "MY": "Malaysian",
    "MV": "Maldivian",
    "ML": "Malian",
    "MT": "Maltese",
    "MR": "Mauritanian",
    "MU": "Mauritian",
    "MX": "Mexican",
    "MD": "Moldovan",
    "MC": "Monegasque",
    "MN": "Mongolian",
    "ME": "Montenegrin",
    "MA": "Moroccan",
    "MZ": "Mozambican",
    "MM": "Burmese",
    "NA": "Namibian",
    "NP": "Nepali|Nepalese",
    "NL": "Dutch",
    "NZ": "New Zealander|Kiwi",
    "NI": "Nicaraguan",
    "NE": "Nigerien",
    "NG": "Nigerian",
    "KP": "North Korean",
    "MK": "Macedonian|North Macedonian",
    "NO": "Norwegian",
    "OM": "Omani",
    "PK": "Pakistani",
    "PS": "Palestinian",
    "PA": "Panamanian",
    "PG": "Papua New Guinean",
    "PY": "Paraguayan",
    "PE": "Peruvian",
    "PH": "Filipino|Philippine",
    "PL": "Polish|Pole",
    "PT": "Portuguese",
    "PR": "Puerto Rican",
    "QA": "Qatari",
    "RO": "Romanian",
    "RU": "Russian",
    "RW": "Rwandan",
    "SA": "Saudi Arabian",
    "SN": "Senegalese",
    "RS": "Serbian|Serb",
    "SC": "Seychellois",
    "SL": "Sierra Leonean",
    "SG": "Singaporean",
    "SK": "Slovak|Slovakian",
    "SI": "Slovenian|Slovene",
    "SO": "Somali|Somalian",
    "ZA": "South African",
    "KR": "South Korean|Korean",
    "SS": "South Sudanese",
    "ES": "Spanish|Spaniard|Catalan",
    "LK": "Sri Lankan",
    "SD": "Sudanese",
    "SR": "Surinamese",
    "SE": "Swedish|Swede",
    "CH": "Swiss",
    "SY": "Syrian",
    "TW": "Taiwanese",
    "TJ": "Tajik",
    "TZ": "Tanzanian",
    "TH": "Thai",
    "TG": "Togolese",
    "TO": "Tongan",
    "TT": "Trinidadian",
    "TN": "Tunisian",
    "TR": "Turkish|Turk",
    "TM": "Turkmen",
    "UG": "Ugandan",
    "UA": "Ukrainian",
    "AE": "Emirati",
    "GB": "British|Brit|Scottish|Scot|Welsh|Northern Irish",
    "US": "American|Californian|Texan",
    "UY": "Uruguayan",
    "UZ": "Uzbek",
    "VE": "Venezuelan",
    "VN": "Vietnamese",
    "WS": "Samoan",
    "YE": "Yemeni",
    "ZM": "Zambian",
    "ZW": "Zimbabwean",
}
# One demonym, two countries.
SHARED_DEMONYMS: dict[str, str] = {"Congolese": "CD CG"}

# States, provinces and regions inside one country. Two-letter postal codes are left out:
# "IN", "OR", "ME", "OK" are English words and "CA", "DE", "IL" are also countries.
STATES: dict[str, str] = {
    "US": (
        "Alabama|Alaska|Arizona|Arkansas|California|Colorado|Connecticut|Delaware|Florida|Hawaii|"
        "Idaho|Illinois|Indiana|Iowa|Kansas|Kentucky|Louisiana|Maine|Maryland|Massachusetts|"
        "Michigan|Minnesota|Mississippi|Missouri|Montana|Nebraska|Nevada|New Hampshire|New Jersey|"
        "New Mexico|New York|New York State|North Carolina|North Dakota|Ohio|Oklahoma|Oregon|"
        "Pennsylvania|Rhode Island|South Carolina|South Dakota|Tennessee|Texas|Utah|Vermont|"
        "Virginia|Washington|Washington State|West Virginia|Wisconsin|Wyoming|District of Columbia|"
        "New England|Midwest|Pacific Northwest|Gulf Coast|Southern California|Northern California|SoCal|"
        "NorCal"
    ),
    "CA": (
        "Ontario|Quebec|British Columbia|Alberta|Manitoba|Saskatchewan|Nova Scotia|New Brunswick|"
        "Newfoundland|Newfoundland and Labrador|Prince Edward Island|Yukon|Nunavut|"
        "Northwest Territories"
    ),
    "AU": (
        "New South Wales|Victoria|Queensland|Western Australia|South Australia|Tasmania|"
        "Northern Territory|Australian Capital Territory"
    ),
    "DE": (
        "Bavaria|Bayern|Baden-Wurttemberg|Baden-Württemberg|North Rhine-Westphalia|"
        "Nordrhein-Westfalen|NRW|Hesse|Hessen|Saxony|Sachsen|Lower Saxony|Niedersachsen|"
        "Rhineland-Palatinate|Rheinland-Pfalz|Thuringia|Brandenburg|Schleswig-Holstein|Saarland|"
        "Mecklenburg-Vorpommern|Saxony-Anhalt|Ruhr|Ruhr Area|Ruhrgebiet"
    ),
    "ES": (
        "Catalonia|Cataluña|Catalunya|Andalusia|Andalucía|Basque Country|Galicia|Navarre|Asturias|"
        "Aragon|Castile and Leon|Castilla-La Mancha|Canary Islands|Balearic Islands|Murcia|Cantabria"
    ),
    "IT": (
        "Lombardy|Lombardia|Piedmont|Piemonte|Tuscany|Toscana|Veneto|Emilia-Romagna|Lazio|Sicily|"
        "Sardinia|Campania|Liguria|Apulia|Puglia|Calabria|Trentino|South Tyrol|Friuli"
    ),
    "FR": (
        "Ile-de-France|Île-de-France|Provence|Normandy|Brittany|Alsace|Auvergne-Rhône-Alpes|"
        "Rhône-Alpes|Occitanie|Occitania|Hauts-de-France|Nouvelle-Aquitaine|Grand Est|Burgundy|"
        "Corsica|Pays de la Loire|Côte d'Azur|French Riviera"
    ),
    "NL": (
        "North Holland|Noord-Holland|South Holland|Zuid-Holland|North Brabant|Noord-Brabant|Gelderland|"
        "Limburg"
    ),
    "BE": "Flanders|Wallonia",
    "CH": "Vaud|Ticino|Valais|Aargau|Graubünden",
    "AT": "Tyrol|Tirol|Styria|Upper Austria|Lower Austria|Carinthia",
    "JP": (
        "Hokkaido|Aomori|Iwate|Miyagi|Akita|Yamagata|Fukushima|Ibaraki|Tochigi|Gunma|Saitama|Chiba|"
        "Kanagawa|Niigata|Toyama|Ishikawa|Fukui|Yamanashi|Nagano|Gifu|Shizuoka|Aichi|Mie|Shiga|"
        "Hyogo|Hyōgo|Nara|Wakayama|Tottori|Shimane|Okayama|Yamaguchi|Tokushima|Kagawa|Ehime|Saga|"
        "Kumamoto|Oita|Ōita|Miyazaki|Kagoshima|Okinawa|Kanto|Kansai|Kyushu|Shikoku"
    ),
    "CN": (
        "Guangdong|Zhejiang|Jiangsu|Shandong|Fujian|Sichuan|Hubei|Hunan|Henan|Hebei|Anhui|Jiangxi|"
        "Liaoning|Jilin|Heilongjiang|Shanxi|Shaanxi|Yunnan|Guizhou|Guangxi|Hainan|Gansu|"
        "Inner Mongolia|Xinjiang|Tibet|Ningxia|Qinghai|Pearl River Delta|Yangtze River Delta"
    ),
    "IN": (
        "Maharashtra|Karnataka|Tamil Nadu|Telangana|Gujarat|Kerala|West Bengal|Uttar Pradesh|"
        "Haryana|Punjab|Rajasthan|Andhra Pradesh|Madhya Pradesh|Odisha|Goa"
    ),
    "BR": "Minas Gerais|Rio Grande do Sul|Parana|Paraná|Santa Catarina|Bahia|Pernambuco",
    "MX": (
        "Nuevo Leon|Nuevo León|Jalisco|Baja California|Chihuahua|Sonora|Coahuila|Guanajuato|Queretaro|"
        "Querétaro"
    ),
    "KR": "Gyeonggi|Gyeonggi-do",
    "ZA": "Gauteng|Western Cape|KwaZulu-Natal",
    "AE": "Abu Dhabi Emirate",
    "MY": "Selangor",
    "ID": "Java|Bali",
}

# Names that stand for different places; the first reading is taken when nothing else in the
# text decides, and each later one is taken when the text also names one of its countries
# ("Atlanta, Georgia" is the US state, "Tbilisi, Georgia" the country).
AMBIGUOUS: dict[str, tuple[tuple[str, str], ...]] = {
    "Georgia": (("state", "US GE"), ("state", "US"), ("country", "GE")),
    "Birmingham": (("city", "GB"), ("city", "GB"), ("city", "US")),
    "Cambridge": (("city", "GB"), ("city", "GB"), ("city", "US")),
    "Perth": (("city", "AU"), ("city", "AU"), ("city", "GB")),
    "Dublin": (("city", "IE"), ("city", "IE"), ("city", "US")),
    "Vienna": (("city", "AT"), ("city", "AT"), ("city", "US")),
    "Richmond": (("city", "US"), ("city", "US"), ("city", "GB"), ("city", "CA")),
    "Lancaster": (("city", "US"), ("city", "US"), ("city", "GB")),
    "Hamilton": (("city", "CA"), ("city", "CA"), ("city", "BM"), ("city", "NZ"), ("city", "GB")),
    "Punjab": (("state", "IN PK"), ("state", "IN"), ("state", "PK")),
    "Hyderabad": (("city", "IN"), ("city", "IN"), ("city", "PK")),
    "Limburg": (("state", "NL"), ("state", "NL"), ("state", "BE")),
    "London": (("city", "GB"), ("city", "GB"), ("city", "CA")),
    "Kingston": (("city", "JM"), ("city", "JM"), ("city", "CA")),
    "Victoria": (("state", "AU"), ("state", "AU"), ("city", "CA")),
    "Santiago": (("city", "CL"), ("city", "CL"), ("city", "ES")),
}

# Words that only name a place when written with a capital, because in lower case they are
# ordinary English: "polish the floor", "chad", "jordan" (a name), "guinea pig", "jersey", "cork".
CAPITALISED_ONLY: frozenset[str] = frozenset(
    {
        "polish",
        "pole",
        "chad",
        "jordan",
        "guinea",
        "jersey",
        "reunion",
        "chile",
        "cork",
        "derby",
        "phoenix",
        "buffalo",
        "providence",
        "victoria",
        "wellington",
        "lima",
        "bologna",
        "cologne",
        "muscat",
        "kiwi",
        "saga",
        "burgundy",
        "gulf",
        "limerick",
        "welsh",
        "madison",
        "charlotte",
        "durham",
        "halle",
        "mie",
        "nara",
        "kingston",
        "shannon",
        "regina",
        "mendoza",
        "darwin",
        "medina",
        "aden",
        "lao",
        "ulm",
        "turk",
        "scot",
        "brit",
        "dane",
        "finn",
        "swede",
        "york",
        "chester",
        "palma",
        "faro",
        "bergen",
        "sandton",
        "waterloo",
        "halifax",
        "plymouth",
        "goa",
        "java",
        "bali",
        "tibet",
        "essen",
        "anz",
        "cali",
        "kariya",
        "naha",
        "chandler",
        "mesa",
        "reno",
        "deerfield",
        "lexington",
        "savannah",
        "charleston",
        "burlington",
        "hamilton",
        "richmond",
        "lancaster",
    }
)
# Words that only name a place written entirely in capitals: "US" but not "us".
UPPERCASE_ONLY: frozenset[str] = frozenset({"us", "u s", "sea region"})
