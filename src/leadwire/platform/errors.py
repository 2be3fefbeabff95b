"""The one error type of the service and the catalogue of public error codes with their HTTP statuses."""

from __future__ import annotations

from collections.abc import Mapping

# Spec section 7, plus the codes DESIGN.md adds where the spec says "not shown".
CATALOGUE: Mapping[str, int] = {
    # 400
    "invalid_request": 400,
    "idempotency_key_required": 400,
    "profile_url_required": 400,
    "content_required": 400,
    "invalid_profile_url": 400,
    "post_limit_invalid": 400,
    "locale_invalid": 400,
    "linkedin_account_not_found": 400,
    "account_id_required_multiple_linkedin_accounts": 400,
    "account_id_required": 400,
    "invalid_channel": 400,
    "invalid_action": 400,
    "recipient_address_required": 400,
    "recipient_profile_url_required": 400,
    "recipient_phone_required": 400,
    "content_subject_required": 400,
    "content_text_or_html_required": 400,
    "content_text_or_attachment_required": 400,
    "attachment_invalid": 400,
    "attachments_invalid": 400,
    "min_channel_task_interval_seconds_invalid": 400,
    "webset_query_required": 400,
    "webset_query_too_long": 400,
    "webset_count_invalid": 400,
    "webset_target_kind_unsupported": 400,
    "invalid_domain": 400,
    # 401
    "api_key_missing": 401,
    "api_key_invalid": 401,
    "api_key_expired": 401,
    "api_key_revoked": 401,
    # 402
    "insufficient_credits": 402,
    # 403
    "permission_denied": 403,
    "membership_tier_insufficient": 403,
    "webset_count_not_available_for_tier": 403,
    # 404
    "not_found": 404,
    "task_not_found": 404,
    "webset_not_found": 404,
    "account_not_found": 404,
    # 405
    "method_not_allowed": 405,
    # 408: the client did not send its headers or body in time (LEADWIRE_HEADER/BODY_TIMEOUT_SECONDS)
    "request_timeout": 408,
    # 409
    "idempotency_conflict": 409,
    "idempotency_key_in_progress": 409,
    "job_already_running": 409,
    "connect_account_not_sendable": 409,
    "connect_account_not_receivable": 409,
    "connect_account_reconnect_required": 409,
    "webset_busy": 409,
    # 413
    "request_payload_too_large": 413,
    # 431: request line and headers over LEADWIRE_MAX_HEADER_BYTES
    "request_header_fields_too_large": 431,
    # 429
    "api_rate_limit_exceeded": 429,
    "api_key_rate_limit_exceeded": 429,
    # the account's jobs not yet done carry LEADWIRE_QUEUED_BYTES_PER_ACCOUNT of attachments already
    "queued_bytes_limit_exceeded": 429,
    # 5xx
    "internal_error": 500,
    "action_failed": 502,
    "task_unavailable": 503,
}


class ApiError(Exception):
    """A failure with a stable public code; the HTTP status comes from the catalogue."""

    def __init__(
        self,
        code: str,
        *,
        param: str | None = None,
        detail: str | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        if code not in CATALOGUE:
            raise ValueError(f"unknown public error code {code!r}")
        super().__init__(code)
        self.code = code
        self.param = param
        self.detail = detail
        self.headers = dict(headers or {})

    @property
    def status(self) -> int:
        return CATALOGUE[self.code]
