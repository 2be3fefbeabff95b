"""The console cookie's Secure flag: set when the request came over https, which a proxy says with
X-Forwarded-Proto only from an address of `LEADWIRE_TRUSTED_PROXIES` (a real server here, since uvicorn
reads the header), and always when `LEADWIRE_CONSOLE_SECURE_COOKIES` is on."""

from __future__ import annotations

import httpx
import pydantic
import pytest

from leadwire.config import Settings
from leadwire.console.web import SIGN_IN_COOKIE
from leadwire.platform.runtime import Runtime
from tests.console.signing import SIGN_IN
from tests.support.served import served_app

HTTPS_PROXY = {"X-Forwarded-Proto": "https"}


def _cookie(response: httpx.Response) -> str:
    assert response.status_code == 200, response.text
    return next(c for c in response.headers.get_list("set-cookie") if c.startswith(f"{SIGN_IN_COOKIE}="))


async def _sign_in_cookie(settings: Settings, headers: dict[str, str]) -> str:
    async with (
        served_app(settings, worker=False) as served,
        httpx.AsyncClient(base_url=served.base_url) as http,
    ):
        return _cookie(await http.get(SIGN_IN, headers=headers))


async def test_a_trusted_proxys_https_makes_the_cookie_secure(settings: Settings) -> None:
    """The default trusts loopback, where this test's client connects from."""
    assert "Secure" in await _sign_in_cookie(settings, HTTPS_PROXY)
    assert "Secure" not in await _sign_in_cookie(settings, {})


async def test_a_proxy_header_from_an_untrusted_address_is_ignored(settings: Settings) -> None:
    elsewhere = settings.model_copy(update={"trusted_proxies": "10.0.0.0/8,fd00::/8"})
    assert "Secure" not in await _sign_in_cookie(elsewhere, HTTPS_PROXY)


async def test_a_network_written_with_host_bits_counts_as_its_network(settings: Settings) -> None:
    """127.0.0.5/8 is loopback's network: uvicorn, given it as written, took it for a peer's name and
    trusted nobody, so the cookie lost Secure behind the very proxy the operator named."""
    loopback = settings.model_copy(update={"trusted_proxies": "10.0.0.1,127.0.0.5/8"})
    assert "Secure" in await _sign_in_cookie(loopback, HTTPS_PROXY)


async def test_the_operator_can_force_secure_cookies(settings: Settings) -> None:
    forced = settings.model_copy(update={"console_secure_cookies": True, "trusted_proxies": "10.0.0.1"})
    assert "Secure" in await _sign_in_cookie(forced, {})


async def test_the_in_process_app_forces_it_too(
    client: httpx.AsyncClient, runtime: Runtime, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Plain http, no proxy: without the setting no Secure (tests/console/test_console.py)."""
    monkeypatch.setattr(runtime.settings, "console_secure_cookies", True)
    assert "Secure" in _cookie(await client.get(SIGN_IN))


@pytest.mark.parametrize("value", ["proxy.internal", "10.0.0.0/33", "127.0.0.1,,nonsense"])
def test_trusted_proxies_are_addresses_or_networks(value: str) -> None:
    with pytest.raises(pydantic.ValidationError, match="not an address or a CIDR network"):
        Settings(trusted_proxies=value)


def test_trusted_proxies_take_addresses_networks_or_any() -> None:
    assert Settings(trusted_proxies="127.0.0.1, ::1, 10.0.0.0/8").trusted_proxy_list == [
        "127.0.0.1",
        "::1",
        "10.0.0.0/8",
    ]
    assert Settings(trusted_proxies="*").trusted_proxy_list == ["*"]


def test_trusted_proxies_are_written_as_uvicorn_reads_them() -> None:
    peers = Settings(trusted_proxies="10.0.0.5/8, ::0001, FD00::1/8, 192.168.1.7").trusted_proxy_list
    assert peers == ["10.0.0.0/8", "::1", "fd00::/8", "192.168.1.7"]


@pytest.mark.parametrize("value", ["*,10.0.0.1", "10.0.0.0/8, *"])
def test_any_peer_stands_alone(value: str) -> None:
    """uvicorn trusts every peer only for a lone `*`; beside an address it is a name nobody has."""
    with pytest.raises(pydantic.ValidationError, match="stands alone"):
        Settings(trusted_proxies=value)
