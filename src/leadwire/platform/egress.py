"""Requests to URLs a user gave (webhook endpoints): the checks that keep them off the operator's own
network, and a connection pinned to the address that was checked.

A user-given URL could name the cloud's metadata service, the database or an admin port on loopback:
a server that calls it for them is a proxy into its own network (server-side request forgery). So the
host is resolved at every request, every address it resolves to must be public, and the request then
connects to the checked address itself (the name goes in `Host` and in TLS's SNI), so a DNS answer that
changes between the check and the connection (rebinding) cannot move it. Redirects are never followed.

`allow_private` (the operator's setting) opens private, loopback and link-local addresses, for a
deployment that delivers inside its own network. The cloud metadata addresses stay closed even then:
no receiver lives there, and a token read from one is the worst leak of all.

A refusal never says which address a name resolved to: the answer would turn the check into a way to
look up the operator's internal names. The lookup runs in a thread (the event loop goes on), and a
caller that must answer promptly bounds it (`lookup_timeout`).
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
from dataclasses import dataclass
from urllib.parse import SplitResult, urlsplit

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
MAX_URL_LENGTH = 2048
NAT64 = ipaddress.ip_network("64:ff9b::/96")  # the well-known prefix: IPv4 addresses inside IPv6
# IPv4-compatible (`::a.b.c.d`, deprecated, and `::` and `::1` aside) and IPv4-translated
# (`::ffff:0:a.b.c.d`) addresses: a stack or translator that honours them reaches the IPv4 address.
IPV4_COMPATIBLE = ipaddress.ip_network("::/96")
IPV4_TRANSLATED = ipaddress.ip_network("::ffff:0:0:0/96")
NOT_ALLOWED = "the URL's host is not allowed: a private or reserved address"
METADATA_ADDRESSES = frozenset(
    ipaddress.ip_address(a) for a in ("169.254.169.254", "169.254.170.2", "fd00:ec2::254", "100.100.100.200")
)


class EgressRefused(Exception):
    """The URL may not be called; `reason` says why in a sentence for the caller."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class AddressRefused(EgressRefused):
    """The URL is well formed, but its host resolves to an address that may not be called."""


class Unresolvable(EgressRefused):
    """The host does not resolve (now): nothing can be said of its addresses yet."""


@dataclass(frozen=True)
class Target:
    """A checked URL: where to connect (`address`) and what to say the host is."""

    url: str
    scheme: str
    host: str
    port: int
    path: str  # with the query
    address: IPAddress

    def pinned_url(self) -> str:
        """The URL with the checked address in place of the name."""
        literal = f"[{self.address}]" if self.address.version == 6 else str(self.address)
        return f"{self.scheme}://{literal}:{self.port}{self.path}"

    @property
    def host_header(self) -> str:
        default = 443 if self.scheme == "https" else 80
        name = f"[{self.host}]" if ":" in self.host else self.host
        return name if self.port == default else f"{name}:{self.port}"


def parse(url: str, *, allow_private: bool) -> SplitResult:
    """The URL's parts, or `EgressRefused` for one that is not an absolute http(s) URL we may call.
    Plain http is for private receivers only (`allow_private`): on the internet a signed body still
    travels readable."""
    if len(url) > MAX_URL_LENGTH:
        raise EgressRefused(f"the URL is longer than {MAX_URL_LENGTH} characters")
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018  (raises on a port that is not a number)
    except ValueError:
        raise EgressRefused("the URL is not a valid URL") from None
    if parts.scheme not in ("https", "http") or not parts.hostname:
        raise EgressRefused("the URL must be an absolute https:// URL")
    if parts.scheme == "http" and not allow_private:
        raise EgressRefused("the URL must use https")
    if parts.username is not None or parts.password is not None:
        raise EgressRefused("the URL must not carry a user name or password")
    if parts.fragment:
        raise EgressRefused("the URL must not have a #fragment")
    return parts


def _embedded_ipv4(address: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    """The IPv4 address an IPv6 one reaches (mapped, compatible, translated, NAT64, 6to4), if any."""
    if address.ipv4_mapped is not None:
        return address.ipv4_mapped
    if address in NAT64 or address in IPV4_TRANSLATED:
        return ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    if address in IPV4_COMPATIBLE and int(address) > 1:  # `::` and `::1` are judged as themselves
        return ipaddress.IPv4Address(int(address))
    return address.sixtofour


def refusal(address: IPAddress, *, allow_private: bool) -> str | None:
    """Why `address` may not be called (for tests and the operator, never told to the caller: see
    `NOT_ALLOWED`), or None. An IPv6 address that carries an IPv4 one (mapped, compatible, translated,
    NAT64, 6to4) is judged by the IPv4 address it reaches; Teredo tunnels are refused."""
    if isinstance(address, ipaddress.IPv6Address):
        if address.teredo is not None:
            return "a Teredo tunnel address"
        address = _embedded_ipv4(address) or address
    if address in METADATA_ADDRESSES:
        return "a cloud metadata address"
    if address.is_multicast or address.is_unspecified:
        return "not a unicast address"
    if not address.is_global and not allow_private:
        return "a private, loopback or link-local address"
    return None


async def resolve(url: str, *, allow_private: bool, lookup_timeout: float | None = None) -> Target:
    """Check `url` and the addresses its host resolves to now; the first address to connect to. A
    lookup that takes longer than `lookup_timeout` seconds is `Unresolvable` (the thread that runs it
    is left to finish; nothing waits for it)."""
    parts = parse(url, allow_private=allow_private)
    try:  # an internationalised name travels as its ASCII form, in Host and in TLS
        host = (parts.hostname or "").encode("idna").decode("ascii")
    except UnicodeError:
        raise EgressRefused("the URL's host is not a valid name") from None
    port = parts.port or (443 if parts.scheme == "https" else 80)
    try:
        literal: IPAddress | None = ipaddress.ip_address(host)
    except ValueError:
        literal = None
    if literal is not None:
        addresses = [literal]
    else:
        try:
            async with asyncio.timeout(lookup_timeout):
                found = await asyncio.get_running_loop().getaddrinfo(
                    host, port, type=socket.SOCK_STREAM, proto=socket.IPPROTO_TCP
                )
        except (OSError, UnicodeError) as failure:  # TimeoutError is an OSError
            late = isinstance(failure, TimeoutError) and lookup_timeout is not None
            said = f"did not resolve within {lookup_timeout:g} s" if late else "does not resolve"
            raise Unresolvable(f"the host {host} {said}") from None
        addresses = list(dict.fromkeys(ipaddress.ip_address(info[4][0]) for info in found))
        if not addresses:
            raise Unresolvable(f"the host {host} does not resolve")
    # Every address must pass: a name answering one public and one private address is refused, since
    # which one a connection gets is the resolver's choice, not ours.
    for address in addresses:
        if refusal(address, allow_private=allow_private) is not None:
            raise AddressRefused(NOT_ALLOWED)
        if parts.scheme == "http" and address.is_global:
            raise EgressRefused("the URL must use https (plain http reaches private receivers only)")
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return Target(url=url, scheme=parts.scheme, host=host, port=port, path=path, address=addresses[0])
