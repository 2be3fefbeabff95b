"""The sector scheme company lists are labelled with (GICS), read onto NAICS 2022 classes.

Index-constituent lists and data vendors label a company "Industrials", "Capital Goods", "Machinery" or
"Construction Machinery & Heavy Transportation Equipment": the four levels of GICS (sector, industry
group, industry, sub-industry). The names come from the ``gics`` package (every published version, so
renamed nodes such as "Personal Products" are known too); what each GICS industry gathers is written
here once as NAICS classes, and every other level follows from it: a sub-industry names its industry's
classes, a group or sector the union of its industries'. How broad a name is then shows in its classes:
"Industrials" names a dozen unrelated ones, "Banks" one.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from gics.definitions import d_20140228, d_20160901, d_20180929, d_20230318

_VERSIONS = (d_20230318, d_20180929, d_20160901, d_20140228)  # newest first: its names win

# GICS industry (6 digits) -> the NAICS classes of the businesses it gathers.
INDUSTRY_CLASSES: dict[str, tuple[str, ...]] = {
    "101010": ("213", "333132"),  # Energy Equipment & Services
    "101020": ("211", "324", "486", "2121"),  # Oil, Gas & Consumable Fuels
    "151010": ("3251", "3252", "3253", "3255", "3259"),  # Chemicals (not pharmaceuticals)
    "151020": ("327",),  # Construction Materials
    "151030": ("3222", "32616", "33243", "327213"),  # Containers & Packaging
    "151040": ("212", "331"),  # Metals & Mining
    "151050": ("322", "321", "113"),  # Paper & Forest Products
    "201010": ("3364", "336992"),  # Aerospace & Defense
    "201020": ("3323", "3334", "3219"),  # Building Products
    "201030": ("236", "237", "238", "5413"),  # Construction & Engineering
    "201040": ("335",),  # Electrical Equipment
    "201050": ("5511",),  # Industrial Conglomerates
    "201060": ("333",),  # Machinery
    "201070": ("423",),  # Trading Companies & Distributors
    "202010": ("561", "562", "323"),  # Commercial Services & Supplies
    "202020": ("541", "5613"),  # Professional Services
    "203010": ("492", "4885"),  # Air Freight & Logistics
    "203020": ("4811",),  # Passenger Airlines
    "203030": ("483",),  # Marine Transportation
    "203040": ("482", "484", "485"),  # Ground Transportation (Road & Rail)
    "203050": ("4881", "4883", "4884"),  # Transportation Infrastructure
    "251010": ("3363", "32621"),  # Automobile Components
    "251020": ("3361", "336991"),  # Automobiles
    "252010": ("2361", "3352", "3371", "3343"),  # Household Durables
    "252020": ("33992", "33993"),  # Leisure Products
    "252030": ("313", "315", "316", "33991"),  # Textiles, Apparel & Luxury Goods
    "253010": ("721", "722", "713"),  # Hotels, Restaurants & Leisure
    "253020": ("611", "812"),  # Diversified Consumer Services
    "254010": ("516", "513", "512", "5418"),  # Media (before 2018)
    "255010": ("423", "424"),  # Distributors
    "255020": ("44",),  # Internet & Direct Marketing Retail
    "255030": ("455",),  # Broadline Retail
    "255040": ("441", "444", "449", "458", "459"),  # Specialty Retail
    "301010": ("445", "456"),  # Consumer Staples Distribution & Retail
    "302010": ("3121",),  # Beverages
    "302020": ("311", "111"),  # Food Products
    "302030": ("3122",),  # Tobacco
    "303010": ("32561", "322291"),  # Household Products
    "303020": ("32562",),  # Personal Care Products
    "351010": ("3391", "334510"),  # Health Care Equipment & Supplies
    "351020": ("62", "524114", "4242"),  # Health Care Providers & Services
    "351030": ("5132", "62"),  # Health Care Technology
    "352010": ("325414", "5417"),  # Biotechnology
    "352020": ("3254",),  # Pharmaceuticals
    "352030": ("334516", "5417"),  # Life Sciences Tools & Services
    "401010": ("5221",),  # Banks
    "401020": ("5221", "5222"),  # Thrifts & Mortgage Finance
    "402010": ("522", "523", "525"),  # (Diversified) Financial Services
    "402020": ("5222",),  # Consumer Finance
    "402030": ("523",),  # Capital Markets
    "402040": ("525",),  # Mortgage REITs
    "403010": ("524",),  # Insurance
    "404010": ("531",),  # Real Estate (until 2006)
    "404020": ("525", "531"),  # Real Estate Investment Trusts
    "404030": ("531",),  # Real Estate Management & Development
    "451010": ("519", "518"),  # Internet Software & Services
    "451020": ("5415", "518"),  # IT Services
    "451030": ("5132",),  # Software
    "452010": ("3342",),  # Communications Equipment
    "452020": ("3341",),  # Technology Hardware, Storage & Peripherals
    "452030": ("3345", "3344"),  # Electronic Equipment, Instruments & Components
    "452040": ("3333",),  # Office Electronics
    "452050": ("334413", "333242"),  # Semiconductor Equipment & Products (until 2003)
    "453010": ("334413", "333242"),  # Semiconductors & Semiconductor Equipment
    "501010": ("517",),  # Diversified Telecommunication Services
    "501020": ("517112",),  # Wireless Telecommunication Services
    "502010": ("516", "513", "5418"),  # Media
    "502020": ("512", "711"),  # Entertainment
    "502030": ("519",),  # Interactive Media & Services
    "551010": ("2211",),  # Electric Utilities
    "551020": ("2212",),  # Gas Utilities
    "551030": ("2211", "2212"),  # Multi-Utilities
    "551040": ("2213",),  # Water Utilities
    "551050": ("2211",),  # Independent Power and Renewable Electricity Producers
    "601010": ("525", "531"),  # Diversified REITs
    "601020": ("531",),  # Real Estate Management & Development
    "601025": ("525", "531"),  # Industrial REITs
    "601030": ("525", "531"),  # Hotel & Resort REITs
    "601040": ("525", "531"),  # Office REITs
    "601050": ("525", "531"),  # Health Care REITs
    "601060": ("525", "531"),  # Residential REITs
    "601070": ("525", "531"),  # Retail REITs
    "601080": ("525", "531"),  # Specialized REITs
    "602010": ("531",),  # Real Estate Management & Development
}

# Sub-industries whose business is plainly not their industry's whole: the classes of their own.
SUB_INDUSTRY_CLASSES: dict[str, tuple[str, ...]] = {
    "20106010": ("33312", "33612", "3365", "3366"),  # Construction Machinery & Heavy Transportation Equipment
    "35101010": ("3391", "334510"),  # Health Care Equipment
    "35101020": ("3391",),  # Health Care Supplies
    "25201010": ("3343",),  # Consumer Electronics
    "25201020": ("337",),  # Home Furnishings
    "25201030": ("2361",),  # Homebuilding
    "25201040": ("3352",),  # Household Appliances
    "25301010": ("7132",),  # Casinos & Gaming
    "25301020": ("721",),  # Hotels, Resorts & Cruise Lines
    "25301030": ("713",),  # Leisure Facilities
    "25301040": ("722",),  # Restaurants
    "50201020": ("5171", "516"),  # Cable & Satellite
}


@dataclass(frozen=True, slots=True)
class SchemeName:
    """A GICS name: the NAICS classes it names, and whether it gathers several GICS industries (a
    sector or an industry group of more than one) rather than naming one."""

    classes: frozenset[str]
    broad: bool


@cache
def phrases() -> dict[str, SchemeName]:
    """Every GICS name (all levels, all versions) with what it names.

    A group's or sector's classes are those of its industries in the same version (Real Estate was a
    part of Financials until 2016), and a name keeps the reading of the newest version that uses it.
    """
    out: dict[str, SchemeName] = {}
    for version in _VERSIONS:
        industries = [code for code in version if len(code) == 6]
        for code, node in version.items():
            name = " ".join(str(node.get("name", "")).split())
            name = name.split(" -- ")[0].split(" - Discontinued")[0].strip()
            members = [industry for industry in industries if industry.startswith(code)]
            classes = _classes(code, members)
            if name and classes and name not in out:
                out[name] = SchemeName(classes, broad=len(code) < 6 and len(members) > 1)
    return out


def _classes(code: str, members: list[str]) -> frozenset[str]:
    """The NAICS classes of a GICS code at any level (2, 4, 6 or 8 digits), from its industries."""
    if len(code) == 8:
        return frozenset(SUB_INDUSTRY_CLASSES.get(code) or INDUSTRY_CLASSES.get(code[:6], ()))
    return frozenset(c for industry in members for c in INDUSTRY_CLASSES.get(industry, ()))
