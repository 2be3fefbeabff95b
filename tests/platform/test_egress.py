"""Calls to user-given URLs (`platform/egress.py`): which URLs and addresses are refused, that every
address a name resolves to must pass, and that the connection goes to the checked address."""

from __future__ import annotations

import ipaddress
import socket
import threading
from typing import Any

import pytest

from leadwire.platform.egress import AddressRefused, EgressRefused, Unresolvable, refusal, resolve


@pytest.mark.parametrize(
    "address",
    ["127.0.0.1", "10.0.0.5", "172.16.3.4", "192.168.1.1", "100.64.0.1", "169.254.1.1", "::1", "fe80::1",
     "fc00::1", "::ffff:10.0.0.1", "0.0.0.0"],
)  # fmt: skip
def test_private_loopback_and_link_local_addresses_are_refused_by_default(address: str) -> None:
    assert refusal(ipaddress.ip_address(address), allow_private=False) is not None


@pytest.mark.parametrize("address", ["10.0.0.5", "127.0.0.1", "::1", "192.168.1.1"])
def test_the_operators_setting_opens_private_addresses(address: str) -> None:
    assert refusal(ipaddress.ip_address(address), allow_private=True) is None


@pytest.mark.parametrize(
    "address", ["169.254.169.254", "fd00:ec2::254", "::ffff:169.254.169.254", "224.0.0.1"]
)
def test_metadata_and_multicast_addresses_stay_refused_even_when_private_ones_are_allowed(
    address: str,
) -> None:
    assert refusal(ipaddress.ip_address(address), allow_private=True) is not None


def test_public_addresses_pass() -> None:
    assert refusal(ipaddress.ip_address("93.184.216.34"), allow_private=False) is None
    assert refusal(ipaddress.ip_address("2606:2800:220:1::1"), allow_private=False) is None


async def test_a_name_with_one_private_address_among_public_ones_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def answers(host: Any, port: Any, *args: Any, **kwargs: Any) -> list[Any]:
        return [
            (socket.AF_INET, socket.SOCK_STREAM, 6, "", ("93.184.216.34", port)),
            (socket.AF_INET, socket.SOCK_STREAM, 6, "", ("10.0.0.7", port)),
        ]

    monkeypatch.setattr(socket, "getaddrinfo", answers)
    with pytest.raises(AddressRefused) as refused:
        await resolve("https://split.example/hook", allow_private=False)
    # What the name resolved to is not told: the check is no way to look up the operator's names.
    assert refused.value.reason == "the URL's host is not allowed: a private or reserved address"
    assert "10.0.0.7" not in str(refused.value) and "93.184" not in str(refused.value)


@pytest.mark.parametrize(
    "url",
    ["https://127.0.0.1/in", "https://[::1]/in", "https://169.254.169.254/in", "https://[::7f00:1]/in"],
)
async def test_a_refused_literal_is_told_in_the_same_words_without_its_kind(url: str) -> None:
    with pytest.raises(AddressRefused) as refused:
        await resolve(url, allow_private=False)
    assert refused.value.reason == "the URL's host is not allowed: a private or reserved address"


