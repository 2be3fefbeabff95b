"""One HTTP call to an outreach provider, with transport failures mapped onto the channel port.

A failure before the request left (connect errors) certainly sent nothing: `provider_unavailable`.
A failure after it left (a read timeout, a dropped connection) may have let the provider act: when the
call is one that acts (sends, invites, reacts), `provider_error` with `sent_unknown=True`.
"""

from __future__ import annotations

from typing import Any, Final

import httpx

from leadwire.providers.channels import ChannelError

NOT_SENT: Final = (httpx.ConnectError, httpx.ConnectTimeout, httpx.PoolTimeout, httpx.UnsupportedProtocol)


async def channel_request(
    client: httpx.AsyncClient | None, method: str, url: str, *, timeout: float, acts: bool, **kwargs: Any
) -> httpx.Response:
    try:
        if client is not None:
            return await client.request(method, url, timeout=timeout, **kwargs)
        async with httpx.AsyncClient(timeout=timeout) as own:
            return await own.request(method, url, **kwargs)
    except NOT_SENT as exc:
        raise ChannelError("provider_unavailable", type(exc).__name__) from None
    except httpx.HTTPError as exc:
        if acts:
            raise ChannelError("provider_error", type(exc).__name__, sent_unknown=True) from None
        raise ChannelError("provider_unavailable", type(exc).__name__) from None
