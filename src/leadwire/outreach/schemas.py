"""The dispatch request (docs/api.md, Outreach dispatch by email, on LinkedIn, on WhatsApp), its rules,
and the result of its job.

The guide gives each missing or malformed part its own code (docs/api.md, Errors), and a request with
several faults gets the code of the first in this order: account, channel, action, recipient,
attachments, content, interval.
`_check` walks the raw body in that order and raises the code with the offending field as `param`;
the typed fields below then document the shape (OpenAPI) and carry the normalised values.
"""

from __future__ import annotations

import base64
import binascii
import mimetypes
import re
from typing import Any, Literal

import phonenumbers
from email_validator import EmailNotValidError, validate_email
from pydantic import BaseModel, Field, JsonValue, model_validator
from typing_extensions import TypedDict

from leadwire.channels.connected import CHANNELS
from leadwire.channels.pacing import DEFAULT_INTERVAL_SECONDS, MAX_INTERVAL_SECONDS, MIN_INTERVAL_SECONDS
from leadwire.platform.errors import ApiError
from leadwire.platform.validation import RequestModel, with_examples
from leadwire.providers.channels import linkedin_profile_url

ChannelName = Literal["email", "linkedin", "whatsapp"]
# LinkedIn and WhatsApp carry one file per message; an email several.
MAX_ATTACHMENTS = {"email": 10, "linkedin": 1, "whatsapp": 1}
_CONTENT_TYPE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*$")


class AttachmentIn(BaseModel):
    filename: str
    contentBase64: str
    contentType: str | None = None


class RecipientIn(BaseModel):
    """The channel's own field is required; the others, when given, say who the person is on the other
    channels (one touch per person across channels) and are never sent to."""

    address: str | None = Field(default=None, description="email: the address (required)")
    name: str | None = Field(default=None, description="email: display name")
    profile_url: str | None = Field(default=None, description="linkedin: https://www.linkedin.com/in/<slug>")
    phone: str | None = Field(default=None, description="whatsapp: an E.164 number, e.g. +4915123456789")


class ContentIn(BaseModel):
    subject: str | None = Field(default=None, description="email: required")
    text: str | None = None
    html: str | None = Field(default=None, description="email only")
    attachments: list[AttachmentIn] = Field(default_factory=list)
    attachment: AttachmentIn | None = Field(default=None, description="one attachment, as an object")


# One per channel (the account ids are placeholders: take yours from GET /api/v2/connect/accounts).
DISPATCH_EXAMPLES: list[JsonValue] = [
    {
        "account_id": "acct_01JDZ8Q6F3W9X2M4N7P5R1T0VS",
        "channel": "email",
        "action": "outreach",
        "recipient": {"address": "jane@acme.example", "name": "Jane Doe"},
        "content": {
            "subject": "Cold-chain capacity in Q3",
            "text": "Hi Jane, ...",
            "html": "<p>Hi Jane, ...</p>",
        },
        "metadata": {"campaign": "q3-logistics"},
        "min_channel_task_interval_seconds": 240,
    },
    {
        "account_id": "acct_01JDZ8Q6F3W9X2M4N7P5R1T0VT",
        "channel": "linkedin",
        "action": "outreach",
        "recipient": {"profile_url": "https://www.linkedin.com/in/jane-doe"},
        "content": {"text": "Hi Jane, I enjoyed your post on cold-chain logistics."},
    },
    {
        "account_id": "acct_01JDZ8Q6F3W9X2M4N7P5R1T0VW",
        "channel": "whatsapp",
        "action": "outreach",
        "recipient": {"phone": "+4915123456789"},
        "content": {
            "text": "Here is the deck we discussed.",
            "attachment": {
                "filename": "deck.pdf",
                "contentBase64": "JVBERi0xLjQK",
                "contentType": "application/pdf",
            },
        },
    },
]


class DispatchRequest(RequestModel):
    model_config = with_examples(*DISPATCH_EXAMPLES)

    account_id: str
    channel: ChannelName
    action: Literal["outreach"]
    recipient: RecipientIn
    content: ContentIn
    metadata: Any = None
    min_channel_task_interval_seconds: int = Field(
        default=DEFAULT_INTERVAL_SECONDS, ge=MIN_INTERVAL_SECONDS, le=MAX_INTERVAL_SECONDS
    )

    @model_validator(mode="before")
    @classmethod
    def _rules(cls, data: Any) -> Any:
        return _check(data) if isinstance(data, dict) else data


