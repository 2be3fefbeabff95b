"""Country groups of the gazetteer ("DACH", "Nordics", "APAC"), and the largest economies, which
order a region's countries when only some of them can be searched."""

from __future__ import annotations

# Country groups. Europe is geographic Europe without the two transcontinental giants (Russia,
# Turkey), which business usage rarely means by "European"; Asia likewise means East, South-East,
# South and Central Asia, with the Middle East its own region.
_EU27 = "AT BE BG HR CY CZ DK EE FI FR DE GR HU IE IT LV LT LU MT NL PL PT RO SK SI ES SE"
_EUROPE = _EU27 + " GB CH NO IS LI MC SM VA AD AL BA ME MK RS XK MD UA BY GI FO IM JE GG AX"
_WESTERN_EUROPE = "AT BE CH DE DK ES FI FR GB IE IS IT LI LU MC NL NO PT SE AD SM VA MT GR CY"
_CENTRAL_EUROPE = "DE AT CH PL CZ SK HU SI LI"
_EASTERN_EUROPE = "PL CZ SK HU RO BG EE LV LT SI HR BA RS ME MK AL XK UA BY MD RU"
_CEE = "PL CZ SK HU RO BG EE LV LT SI HR BA RS ME MK AL XK UA MD"
_SOUTHERN_EUROPE = "ES PT IT GR MT CY AD SM VA HR SI"
_NORTHERN_EUROPE = "DK FI IS NO SE EE LV LT GB IE FO AX"
_BALKANS = "SI HR BA RS ME MK AL XK BG RO GR"
_NORDIC = "DK FI IS NO SE FO GL AX"
_SCANDINAVIA = "DK NO SE FI IS"  # strictly DK NO SE; in business usage Finland and Iceland too
_EUROZONE = "AT BE HR CY EE FI FR DE GR IE IT LV LT LU MT NL PT SK SI ES"
_SOUTHEAST_ASIA = "BN KH ID LA MY MM PH SG TH VN TL"
_ASEAN = "BN KH ID LA MY MM PH SG TH VN"
_EAST_ASIA = "CN JP KR KP MN TW HK MO"
_SOUTH_ASIA = "IN PK BD LK NP BT MV AF"
_CENTRAL_ASIA = "KZ UZ TM KG TJ"
_OCEANIA = "AU NZ PG FJ SB VU WS TO KI FM MH NR PW TV NC PF GU CK NU"
_MIDDLE_EAST = "AE SA QA KW BH OM YE IQ IR IL JO LB SY PS TR EG CY"
_GCC = "AE SA QA KW BH OM"
_NORTH_AFRICA = "DZ EG LY MA TN SD EH"
_WEST_AFRICA = "BJ BF CV CI GM GH GN GW LR ML MR NE NG SN SL TG"
_EAST_AFRICA = "BI KM DJ ER ET KE MG MW MU MZ RW SC SO SS TZ UG ZM ZW"
_CENTRAL_AFRICA = "AO CM CF TD CG CD GQ GA ST"
_SOUTHERN_AFRICA = "BW LS NA ZA SZ"
_SUB_SAHARAN_AFRICA = " ".join((_WEST_AFRICA, _EAST_AFRICA, _CENTRAL_AFRICA, _SOUTHERN_AFRICA))
_AFRICA = _NORTH_AFRICA + " " + _SUB_SAHARAN_AFRICA
_MENA = _MIDDLE_EAST + " DZ LY MA TN MR"
_CENTRAL_AMERICA = "BZ CR SV GT HN NI PA"
_CARIBBEAN = "AG BS BB CU DM DO GD HT JM KN LC VC TT PR AI AW BQ VG KY CW GP MQ MS BL MF SX TC VI"
_SOUTH_AMERICA = "AR BO BR CL CO EC GY PY PE SR UY VE FK GF"
_NORTH_AMERICA = "US CA MX"
_LATIN_AMERICA = "MX " + _CENTRAL_AMERICA + " " + _SOUTH_AMERICA + " CU DO HT PR"
_AMERICAS = " ".join((_NORTH_AMERICA, _CENTRAL_AMERICA, _CARIBBEAN, _SOUTH_AMERICA))
_GREATER_CHINA = "CN HK MO TW"
_ASIA = " ".join((_EAST_ASIA, _SOUTHEAST_ASIA, _SOUTH_ASIA, _CENTRAL_ASIA))
_APAC = " ".join((_EAST_ASIA, _SOUTHEAST_ASIA, _SOUTH_ASIA, _OCEANIA))
_EMEA = " ".join((_EUROPE, _MIDDLE_EAST, _AFRICA, "RU"))

# The largest economies, largest first (nominal GDP, mid-2020s): where a region's companies mostly
# are, so a plan that can search only some of its countries starts here.
_ECONOMIES = (
    "US CN DE JP IN GB FR IT CA BR RU KR AU MX ES ID NL SA TR CH PL TW BE SE IE AR AT NO IL AE SG TH "
    "BD PH VN DK MY IR HK CO ZA EG RO CZ PK CL FI PT NZ PE KZ IQ GR DZ QA HU NG UA KW MA ET SK EC KE"
)
LARGEST_ECONOMIES = tuple(_ECONOMIES.split())

