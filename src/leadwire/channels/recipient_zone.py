"""A recipient's timezone, as far as their address tells it: a phone number's region (libphonenumber's
timezone data) or an email domain's country-code TLD when that country keeps one zone (the IANA
database's zone.tab). A LinkedIn profile URL names no place, and a generic domain (`.com`) or a country
whose zones keep different clocks (the US, Russia) tells nothing certain: those fall back to the
account's timezone. A country whose zones all keep one clock (Germany's Berlin and Busingen) is one.
"""

from __future__ import annotations

import functools
from collections import defaultdict
from datetime import UTC, datetime
from importlib import resources
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import phonenumbers
from phonenumbers import timezone as phone_zones

# Country-code TLDs that are not the country's ISO 3166 code.
_TLD_COUNTRY = {"uk": "GB"}
_SYSTEM_ZONE_TAB = Path("/usr/share/zoneinfo/zone.tab")


@functools.cache
def _zones_by_country() -> dict[str, tuple[str, ...]]:
    """ISO country code → its IANA zones, from zone.tab (the tzdata package's, else the system's)."""
    try:
        text = resources.files("tzdata").joinpath("zoneinfo", "zone.tab").read_text()
    except (ModuleNotFoundError, FileNotFoundError):
        text = _SYSTEM_ZONE_TAB.read_text() if _SYSTEM_ZONE_TAB.exists() else ""
    zones: dict[str, list[str]] = defaultdict(list)
    for line in text.splitlines():
        if line and not line.startswith("#"):
            parts = line.split("\t")
            if len(parts) >= 3:
                zones[parts[0]].append(parts[2])
    return {country: tuple(names) for country, names in zones.items()}


# Two instants half a year apart: zones that agree on both keep one clock, summer time included.
_PROBES = (datetime(2026, 1, 15, 12, tzinfo=UTC), datetime(2026, 7, 15, 12, tzinfo=UTC))


@functools.cache
def _country_zone(country: str) -> str | None:
    """The zone of a country whose zones all keep one clock, else None."""
    zones = _zones_by_country().get(country, ())
    clocks = {tuple(probe.astimezone(ZoneInfo(zone)).utcoffset() for probe in _PROBES) for zone in zones}
    return zones[0] if len(clocks) == 1 else None


def _from_phone(phone: str) -> str | None:
    try:
        number = phonenumbers.parse(phone, None)
    except phonenumbers.NumberParseException:
        return None
    found = [z for z in phone_zones.time_zones_for_number(number) if z != phone_zones.UNKNOWN_TIMEZONE]
    return found[0] if len(found) == 1 else None


def _from_email(address: str) -> str | None:
    domain = address.rpartition("@")[2].rstrip(".").lower()
    tld = domain.rpartition(".")[2]
    if len(tld) != 2:
        return None
    return _country_zone(_TLD_COUNTRY.get(tld, tld.upper()))


def recipient_timezone(recipient: dict[str, Any], *, fallback: str) -> tuple[str, str]:
    """(zone, where it came from: `phone`, `email_domain` or `account`)."""
    if isinstance(phone := recipient.get("phone"), str) and (zone := _from_phone(phone)):
        return zone, "phone"
    if isinstance(address := recipient.get("address"), str) and (zone := _from_email(address)):
        return zone, "email_domain"
    return fallback, "account"
