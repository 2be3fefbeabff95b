"""WhatsApp through Meta's WhatsApp Business Cloud API: the outreach channel port for ``whatsapp``.

A text goes as ``POST /{phone_number_id}/messages`` of type ``text``. One attachment is uploaded first
(``POST /{phone_number_id}/media``) and then sent by media id as an image, video, audio or document,
chosen by its content type, with the text as its caption. The recipient phone is normalised to E.164
(sent without ``+``) before any request; an invalid number never reaches Meta.

Graph errors ``{error: {message, type, code, error_subcode}}`` become ``ChannelError`` codes. A failed
upload has delivered nothing; a lost answer or 5xx on the send itself is ``sent_unknown``. The access token
travels only in the ``Authorization`` header and is scrubbed from every error detail.
"""

from __future__ import annotations

from typing import Any, Final

import httpx
import phonenumbers

from leadwire.platform.time import utcnow
from leadwire.providers.channels import (
    RATE_LIMIT_PAUSE_SECONDS,
    SPAM_LIMIT_PAUSE_SECONDS,
    Attachment,
    ChannelError,
    DeliveryReceipt,
    OutboundMessage,
    retry_after_seconds,
)
from leadwire.providers.http import channel_request

PROVIDER: Final = "whatsapp_cloud"
DEFAULT_BASE_URL: Final = "https://graph.facebook.com/v21.0"
TEXT_LIMIT: Final = 4096
CAPTION_LIMIT: Final = 1024

# Content types WhatsApp accepts per media message type; anything else goes as a document.
_IMAGE_TYPES: Final = frozenset({"image/jpeg", "image/png"})
_VIDEO_TYPES: Final = frozenset({"video/mp4", "video/3gpp"})
_AUDIO_TYPES: Final = frozenset({"audio/aac", "audio/amr", "audio/mpeg", "audio/mp4", "audio/ogg"})

# Graph error codes (https://developers.facebook.com/docs/whatsapp/cloud-api/support/error-codes).
_AUTH_CODES: Final = frozenset({0, 10, 102, 190, 200})
_RATE_CODES: Final = frozenset({4, 80007, 130429, 131056})
_RECIPIENT_CODES: Final = frozenset({131026, 131030})  # undeliverable; not in the test allow-list
# 131048: messages restricted because earlier ones were blocked or flagged (Meta's spam rate limit).
_SPAM_CODES: Final = frozenset({131048})
# 131047: more than 24 hours since the customer last wrote; only a template message may be sent now.
_REENGAGEMENT_CODES: Final = frozenset({131047})
# 131050: the recipient chose to stop receiving marketing messages from this business.
_OPTED_OUT_CODES: Final = frozenset({131050})
_REJECTED_CODES: Final = frozenset({100, 131009, 131051, 131052, 131053})


