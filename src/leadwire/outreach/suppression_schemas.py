"""Request bodies and wire shapes of the suppression list (docs/api.md, Suppression list)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, StrictStr
from typing_extensions import TypedDict

from leadwire.platform.validation import RequestModel, with_examples

SuppressionChannel = Literal["email", "linkedin", "whatsapp", "any"]


class SuppressionCreate(RequestModel):
    model_config = with_examples(
        {"channel": "email", "value": "jane@acme.example", "reason": "asked not to be contacted"},
        {"channel": "email", "value": "competitor.example", "reason": "a whole domain"},
        {"channel": "any", "value": "+4915123456789"},
        {"channel": "linkedin", "value": "https://www.linkedin.com/in/jane-doe"},
    )
    missing_codes = {"channel": "invalid_suppression", "value": "invalid_suppression"}
    invalid_codes = {
        "channel": "invalid_suppression",
        "value": "invalid_suppression",
        "reason": "invalid_suppression",
    }

    channel: SuppressionChannel = Field(description="`any` suppresses the recipient on every channel")
    value: Annotated[StrictStr, Field(min_length=1, max_length=320)] = Field(
        description="an email address or a whole email domain (email), a phone in international form "
        "(WhatsApp), a LinkedIn profile URL (LinkedIn); stored normalised"
    )
    reason: Annotated[StrictStr, Field(max_length=500)] | None = None


class SuppressionOut(TypedDict):
    id: str
    object: Literal["suppression"]
    channel: str
    kind: Literal["address", "domain", "phone", "profile_url"] | str
    value: str
    reason: str | None
    source: Literal["manual", "import", "bounce", "opt_out", "blocked"] | str
    created_at: str


class SuppressionLineError(TypedDict):
    line: int
    field: str
    code: str


class SuppressionImportOut(TypedDict):
    accepted: int  # good lines
    added: int  # of them, new entries
    already_listed: int
    rejected: int
    errors: list[SuppressionLineError]  # the first 100