async def test_a_lookup_past_its_timeout_is_unresolvable_and_holds_no_event_loop(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The resolver hangs (a blocking call, as getaddrinfo is): the check gives up after its timeout,
    which only a lookup run off the event loop lets it do, and says the name did not resolve in time."""
    release = threading.Event()

    def hanging(host: Any, port: Any, *args: Any, **kwargs: Any) -> list[Any]:
        release.wait(timeout=30)
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("93.184.216.34", port))]

    monkeypatch.setattr(socket, "getaddrinfo", hanging)
    try:
        with pytest.raises(Unresolvable, match=r"did not resolve within 0\.2 s"):
            await resolve("https://slow.example/hook", allow_private=False, lookup_timeout=0.2)
    finally:
        release.set()


async def test_the_checked_address_is_where_the_request_goes(monkeypatch: pytest.MonkeyPatch) -> None:
    def answers(host: Any, port: Any, *args: Any, **kwargs: Any) -> list[Any]:
        return [(socket.AF_INET6, socket.SOCK_STREAM, 6, "", ("2606:2800:220:1::1", port, 0, 0))]

    monkeypatch.setattr(socket, "getaddrinfo", answers)
    target = await resolve("https://hooks.example:8443/in?x=1", allow_private=False)
    assert target.pinned_url() == "https://[2606:2800:220:1::1]:8443/in?x=1"
    assert target.host_header == "hooks.example:8443" and target.host == "hooks.example"


async def test_plain_http_reaches_only_private_receivers() -> None:
    with pytest.raises(EgressRefused, match="https"):
        await resolve("http://93.184.216.34/hook", allow_private=True)
    assert (await resolve("http://127.0.0.1:9000/hook", allow_private=True)).host_header == "127.0.0.1:9000"
    with pytest.raises(EgressRefused, match="https"):
        await resolve("http://127.0.0.1:9000/hook", allow_private=False)


async def test_a_name_that_does_not_resolve_is_refused_at_send() -> None:
    with pytest.raises(EgressRefused, match="does not resolve"):
        await resolve("https://nothing.invalid/hook", allow_private=False)


@pytest.mark.parametrize(
    "address",
    ["64:ff9b::a00:1", "64:ff9b::7f00:1", "2002:a00:1::", "2001:0:4136:e378:8000:63bf:3fff:fdd2"],
)
def test_ipv6_addresses_that_reach_private_ipv4_ones_are_refused(address: str) -> None:
    """NAT64 and 6to4 carry an IPv4 address (10.0.0.1, 127.0.0.1 here); Teredo tunnels are refused."""
    assert refusal(ipaddress.ip_address(address), allow_private=False) is not None


@pytest.mark.parametrize(
    ("address", "reason"),
    [
        ("::7f00:1", "a private, loopback or link-local address"),  # IPv4-compatible 127.0.0.1
        ("::127.0.0.1", "a private, loopback or link-local address"),
        ("::a00:1", "a private, loopback or link-local address"),  # 10.0.0.1
        ("::a9fe:a9fe", "a cloud metadata address"),  # 169.254.169.254
        ("::ffff:0:7f00:1", "a private, loopback or link-local address"),  # IPv4-translated 127.0.0.1
        ("::ffff:0:a9fe:a9fe", "a cloud metadata address"),
    ],
)
def test_ipv4_compatible_and_translated_addresses_are_judged_by_their_ipv4_address(
    address: str, reason: str
) -> None:
    """Python judges these forms global; a stack that honours them reaches the IPv4 address inside."""
    assert refusal(ipaddress.ip_address(address), allow_private=False) == reason


def test_ipv4_compatible_forms_of_public_addresses_pass_and_the_loopback_stays_itself() -> None:
    assert refusal(ipaddress.ip_address("::93.184.216.34"), allow_private=False) is None
    assert refusal(ipaddress.ip_address("::ffff:0:5db8:d822"), allow_private=False) is None
    assert refusal(ipaddress.ip_address("::1"), allow_private=True) is None
    assert refusal(ipaddress.ip_address("::"), allow_private=True) == "not a unicast address"


@pytest.mark.parametrize("host", ["[::7f00:1]", "[::127.0.0.1]", "[::a9fe:a9fe]", "[::ffff:0:7f00:1]"])
async def test_urls_on_ipv4_compatible_and_translated_literals_are_refused(host: str) -> None:
    with pytest.raises(AddressRefused):
        await resolve(f"https://{host}/hook", allow_private=False)


def test_metadata_through_nat64_stays_refused() -> None:
    assert (
        refusal(ipaddress.ip_address("64:ff9b::a9fe:a9fe"), allow_private=True) == "a cloud metadata address"
    )


async def test_an_internationalised_name_goes_out_as_its_ascii_form(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[Any] = []

    def answers(host: Any, port: Any, *args: Any, **kwargs: Any) -> list[Any]:
        seen.append(host)
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("93.184.216.34", port))]

    monkeypatch.setattr(socket, "getaddrinfo", answers)
    target = await resolve("https://bücher.example/hook", allow_private=False)
    assert target.host == "xn--bcher-kva.example" and seen == ["xn--bcher-kva.example"]