# Failures raised before the request left: Meta cannot have acted on it.
class WhatsAppCloud:
    """One business phone number on the Cloud API; safe to share between concurrent jobs."""

    def __init__(
        self,
        phone_number_id: str,
        access_token: str,
        client: httpx.AsyncClient | None = None,
        base_url: str = DEFAULT_BASE_URL,
        timeout: float = 30.0,
        *,
        default_region: str | None = None,
    ) -> None:
        self._phone_number_id = phone_number_id
        self._token = access_token
        self._client = client
        self._base = base_url.rstrip("/")
        self._timeout = timeout
        self._default_region = default_region

    async def send(self, message: OutboundMessage) -> DeliveryReceipt:
        to = normalise_phone(str(message.recipient.get("phone") or ""), self._default_region)
        text = (message.text or "").strip()
        if len(message.attachments) > 1:
            raise ChannelError("provider_rejected", "WhatsApp carries one attachment per message")
        if message.attachments:
            body = await self._media_body(to, text, message.attachments[0])
        elif text:
            if len(text) > TEXT_LIMIT:
                raise ChannelError("provider_rejected", f"text over {TEXT_LIMIT} characters")
            body = {"messaging_product": "whatsapp", "to": to, "type": "text", "text": {"body": text}}
        else:
            raise ChannelError("provider_rejected", "a WhatsApp message needs text or an attachment")
        payload = await self._call("messages", json=body, acts=True)
        messages = payload.get("messages")
        wamid = messages[0].get("id") if isinstance(messages, list) and messages else None
        if not isinstance(wamid, str) or not wamid:
            raise ChannelError("provider_error", "response has no message id", sent_unknown=True)
        return DeliveryReceipt(
            kind="message", provider=PROVIDER, provider_message_id=wamid, delivered_at=utcnow()
        )

    async def upload(self, attachment: Attachment) -> str:
        """``POST /{phone_number_id}/media``: the media id to send by."""
        payload = await self._call(
            "media",
            data={"messaging_product": "whatsapp", "type": attachment.content_type},
            files={"file": (attachment.filename, attachment.content, attachment.content_type)},
        )
        media_id = payload.get("id")
        if not isinstance(media_id, str) or not media_id:
            raise ChannelError("provider_error", "media upload response has no id")
        return media_id

    async def _media_body(self, to: str, text: str, attachment: Attachment) -> dict[str, Any]:
        kind = media_type(attachment.content_type)
        if kind == "audio" and text:
            kind = "document"  # audio messages carry no caption; a document keeps file and text together
        if text and len(text) > CAPTION_LIMIT:
            raise ChannelError("provider_rejected", f"caption over {CAPTION_LIMIT} characters")
        media: dict[str, Any] = {"id": await self.upload(attachment)}
        if text:
            media["caption"] = text
        if kind == "document":
            media["filename"] = attachment.filename
        return {"messaging_product": "whatsapp", "to": to, "type": kind, kind: media}

    async def _call(self, edge: str, *, acts: bool = False, **kwargs: Any) -> dict[str, Any]:
        """One POST to ``/{phone_number_id}/{edge}``; ``acts`` marks the send that may land unseen."""
        url = f"{self._base}/{self._phone_number_id}/{edge}"
        headers = {"Authorization": f"Bearer {self._token}"}
        response = await channel_request(
            self._client, "POST", url, timeout=self._timeout, acts=acts, headers=headers, **kwargs
        )
        if response.status_code >= 300:
            raise self._status_error(response, acts=acts)
        try:
            payload = response.json()
        except ValueError:
            payload = None
        if not isinstance(payload, dict):
            raise ChannelError(
                "provider_error",
                f"HTTP {response.status_code}: response is not a JSON object",
                sent_unknown=acts,
            )
        return payload

    def _status_error(self, response: httpx.Response, *, acts: bool) -> ChannelError:
        status = response.status_code
        error = _graph_error(response)
        code = error.get("code")
        detail = _scrub(_error_detail(status, error), self._token)
        if status == 401 or code in _AUTH_CODES:
            return ChannelError("account_disconnected", detail)
        if status == 429 or code in _RATE_CODES or code in _SPAM_CODES:
            floor = SPAM_LIMIT_PAUSE_SECONDS if code in _SPAM_CODES else RATE_LIMIT_PAUSE_SECONDS
            wait = max(floor, retry_after_seconds(response.headers.get("Retry-After")))
            return ChannelError("provider_rate_limited", detail, pause_seconds=wait)
        if code in _REENGAGEMENT_CODES:
            return ChannelError("whatsapp_reengagement_required", detail)
        if code in _OPTED_OUT_CODES:
            return ChannelError("recipient_opted_out", detail)
        if code in _RECIPIENT_CODES:
            return ChannelError("recipient_not_found", detail)
        if code in _REJECTED_CODES or 400 <= status < 500:
            return ChannelError("provider_rejected", detail)
        if status >= 500 and acts:
            return ChannelError("provider_error", detail, sent_unknown=True)
        if status >= 500:
            return ChannelError("provider_unavailable", detail)
        return ChannelError("provider_error", detail)


def normalise_phone(phone: str, default_region: str | None = None) -> str:
    """E.164 digits without ``+``; ``00`` is the international prefix. Invalid → recipient_not_found."""
    value = phone.strip()
    if value.startswith("00"):
        value = "+" + value[2:]
    region = default_region
    if not value.startswith("+") and default_region is None:
        value = "+" + value
    if value.startswith("+"):
        region = None
    try:
        number = phonenumbers.parse(value, region)
    except phonenumbers.NumberParseException:
        raise ChannelError("recipient_not_found", "phone number cannot be parsed") from None
    if not phonenumbers.is_valid_number(number):
        raise ChannelError("recipient_not_found", "phone number is not valid")
    return phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.E164).removeprefix("+")


def media_type(content_type: str) -> str:
    """The WhatsApp message type for a content type: image, video, audio or document."""
    base = content_type.split(";", 1)[0].strip().lower()
    if base in _IMAGE_TYPES:
        return "image"
    if base in _VIDEO_TYPES:
        return "video"
    if base in _AUDIO_TYPES:
        return "audio"
    return "document"


def _graph_error(response: httpx.Response) -> dict[str, Any]:
    try:
        body = response.json()
    except ValueError:
        return {}
    error = body.get("error") if isinstance(body, dict) else None
    return error if isinstance(error, dict) else {}


def _error_detail(status: int, error: dict[str, Any]) -> str:
    parts = [f"HTTP {status}"]
    for key in ("code", "error_subcode", "type", "message"):
        value = error.get(key)
        if isinstance(value, int | str) and value != "":
            parts.append(f"{key}={str(value)[:200]}")
    return " ".join(parts)


def _scrub(text: str, secret: str) -> str:
    return text.replace(secret, "[redacted]") if secret else text
