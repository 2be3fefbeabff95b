"""LinkedIn through Unipile: a client of Unipile's documented REST API (``https://{dsn}/api/v1``).

It implements the outreach channel port for LinkedIn — a chat message to a first-degree connection,
otherwise an invitation with the text as its note — and the engagement capability behind the
post-like endpoint: list a profile's recent posts and like one.

Failures become ``ChannelError`` codes. Nothing that can still have reached LinkedIn is reported as
``provider_unavailable``: a read timeout, a dropped connection or a 5xx on a POST that acts (chat,
invitation, reaction) is ``provider_error`` with ``sent_unknown=True``. The API key travels only in the
``X-API-KEY`` header and is scrubbed from every error detail.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Final
from urllib.parse import quote

import httpx

from leadwire.platform.time import utcnow
from leadwire.providers.channels import (
    RATE_LIMIT_PAUSE_SECONDS,
    Attachment,
    ChannelError,
    DeliveryReceipt,
    LinkedInPost,
    OutboundMessage,
    linkedin_profile_url,
    retry_after_seconds,
)
from leadwire.providers.http import channel_request

PROVIDER: Final = "unipile"
INVITATION_NOTE_LIMIT: Final = 300
MAX_POSTS: Final = 100  # Unipile's page-size ceiling for the posts listing

_CONNECTED_DISTANCES: Final = frozenset({"FIRST_DEGREE", "DISTANCE_1"})


# Failures raised before the request left: the upstream cannot have acted on it.
@dataclass(frozen=True)
class LinkedInProfile:
    provider_id: str
    network_distance: str | None
    is_relationship: bool

    @property
    def connected(self) -> bool:
        return self.is_relationship or self.network_distance in _CONNECTED_DISTANCES


class UnipileLinkedIn:
    """One linked LinkedIn account on one Unipile instance; safe to share between concurrent jobs."""

    def __init__(
        self,
        dsn: str,
        api_key: str,
        account_id: str,
        client: httpx.AsyncClient | None = None,
        timeout: float = 30.0,
    ) -> None:
        host = dsn.strip().removeprefix("https://").removeprefix("http://").rstrip("/")
        if not host:
            raise ValueError("dsn must be the Unipile host, e.g. api1.unipile.com:13111")
        self._base = f"https://{host}/api/v1"
        self._api_key = api_key
        self._account_id = account_id
        self._client = client
        self._timeout = timeout

    # -- the channel port -------------------------------------------------------------------------

    async def send(self, message: OutboundMessage) -> DeliveryReceipt:
        """A chat message to a connection, otherwise an invitation whose note is the text.

        An invitation cannot carry files: to someone not yet connected only the text goes, as the note.
        A note over LinkedIn's 300 characters fails with `invitation_note_too_long` before anything is
        sent, rather than reaching the person cut short.
        """
        text = (message.text or "").strip()
        profile = await self.profile(str(message.recipient.get("profile_url") or ""))
        if profile.connected:
            if not text and not message.attachments:
                raise ChannelError("provider_rejected", "a LinkedIn message needs text or an attachment")
            chat = await self.start_chat(profile.provider_id, text, message.attachments)
            return self._receipt("message", _first_str(chat, "message_id", "chat_id"))
        if message.attachments:  # an invitation carries a note only: refuse rather than drop the file
            raise ChannelError("invitation_attachment_unsupported", "a connection request cannot carry files")
        invitation = await self.invite(profile.provider_id, text or None)
        return self._receipt("connection_request", _first_str(invitation, "invitation_id"))

    # -- the engagement capability ----------------------------------------------------------------

    async def recent_posts(self, profile_url: str, limit: int = 10) -> list[LinkedInPost]:
        """The profile's most recent posts, newest first as Unipile returns them."""
        limit = max(1, min(limit, MAX_POSTS))
        profile = await self.profile(profile_url)
        payload = await self._call(
            "GET",
            f"/users/{quote(profile.provider_id, safe='')}/posts",
            params={"account_id": self._account_id, "limit": limit},
        )
        items = payload.get("items")
        if not isinstance(items, list):
            raise ChannelError("provider_error", "posts response has no items list")
        posts = [post for item in items if isinstance(item, dict) and (post := _post(item)) is not None]
        return posts[:limit]

    async def like(self, post_id: str) -> None:
        """React "like" to a post, given its social id (``LinkedInPost.post_id``)."""
        await self._call(
            "POST",
            "/posts/reaction",
            json={"account_id": self._account_id, "post_id": post_id, "reaction_type": "like"},
            acts=True,
        )

    # -- the REST resources -----------------------------------------------------------------------

    async def profile(self, profile_url: str) -> LinkedInProfile:
        """Resolve a ``linkedin.com/in/<slug>`` URL to the member's provider id and relation to us."""
        slug = profile_slug(profile_url)
        payload = await self._call(
            "GET",
            f"/users/{quote(slug, safe='')}",
            params={"account_id": self._account_id},
            missing="recipient_not_found",
        )
        provider_id = payload.get("provider_id")
        if not isinstance(provider_id, str) or not provider_id:
            raise ChannelError("provider_error", "profile response has no provider_id")
        distance = payload.get("network_distance")
        return LinkedInProfile(
            provider_id=provider_id,
            network_distance=distance if isinstance(distance, str) else None,
            is_relationship=payload.get("is_relationship") is True,
        )

    async def start_chat(self, provider_id: str, text: str, attachments: list[Attachment]) -> dict[str, Any]:
        """``POST /chats`` (multipart): opens or reuses the 1:1 chat and sends the message in it."""
        fields: list[tuple[str, tuple[str | None, Any, str | None]]] = [
            ("account_id", (None, self._account_id, None)),
            ("attendees_ids", (None, provider_id, None)),
        ]
        if text:
            fields.append(("text", (None, text, None)))
        for attachment in attachments:
            fields.append(("attachments", (attachment.filename, attachment.content, attachment.content_type)))
        return await self._call("POST", "/chats", files=fields, acts=True, missing="recipient_not_found")

    async def invite(self, provider_id: str, note: str | None) -> dict[str, Any]:
        """``POST /users/invite``: a connection request, with a note of at most 300 characters."""
        body: dict[str, Any] = {"provider_id": provider_id, "account_id": self._account_id}
        if note:
            if len(note) > INVITATION_NOTE_LIMIT:
                detail = f"invitation note over {INVITATION_NOTE_LIMIT} chars"
                raise ChannelError("invitation_note_too_long", detail)
            body["message"] = note
        return await self._call("POST", "/users/invite", json=body, acts=True, missing="recipient_not_found")

    # -- transport and error mapping --------------------------------------------------------------

    async def _call(
        self,
        method: str,
        path: str,
        *,
        acts: bool = False,
        missing: str = "provider_rejected",
        **kwargs: Any,
    ) -> dict[str, Any]:
        """One request; ``acts`` marks a POST whose effect may land even when its answer is lost."""
        headers = {"X-API-KEY": self._api_key, "accept": "application/json"}
        url = self._base + path
        response = await channel_request(
            self._client, method, url, timeout=self._timeout, acts=acts, headers=headers, **kwargs
        )
        if response.status_code >= 300:
            raise self._status_error(response, acts=acts, missing=missing)
        try:
            payload = response.json()
        except ValueError:
            payload = None
        if not isinstance(payload, dict):  # a 2xx to an acting POST: it may well have happened
            detail = f"HTTP {response.status_code}: response is not a JSON object"
            raise ChannelError("provider_error", detail, sent_unknown=acts)
        return payload

    def _status_error(self, response: httpx.Response, *, acts: bool, missing: str) -> ChannelError:
        status = response.status_code
        detail = _scrub(_error_detail(response), self._api_key)
        if status in (401, 403):
            return ChannelError("account_disconnected", detail)
        if status == 404:
            return ChannelError(missing, detail)
        if status == 422 and _problem_type(response) == "errors/blocked_recipient":
            return ChannelError("recipient_blocked", detail)
        if status in (400, 409, 422):
            return ChannelError("provider_rejected", detail)
        if status == 429:
            wait = max(RATE_LIMIT_PAUSE_SECONDS, retry_after_seconds(response.headers.get("Retry-After")))
            return ChannelError("provider_rate_limited", detail, pause_seconds=wait)
        if status >= 500:
            if acts:
                return ChannelError("provider_error", detail, sent_unknown=True)
            return ChannelError("provider_unavailable", detail)
        return ChannelError("provider_error", detail)

    def _receipt(self, kind: str, provider_message_id: str) -> DeliveryReceipt:
        return DeliveryReceipt(
            kind=kind, provider=PROVIDER, provider_message_id=provider_message_id, delivered_at=utcnow()
        )