# (English names, Chinese names, countries). Plurals ("Nordics", "Baltics") are matched without
# being listed.
REGIONS: tuple[tuple[str, str, str], ...] = (
    ("DACH|D-A-CH|DACH region|German-speaking countries", "德语区|德奥瑞", "DE AT CH"),
    ("Nordic|Nordic countries|Nordic region", "北欧", _NORDIC),
    ("Scandinavia|Scandinavian", "斯堪的纳维亚", _SCANDINAVIA),
    ("Benelux", "比荷卢", "BE NL LU"),
    ("Baltic|Baltic states|Baltic countries", "波罗的海|波罗的海三国", "EE LV LT"),
    ("Iberia|Iberian|Iberian Peninsula", "伊比利亚|伊比利亚半岛", "ES PT AD"),
    ("Balkan|Balkans", "巴尔干", _BALKANS),
    ("EU|E.U.|European Union", "欧盟", _EU27),
    ("Eurozone|Euro area|Euro zone", "欧元区", _EUROZONE),
    ("Europe|European|Continental Europe", "欧洲|歐洲", _EUROPE),
    ("Western Europe|Western European|West Europe", "西欧", _WESTERN_EUROPE),
    ("Eastern Europe|Eastern European|East Europe", "东欧", _EASTERN_EUROPE),
    ("Central Europe|Central European", "中欧", _CENTRAL_EUROPE),
    (
        "Central and Eastern Europe|Central Eastern Europe|Central & Eastern Europe|CEE",
        "中东欧",
        _CEE,
    ),
    ("Southern Europe|Southern European|South Europe", "南欧", _SOUTHERN_EUROPE),
    ("Northern Europe|Northern European", "", _NORTHERN_EUROPE),
    (
        "Southeast Asia|South East Asia|South-East Asia|Southeast Asian|SEA region",
        "东南亚|東南亞",
        _SOUTHEAST_ASIA,
    ),
    ("ASEAN", "东盟", _ASEAN),
    ("East Asia|East Asian|Northeast Asia", "东亚|東亞", _EAST_ASIA),
    ("Far East", "远东", _EAST_ASIA + " " + _SOUTHEAST_ASIA),
    ("South Asia|South Asian|Indian subcontinent", "南亚", _SOUTH_ASIA),
    ("Central Asia|Central Asian", "中亚", _CENTRAL_ASIA),
    ("Asia|Asian", "亚洲|亞洲", _ASIA),
    ("Asia-Pacific|Asia Pacific|APAC|Asia Pac|Asia/Pacific", "亚太|亚太地区|亞太", _APAC),
    ("Middle East|Middle Eastern|Mideast|West Asia|Western Asia", "中东|中東|西亚", _MIDDLE_EAST),
    ("MENA|Middle East and North Africa", "中东北非", _MENA),
    (
        "GCC|Gulf|Gulf states|Gulf region|Gulf countries|Persian Gulf|Arabian Gulf|Gulf Cooperation Council",
        "海湾国家|海湾地区|海合会",
        _GCC,
    ),
    ("EMEA", "", _EMEA),
    ("Gulf of Mexico", "墨西哥湾", "US MX"),
    ("Africa|African", "非洲", _AFRICA),
    (
        "Sub-Saharan Africa|Subsaharan Africa|Sub-Saharan|Sub-Saharan African",
        "撒哈拉以南非洲|撒哈拉以南",
        _SUB_SAHARAN_AFRICA,
    ),
    ("North Africa|North African|Northern Africa", "北非", _NORTH_AFRICA),
    ("West Africa|West African", "西非", _WEST_AFRICA),
    ("East Africa|East African", "东非", _EAST_AFRICA),
    ("Southern Africa", "南部非洲", _SOUTHERN_AFRICA),
    ("Latin America|Latin American|LATAM|LatAm|Latinoamerica", "拉丁美洲|拉美", _LATIN_AMERICA),
    ("South America|South American", "南美|南美洲", _SOUTH_AMERICA),
    ("Central America|Central American", "中美洲", _CENTRAL_AMERICA),
    ("North America|North American", "北美|北美洲", _NORTH_AMERICA),
    ("Caribbean", "加勒比|加勒比海", _CARIBBEAN),
    ("Americas|the Americas", "美洲", _AMERICAS),
    ("Oceania", "大洋洲", _OCEANIA),
    ("Australasia|ANZ", "澳新", "AU NZ"),
    ("Greater China", "大中华区|大中华|大中華", _GREATER_CHINA),
    ("", "港澳台", "HK MO TW"),
    ("", "欧美", _EUROPE + " US CA"),
    ("", "日韩", "JP KR"),
)
