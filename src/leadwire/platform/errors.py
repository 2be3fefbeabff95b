"""The one error type of the service, and the catalogue of public error codes it may carry.

Each code is declared once, with its HTTP status and the two sentences the user guide shows for it
(`docs/api.md`, section 4: when it happens, what to do): the platform's own codes here, each
capability's in its `capability.py`, registered when the capability is installed, the way its scopes
are. `ApiError` refuses a code nobody declared.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class ErrorCode:
    """A public error code: its HTTP status, when it is answered and what the caller should do."""

    code: str
    status: int
    when: str
    remedy: str


class _Catalogue(Mapping[str, int]):
    """Every declared code and its HTTP status (a read-only mapping); `declared(code)` has the rest."""

    def __init__(self) -> None:
        self._codes: dict[str, ErrorCode] = {}

    def register(self, codes: Iterable[ErrorCode]) -> None:
        for declared in codes:
            existing = self._codes.get(declared.code)
            if existing is not None and existing != declared:
                raise ValueError(f"error code {declared.code!r} declared twice, differently")
            self._codes[declared.code] = declared

    def declared(self, code: str) -> ErrorCode:
        return self._codes[code]

    def __getitem__(self, code: str) -> int:
        return self._codes[code].status

    def __iter__(self) -> Iterator[str]:
        return iter(self._codes)

    def __len__(self) -> int:
        return len(self._codes)


CATALOGUE = _Catalogue()


def register_errors(codes: Iterable[ErrorCode]) -> None:
    """Declare codes (a capability's, when it is installed); the same declaration may come twice."""
    CATALOGUE.register(codes)


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


# The platform's own: authentication, rate limits, idempotency, jobs, credits, bodies and the server.
PLATFORM_ERRORS = (
    ErrorCode(
        "invalid_request",
        400,
        when=(
            "a parameter, header or body is invalid (`param` names it, `detail` says what is "
            "expected), the body is not a JSON object, or the Host is not allowed"
        ),
        remedy="fix the named field and send again",
    ),
    ErrorCode(
        "idempotency_key_required",
        400,
        when="Find More without `Idempotency-Key`",
        remedy="send a key: a new one for a new run, the same one when retrying",
    ),
    ErrorCode(
        "locale_invalid",
        400,
        when="`locale` is not `en` or `zh`",
        remedy="send `en` or `zh`",
    ),
    ErrorCode(
        "api_key_missing",
        401,
        when="no key in `Authorization: Bearer` or `x-api-key`",
        remedy="send the key in one of those headers",
    ),
    ErrorCode(
        "api_key_invalid",
        401,
        when="the key is unknown or malformed, or the header is not `Bearer <key>`",
        remedy="check the key and the header form",
    ),
    ErrorCode(
        "api_key_expired",
        401,
        when="the key's expiry has passed",
        remedy="ask for a new key (`leadwire admin key create`)",
    ),
    ErrorCode(
        "api_key_revoked",
        401,
        when="the key was revoked",
        remedy="use another key; revocation applies within `LEADWIRE_AUTH_CACHE_SECONDS`",
    ),
    ErrorCode(
        "insufficient_credits",
        402,
        when=("the job's reservation is more than the account's `available` credits; no job was created"),
        remedy=(
            "ask for less (fewer queries, sources, rows or items), wait for running jobs to "
            "settle, or add credits (`leadwire admin credits grant`)"
        ),
    ),
    ErrorCode(
        "permission_denied",
        403,
        when=(
            "the key lacks the scope of the endpoint, of the job's capability when reading or"
            " cancelling a job, of the API key it creates or revokes, or of the data a path reads"
            " (`detail` names the scope, and the data)"
        ),
        remedy="use a key with that scope (`leadwire admin key create --scopes ...`)",
    ),
    ErrorCode(
        "membership_tier_insufficient",
        403,
        when=(
            "the plan does not include the capability or the data a path reads (`detail` names the "
            "feature, the data and the plans that have it)"
        ),
        remedy="upgrade the plan",
    ),
    ErrorCode(
        "not_found",
        404,
        when="no such route (a trailing slash counts)",
        remedy="check the method and path against `/openapi.json`",
    ),
    ErrorCode(
        "task_not_found",
        404,
        when=(
            "no such job for this account (a wrong id, or another account's job), or a Find "
            "More job that is not this list's"
        ),
        remedy="check the id; it is never a job still being created",
    ),
    ErrorCode(
        "method_not_allowed",
        405,
        when="the path exists but not with this method",
        remedy="check the method against `/openapi.json`",
    ),
    ErrorCode(
        "request_timeout",
        408,
        when=(
            "the client did not send its headers or body in time "
            "(`LEADWIRE_HEADER_TIMEOUT_SECONDS`, `LEADWIRE_BODY_TIMEOUT_SECONDS`)"
        ),
        remedy="send the whole request promptly; check the network",
    ),
    ErrorCode(
        "idempotency_conflict",
        409,
        when="the `Idempotency-Key` was used on this path with a different body",
        remedy="use a new key for a new request; resend the original body to retry",
    ),
    ErrorCode(
        "idempotency_key_in_progress",
        409,
        when="the identical request with this key is still being created",
        remedy="retry after `Retry-After` (1 s) to get its response",
    ),
    ErrorCode(
        "job_already_running",
        409,
        when="cancel of a job that is running",
        remedy="wait for it to finish; a running job cannot be cancelled",
    ),
    ErrorCode(
        "request_payload_too_large",
        413,
        when=(
            "the body is over the endpoint's limit (12 MB dispatches, 32 KB post likes, 50 MB CSV imports, "
            "10 MB JSON imports, 1 MB elsewhere)"
        ),
        remedy="send less: smaller or fewer attachments",
    ),
    ErrorCode(
        "api_rate_limit_exceeded",
        429,
        when=(
            "the account's limit for this request class is reached across all its keys, or "
            "its active-job limit"
        ),
        remedy="wait `Retry-After` seconds; spread requests; let running jobs finish",
    ),
    ErrorCode(
        "api_key_rate_limit_exceeded",
        429,
        when="this key's limit for the request class is reached",
        remedy="wait `Retry-After` seconds, then retry",
    ),
    ErrorCode(
        "queued_bytes_limit_exceeded",
        429,
        when=(
            "the account's dispatches not yet sent already carry "
            "`LEADWIRE_QUEUED_BYTES_PER_ACCOUNT` (64 MiB) of attachments"
        ),
        remedy=(
            "wait `Retry-After` seconds (attachments go once their message is sent), or send fewer at once"
        ),
    ),
    ErrorCode(
        "request_header_fields_too_large",
        431,
        when="the request line and headers are over `LEADWIRE_MAX_HEADER_BYTES`",
        remedy="send fewer or shorter headers",
    ),
    ErrorCode(
        "internal_error",
        500,
        when="an unexpected error in the server",
        remedy="retry once; report the `request_id` if it persists",
    ),
    ErrorCode(
        "task_unavailable",
        503,
        when=(
            "the database is unavailable, slow or lost a lock race, or the server is shutting"
            " down; nothing was created"
        ),
        remedy="retry after `Retry-After` with the same `Idempotency-Key`",
    ),
)
register_errors(PLATFORM_ERRORS)
