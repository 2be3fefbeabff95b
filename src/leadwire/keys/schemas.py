"""The request body and wire shapes of API keys (docs/api.md, API keys): a key as listed (never its
secret nor its digest) and as created (its secret, this once)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal, NotRequired

from pydantic import Field, StrictStr
from typing_extensions import TypedDict

from leadwire.platform.time import iso
from leadwire.platform.users import ApiKey
from leadwire.platform.validation import RequestModel, with_examples

KeyName = Annotated[StrictStr, Field(min_length=1, max_length=100)]
ScopeName = Annotated[StrictStr, Field(min_length=1, max_length=64)]
MAX_SCOPES = 100  # far above the scopes that exist; a bound on the body, not a rule of its own
KeyStatus = Literal["active", "revoked", "expired"]


class KeyCreate(RequestModel):
    model_config = with_examples(
        {"name": "CRM sync", "scopes": ["websets:read", "webhooks:read"]},
        {"scopes": ["research:read", "research:write"]},
    )

    name: KeyName | None = Field(default=None, description="a label of your own, shown when keys are listed")
    scopes: list[ScopeName] = Field(
        min_length=1,
        max_length=MAX_SCOPES,
        description="what the key may do; each must be held by the key that creates it",
    )


class KeyOut(TypedDict):
    id: str
    name: str | None
    prefix: Annotated[
        str, Field(description="the key's first characters (`lw_live_` and 8 more), to recognise it")
    ]
    mode: Literal["live", "test"]
    scopes: list[str]
    status: Annotated[KeyStatus, Field(description="`active`, or why it no longer authenticates")]
    current: Annotated[bool, Field(description="whether this is the key that made the request")]
    created_at: str
    expires_at: str | None
    revoked_at: str | None


class KeyRevoked(KeyOut):
    """The revocation's item: the key, and how many live keys it had created (and they, transitively)
    were revoked with it by this request."""

    revoked_with: Annotated[
        int, Field(description="how many keys this key created, directly or not, were revoked with it now")
    ]


class KeyWithSecret(KeyOut):
    """The creation's item: the only time the key itself is shown (a replay of the creation's
    `Idempotency-Key` answers without it: only the key's digest is stored)."""

    key: NotRequired[str]


def key_status(row: ApiKey, now: datetime) -> KeyStatus:
    if row.revoked_at is not None:
        return "revoked"
    if row.expires_at is not None and row.expires_at <= now:
        return "expired"
    return "active"


def public_key(row: ApiKey, *, current_key_id: str, now: datetime) -> KeyOut:
    return KeyOut(
        id=row.id,
        name=row.name,
        prefix=f"lw_{row.mode}_{row.prefix}",
        mode="test" if row.mode == "test" else "live",
        scopes=list(row.scopes),
        status=key_status(row, now),
        current=row.id == current_key_id,
        created_at=iso(row.created_at),
        expires_at=iso(row.expires_at),
        revoked_at=iso(row.revoked_at),
    )


def with_secret(row: ApiKey, raw_key: str, *, current_key_id: str, now: datetime) -> KeyWithSecret:
    return KeyWithSecret(**public_key(row, current_key_id=current_key_id, now=now), key=raw_key)