def _check(data: dict[str, Any]) -> dict[str, Any]:
    account_id = data.get("account_id")
    if not isinstance(account_id, str) or not account_id.strip():
        raise ApiError("account_id_required", param="account_id")
    channel = data.get("channel")
    if channel not in CHANNELS:
        raise ApiError("invalid_channel", param="channel")
    if data.get("action") != "outreach":
        raise ApiError("invalid_action", param="action")
    raw_recipient = _object(data.get("recipient"), "recipient")
    checked_recipient = {**_RECIPIENT_RULES[channel](raw_recipient), **_linked(raw_recipient, channel)}
    content = _object(data.get("content"), "content")
    attachments = _attachments(content, channel)
    checked_content = _content(content, channel, attachments)
    return {
        **data,
        "account_id": account_id.strip(),
        "recipient": checked_recipient,
        "content": checked_content,
        "min_channel_task_interval_seconds": _interval(data.get("min_channel_task_interval_seconds")),
    }


def _object(value: Any, param: str) -> dict[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise ApiError("invalid_request", param=param, detail=f"{param} must be an object")
    return value


def _text(value: Any, param: str, *, single_line: bool = False) -> str | None:
    """A present, non-blank string (None when absent or blank); single-line fields refuse CR and LF,
    which would let a caller inject mail headers."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise ApiError("invalid_request", param=param, detail="must be a string")
    if single_line and not value.isprintable():  # CR, LF, VT, FF, NEL, U+2028 ... could fold a header
        raise ApiError("invalid_request", param=param, detail="must be one line of printable text")
    return value if value.strip() else None


def _email_recipient(recipient: dict[str, Any]) -> dict[str, Any]:
    address = _text(recipient.get("address"), "recipient.address", single_line=True)
    if address is None:
        raise ApiError("recipient_address_required", param="recipient.address")
    try:
        # ASCII addresses (an internationalised domain in its IDNA form): SMTPUTF8 is not assumed.
        checked = validate_email(address.strip(), check_deliverability=False, allow_smtputf8=False)
    except EmailNotValidError:
        raise ApiError("invalid_request", param="recipient.address", detail="not an email address") from None
    normalised = checked.ascii_email or checked.normalized
    name = _text(recipient.get("name"), "recipient.name", single_line=True)
    return {"address": normalised, "name": name.strip() if name else None}


def _linkedin_recipient(recipient: dict[str, Any]) -> dict[str, Any]:
    url = _text(recipient.get("profile_url"), "recipient.profile_url")
    if url is None:
        raise ApiError("recipient_profile_url_required", param="recipient.profile_url")
    try:
        return {"profile_url": linkedin_profile_url(url)}
    except ValueError:
        raise ApiError("invalid_profile_url", param="recipient.profile_url") from None


def _whatsapp_recipient(recipient: dict[str, Any]) -> dict[str, Any]:
    phone = _text(recipient.get("phone"), "recipient.phone", single_line=True)
    if phone is None:
        raise ApiError("recipient_phone_required", param="recipient.phone")
    try:
        international = phone.strip()
        if international.startswith("00"):  # the international prefix written out
            international = "+" + international[2:]
        number = phonenumbers.parse(international, None)
    except phonenumbers.NumberParseException:
        number = None
    if number is None or not phonenumbers.is_valid_number(number):
        raise ApiError(
            "invalid_request", param="recipient.phone", detail="an E.164 number such as +14155550123"
        )
    return {"phone": phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.E164)}


_RECIPIENT_RULES = {
    "email": _email_recipient,
    "linkedin": _linkedin_recipient,
    "whatsapp": _whatsapp_recipient,
}
CHANNEL_FIELD = {"email": "address", "linkedin": "profile_url", "whatsapp": "phone"}


def _linked(recipient: dict[str, Any], channel: str) -> dict[str, Any]:
    """The person's identifiers on the other channels, when given (an email dispatch with the person's
    `profile_url` and `phone`, say, from a contacts result): checked and normalised as on their own
    channel, and used only to know it is the same person (one touch per person across channels)."""
    linked = {}
    for other, field in CHANNEL_FIELD.items():
        if other != channel and _text(recipient.get(field), f"recipient.{field}") is not None:
            linked[field] = _RECIPIENT_RULES[other](recipient)[field]
    return linked


def _attachments(content: dict[str, Any], channel: str) -> list[dict[str, Any]]:
    """`content.attachments` (a list) and/or `content.attachment` (one object), each checked; a bad object
    is `attachment_invalid`, a bad list or too many for the channel `attachments_invalid`."""
    listed = content.get("attachments")
    if listed is not None and not isinstance(listed, list):
        raise ApiError("attachments_invalid", param="content.attachments", detail="must be a list")
    found = [(f"content.attachments.{i}", a) for i, a in enumerate(listed or [])]
    if content.get("attachment") is not None:
        found.append(("content.attachment", content["attachment"]))
    if len(found) > MAX_ATTACHMENTS[channel]:
        detail = f"{channel} carries at most {MAX_ATTACHMENTS[channel]} attachment(s)"
        raise ApiError("attachments_invalid", param="content.attachments", detail=detail)
    # No decoded-size rule: base64 is larger than what it encodes, so the 12 MB body limit bounds it.
    return [_attachment(value, param) for param, value in found]


def _attachment(value: Any, param: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ApiError("attachment_invalid", param=param, detail="must be an object")
    filename = safe_filename(value.get("filename"))
    if filename is None:
        raise ApiError("attachment_invalid", param=f"{param}.filename")
    encoded = value.get("contentBase64")
    try:
        if not isinstance(encoded, str) or not encoded:
            raise ValueError
        base64.b64decode(encoded, validate=True)
    except (ValueError, binascii.Error):
        raise ApiError("attachment_invalid", param=f"{param}.contentBase64", detail="not base64") from None
    content_type = value.get("contentType")
    if content_type is None:
        content_type = mimetypes.guess_type(filename)[0] or "application/octet-stream"
    if (
        not isinstance(content_type, str)
        or not _CONTENT_TYPE.match(content_type)
        or content_type.lower().startswith(("multipart/", "message/"))  # a file is a leaf part
    ):
        raise ApiError("attachment_invalid", param=f"{param}.contentType", detail="a MIME type like text/csv")
    return {"filename": filename, "contentBase64": encoded, "contentType": content_type.lower()}


def safe_filename(value: Any) -> str | None:
    """The file's own name: no directories, no control characters (no header injection), at most 255
    characters; None when nothing usable is left."""
    if not isinstance(value, str):
        return None
    name = value.replace("\\", "/").rsplit("/", 1)[-1]
    name = "".join(c for c in name if c.isprintable() and c not in '"').strip().lstrip(".")
    return name[:255] or None


def _content(content: dict[str, Any], channel: str, attachments: list[dict[str, Any]]) -> dict[str, Any]:
    text = _text(content.get("text"), "content.text")
    if channel == "email":
        subject = _text(content.get("subject"), "content.subject", single_line=True)
        if subject is None:
            raise ApiError("content_subject_required", param="content.subject")
        html = _text(content.get("html"), "content.html")
        if text is None and html is None:
            raise ApiError("content_text_or_html_required", param="content.text")
        return {"subject": subject, "text": text, "html": html, "attachments": attachments}
    if text is None and not attachments:
        raise ApiError("content_text_or_attachment_required", param="content.text")
    return {"text": text, "attachments": attachments}


def _interval(value: Any) -> int:
    if value is None:
        return DEFAULT_INTERVAL_SECONDS
    if (
        isinstance(value, bool)
        or not isinstance(value, int | float)
        or value != int(value)
        or not MIN_INTERVAL_SECONDS <= value <= MAX_INTERVAL_SECONDS
    ):
        raise ApiError("min_channel_task_interval_seconds_invalid", param="min_channel_task_interval_seconds")
    return int(value)


class DispatchResult(TypedDict):
    """`outreach.dispatch` (docs/api.md, Outreach dispatch by email): what the provider accepted; outreach
    is not metered."""

    kind: Literal["message", "connection_request"]  # LinkedIn: a message to a connection, else a request
    provider: str
    provider_message_id: str
    recipient: str  # the address, profile URL or phone number sent to
    delivered_at: str
