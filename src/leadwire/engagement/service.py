"""LinkedIn post likes: choose the sending account, pace and create the job; in the job, read the
profile's recent posts, pick the most relevant one not yet liked by the account, and like it once."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import Any, NoReturn, Protocol

from sqlalchemy import delete, select
from sqlalchemy.ext.asyncio import AsyncSession

from leadwire.channels import connected, delivery, pausing
from leadwire.channels.pacing import create_paced_job
from leadwire.engagement.models import EngagementLike
from leadwire.engagement.schemas import PostLikeRequest
from leadwire.platform.callers import Caller
from leadwire.platform.db import dialect_insert, transaction
from leadwire.platform.errors import ApiError
from leadwire.platform.jobs import JobContext, NewJob
from leadwire.platform.runtime import Runtime
from leadwire.platform.time import utcnow
from leadwire.providers.channels import ChannelError, LinkedInPost
from leadwire.providers.registry import channel_for

POST_LIKE = "outreach.linkedin.post_like"
CHANNEL = "linkedin"
NO_RELEVANT_POST = "no_relevant_post"


class LinkedInEngagement(Protocol):
    """What a LinkedIn adapter offers this capability (sandbox and Unipile both do)."""

    async def recent_posts(self, profile_url: str, limit: int = ...) -> list[LinkedInPost]: ...

    async def like(self, post_id: str) -> None: ...


async def choose_account(
    session: AsyncSession, user_id: str, account_id: str | None, *, version: int
) -> connected.ConnectAccount:
    """The LinkedIn account that will like.

    Named: it must be the caller's (404 `account_not_found`) and able to act now (409). An account of
    another channel is 409 `connect_account_not_sendable`: it exists and is the caller's, it just
    cannot perform a LinkedIn action, which is that code's meaning in docs/api.md, Errors.
    Not named: the one usable LinkedIn account is taken; several → 400 `account_id_required` (v1
    `account_id_required_multiple_linkedin_accounts`). None usable → v1 400
    `linkedin_account_not_found`; v2 says why when the user has LinkedIn accounts (the 409 of the
    first: reconnect needed or cannot send) and otherwise uses the same 400 as v1.
    """
    if account_id is not None:
        account = await connected.get_owned_account(session, user_id, account_id)
        if account.channel != CHANNEL:
            raise ApiError(
                "connect_account_not_sendable", param="account_id", detail="not a LinkedIn account"
            )
        connected.require_sendable(account)
        return account
    linkedin = await connected.list_accounts(session, user_id, channel=CHANNEL)
    usable = [a for a in linkedin if connected.account_takes_sends(a)]
    if len(usable) == 1:
        return usable[0]
    if usable:
        code = "account_id_required" if version >= 2 else "account_id_required_multiple_linkedin_accounts"
        raise ApiError(code, param="account_id")
    if linkedin and version >= 2:
        connected.require_sendable(linkedin[0])
    raise ApiError("linkedin_account_not_found")


async def start(
    session: AsyncSession, runtime: Runtime, caller: Caller, body: PostLikeRequest, *, version: int
) -> NewJob:
    """Create the post-like job (status `queued`) at the account's next LinkedIn slot, in the request's
    transaction: a refused creation frees the slot with everything else."""
    account = await choose_account(session, caller.user_id, body.account_id, version=version)
    payload = {**body.model_dump(), "account_id": account.id, "api_version": version}
    return await create_paced_job(
        session,
        runtime,
        caller,
        action=POST_LIKE,
        payload=payload,
        channel=CHANNEL,
        interval_seconds=body.min_channel_task_interval_seconds,
        status="queued",
        sender=account if version >= 2 else None,
    )


# -- the job --------------------------------------------------------------------------------------


async def like_relevant_post(
    ctx: JobContext, body: PostLikeRequest, account_id: str, *, api_version: int = 1
) -> dict[str, Any]:
    """Like the most relevant recent post, at most once; `skipped` when none is relevant enough."""
    account, earlier = await _account_and_earlier_like(ctx, account_id)
    await pausing.await_turn(
        ctx,
        account,
        channel=CHANNEL,
        interval_seconds=body.min_channel_task_interval_seconds,
        recipient=None,  # a like is not a touch, and waits for none
        under_policy=api_version >= 2,
    )
    settings = ctx.runtime.settings
    adapter: LinkedInEngagement = channel_for(
        settings, **connected.adapter_arguments(account, settings.resolved_secret_key)
    )
    if earlier is not None:  # a rescued job: finish what the earlier attempt chose, never a second post
        return await _like(ctx, adapter, account_id, earlier.post_id, earlier.post_url, None, body.locale)
    await ctx.progress("reading_posts", 10.0)
    posts = (await _guard(ctx, account_id, adapter.recent_posts(body.profile_url or "", body.post_limit)))[
        : body.post_limit
    ]
    liked = await _already_liked(ctx, account_id, posts)
    fresh = [p for p in posts if p.post_id not in liked]
    await ctx.progress("scoring", 40.0)
    content = body.content or ""
    # Imported here: the scoring brings numpy and the embedding model's code, which a worker that never
    # likes a post need not load at start-up.
    from leadwire.engagement import relevance

    candidates = await asyncio.to_thread(relevance.ranked, content, fresh, [p.text for p in fresh])
    for candidate in candidates:
        if await _record_like(ctx, account_id, candidate.item):  # else liked meanwhile by another job
            post = candidate.item
            return await _like(ctx, adapter, account_id, post.post_id, post.url, candidate.score, body.locale)
    return {"status": "skipped", "reason": NO_RELEVANT_POST, "liked_post": None}


async def _account_and_earlier_like(
    ctx: JobContext, account_id: str
) -> tuple[connected.ConnectAccount, EngagementLike | None]:
    """The account as it is now (one disconnected since the job was accepted likes nothing), and the
    like an earlier attempt of this job recorded, if any."""
    account = await connected.account_for_job(ctx, account_id)
    async with transaction(ctx.sessionmaker) as session:
        earlier = (
            await session.execute(select(EngagementLike).where(EngagementLike.job_id == ctx.job_id))
        ).scalar_one_or_none()
    return account, earlier


async def _already_liked(ctx: JobContext, account_id: str, posts: list[LinkedInPost]) -> set[str]:
    if not posts:
        return set()
    async with transaction(ctx.sessionmaker) as session:
        rows = await session.execute(
            select(EngagementLike.post_id).where(
                EngagementLike.account_id == account_id,
                EngagementLike.post_id.in_([p.post_id for p in posts]),
            )
        )
        return set(rows.scalars())


async def _record_like(ctx: JobContext, account_id: str, post: LinkedInPost) -> bool:
    """Claim (account, post) before asking the provider; False when the account already has it."""
    async with transaction(ctx.sessionmaker) as session:
        created = await session.execute(
            dialect_insert(session)(EngagementLike)
            .values(
                account_id=account_id,
                post_id=post.post_id,
                post_url=post.url[:1000] if post.url else None,
                job_id=ctx.job_id,
                liked_at=utcnow(),
            )
            .on_conflict_do_nothing()
            .returning(EngagementLike.post_id)
        )
        return created.scalar_one_or_none() is not None


async def _like(
    ctx: JobContext,
    adapter: LinkedInEngagement,
    account_id: str,
    post_id: str,
    url: str | None,
    score: float | None,
    locale: str,
) -> dict[str, Any]:
    """The like itself, as a delivery: recorded before the provider call, so a repeat never likes twice."""
    begun = await delivery.begin(ctx, channel=CHANNEL, recipient=post_id)
    if begun.receipt is None:
        await ctx.progress("liking", 80.0)
        try:
            await adapter.like(post_id)
        except ChannelError as error:
            await delivery.fail(
                ctx, begun.delivery_id, error_code=error.code, sent_unknown=error.sent_unknown
            )
            if not error.sent_unknown:  # certainly not liked: a later job may choose this post again
                await _forget_like(ctx, account_id, post_id)
            await _channel_failure(ctx, account_id, error)
        except Exception:  # the like may have landed: keep the claim, never like again
            await delivery.fail_unforeseen(ctx, begun.delivery_id)
        result = liked_result(post_id, url, score, locale)
        await delivery.finish(ctx, begun.delivery_id, receipt=result)
        return result
    return begun.receipt


def liked_result(post_id: str, url: str | None, score: float | None, locale: str) -> dict[str, Any]:
    """v1 reads `liked_post.post_id`, v2 `reason`: both versions get both (docs/api.md, LinkedIn post
    like)."""
    if locale == "zh":
        reason = "已点赞最相关的近期帖子" + (f"（相关度 {score:.2f}）。" if score is not None else "。")
    else:
        reason = "Liked the most relevant recent post" + (
            f" (relevance {score:.2f})." if score is not None else "."
        )
    return {"status": "liked", "liked_post": {"url": url, "post_id": post_id}, "reason": reason}


async def _guard(ctx: JobContext, account_id: str, call: Awaitable[list[LinkedInPost]]) -> list[LinkedInPost]:
    try:
        return await call
    except ChannelError as error:
        await _channel_failure(ctx, account_id, error)


async def _channel_failure(ctx: JobContext, account_id: str, error: ChannelError) -> NoReturn:
    """Fail the job with the adapter's public code; a refused account must be reconnected first."""
    await connected.fail_action(ctx, account_id, error)


async def _forget_like(ctx: JobContext, account_id: str, post_id: str) -> None:
    async with transaction(ctx.sessionmaker) as session:
        await session.execute(
            delete(EngagementLike).where(
                EngagementLike.account_id == account_id,
                EngagementLike.post_id == post_id,
                EngagementLike.job_id == ctx.job_id,
            )
        )