def profile_slug(profile_url: str) -> str:
    """The public identifier of ``https://www.linkedin.com/in/<slug>``; anything else is refused."""
    try:
        return linkedin_profile_url(profile_url).rsplit("/in/", 1)[1]
    except ValueError as exc:
        raise ChannelError("recipient_not_found", str(exc)) from None


def _post(item: dict[str, Any]) -> LinkedInPost | None:
    social_id = item.get("social_id") or item.get("id")
    if not isinstance(social_id, str) or not social_id:
        return None
    url = item.get("share_url")
    text = item.get("text")
    return LinkedInPost(
        post_id=social_id,
        url=url if isinstance(url, str) and url else None,
        text=text if isinstance(text, str) else "",
        published_at=_timestamp(item.get("parsed_datetime")),
    )


def _timestamp(value: object) -> datetime | None:
    """``parsed_datetime`` is ISO 8601; ``date`` is a relative label ("2d") and is not used."""
    if not isinstance(value, str) or not value:
        return None
    try:
        parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


def _first_str(payload: dict[str, Any], *keys: str) -> str:
    for key in keys:
        value = payload.get(key)
        if isinstance(value, str) and value:
            return value
    raise ChannelError("provider_error", f"response has no {keys[0]}", sent_unknown=True)


def _problem_type(response: httpx.Response) -> str | None:
    """The `type` of Unipile's problem document (`errors/blocked_recipient`, ...), when it has one."""
    try:
        body = response.json()
    except ValueError:
        return None
    kind = body.get("type") if isinstance(body, dict) else None
    return kind if isinstance(kind, str) else None


def _error_detail(response: httpx.Response) -> str:
    """Unipile's errors are ``{status, type, title, detail}``; keep type, title and a capped detail."""
    parts = [f"HTTP {response.status_code}"]
    try:
        body = response.json()
    except ValueError:
        return parts[0]
    if isinstance(body, dict):
        for key in ("type", "title", "detail"):
            value = body.get(key)
            if isinstance(value, str) and value:
                parts.append(f"{key}={value[:200]}")
    return " ".join(parts)


def _scrub(text: str, secret: str) -> str:
    return text.replace(secret, "[redacted]") if secret else text
