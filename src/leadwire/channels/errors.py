"""The error codes of connected accounts, declared by every capability that sends through them."""

from __future__ import annotations

from leadwire.platform.errors import ErrorCode

CHANNEL_ERRORS = (
    ErrorCode(
        "account_id_required",
        400,
        when=(
            "dispatch without `account_id`; v2 post like with several usable LinkedIn "
            "accounts and no `account_id`"
        ),
        remedy="send an `account_id` from `GET /api/v2/connect/accounts`",
    ),
    ErrorCode(
        "account_not_found",
        404,
        when="`account_id` is not one of this account's connected accounts",
        remedy="take an id from `GET /api/v2/connect/accounts`",
    ),
    ErrorCode(
        "invalid_channel",
        400,
        when="`channel` missing, unknown, or not the account's channel",
        remedy="send `email`, `linkedin` or `whatsapp`, matching the account",
    ),
    ErrorCode(
        "connect_account_not_sendable",
        409,
        when=("the account cannot perform the action: disconnected, unable to send, or of another channel"),
        remedy="pick an account with `can_send: true` on the right channel",
    ),
    ErrorCode(
        "connect_account_not_receivable",
        409,
        when=("an account whose state does not allow the action; no endpoint of this server sends it today"),
        remedy="pick an account with `can_receive: true`",
    ),
    ErrorCode(
        "sending_queue_full",
        409,
        when="the account's sending policy would place the send more than 365 days ahead",
        remedy="raise the account's `daily_cap` or widen its window "
        "(`PUT /api/v2/connect/accounts/{id}/sending-policy`), or cancel queued sends",
    ),
    ErrorCode(
        "connect_account_reconnect_required",
        409,
        when=("the provider refused the account's credentials earlier; it is `reconnect_required`"),
        remedy=(
            "reconnect the account (`leadwire admin account set-status ... connected` after "
            "fixing its credentials)"
        ),
    ),
)
