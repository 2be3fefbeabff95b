"""Request bodies of the LinkedIn post-like endpoints (docs/api.md, LinkedIn post like) and their
rules, v2 and v1 (v1 treats an interval below 60 s as 60 s), and the result of the post-like job."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, StrictInt, StrictStr, field_validator
from pydantic_core import PydanticCustomError
from typing_extensions import TypedDict

from leadwire.channels.pacing import DEFAULT_INTERVAL_SECONDS, MAX_INTERVAL_SECONDS, MIN_INTERVAL_SECONDS
from leadwire.platform.validation import RequestModel, with_examples
from leadwire.providers.channels import linkedin_profile_url


class PostLikeRequest(RequestModel):
    """v2 body; unknown fields are ignored."""

    model_config = with_examples(
        {
            "profile_url": "https://www.linkedin.com/in/jane-doe",
            "content": "cold-chain logistics",
            "post_limit": 20,
            "locale": "en",
        },
        {
            "profile_url": "https://www.linkedin.com/in/jane-doe",
            "content": "供应链数字化",
            "account_id": "acct_01JDZ8Q6F3W9X2M4N7P5R1T0VT",
            "locale": "zh",
            "min_channel_task_interval_seconds": 300,
        },
    )

    missing_codes = {"profile_url": "profile_url_required", "content": "content_required"}
    invalid_codes = {
        "profile_url": "invalid_profile_url",
        "post_limit": "post_limit_invalid",
        "locale": "locale_invalid",
        "min_channel_task_interval_seconds": "min_channel_task_interval_seconds_invalid",
    }

    profile_url: StrictStr | None = Field(description="the target's LinkedIn profile URL")
    content: StrictStr | None = Field(description="the topic that decides relevance (not text to publish)")
    account_id: StrictStr | None = Field(
        default=None, description="required when several usable LinkedIn accounts exist"
    )
    post_limit: StrictInt = Field(default=20, ge=1, le=50)
    locale: Literal["en", "zh"] = "en"
    min_channel_task_interval_seconds: StrictInt = Field(
        default=DEFAULT_INTERVAL_SECONDS, ge=MIN_INTERVAL_SECONDS, le=MAX_INTERVAL_SECONDS
    )

    @field_validator("profile_url")
    @classmethod
    def _profile_url(cls, raw: str | None) -> str:
        if raw is None or not raw.strip():
            raise PydanticCustomError("profile_url_required", "the target's LinkedIn profile URL")
        try:
            return linkedin_profile_url(raw)
        except ValueError:
            raise PydanticCustomError(
                "invalid_profile_url", "https://www.linkedin.com/in/<profile>"
            ) from None

    @field_validator("content")
    @classmethod
    def _content(cls, raw: str | None) -> str:
        if raw is None or not raw.strip():
            raise PydanticCustomError("content_required", "the topic of the post to like")
        return raw.strip()


class PostLikeRequestV1(PostLikeRequest):
    """v1 body: the same rules, except that an interval below 60 s is taken as 60 s (docs/api.md,
    LinkedIn post like)."""

    @field_validator("min_channel_task_interval_seconds", mode="before")
    @classmethod
    def _at_least_minimum(cls, raw: Any) -> Any:
        if isinstance(raw, int) and not isinstance(raw, bool) and raw < MIN_INTERVAL_SECONDS:
            return MIN_INTERVAL_SECONDS
        return raw


class LikedPost(TypedDict):
    url: str | None
    post_id: str  # v1 reads it


class PostLikeResult(TypedDict):
    """`outreach.linkedin.post_like`: `liked`, or `skipped` (reason `no_relevant_post`, `liked_post`
    null) when no recent post is relevant; the job succeeds either way. Not metered."""

    status: Literal["liked", "skipped"]
    liked_post: LikedPost | None
    reason: str
