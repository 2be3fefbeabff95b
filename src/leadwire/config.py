"""Runtime configuration: every knob is a `LEADWIRE_*` environment variable."""

from __future__ import annotations

import contextlib
import ipaddress
import os
import stat
from functools import cached_property
from pathlib import Path

from pydantic import Field, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    """Settings shared by the server, the worker and the admin CLI."""

    model_config = SettingsConfigDict(env_prefix="LEADWIRE_", extra="ignore")

    data_dir: Path = Path("./var")
    database_url: str | None = None
    redis_url: str | None = None
    secret_key: str | None = None
    host: str = "127.0.0.1"
    port: int = 8000
    log_level: str = "info"
    # FastAPI's own OpenTelemetry spans and metrics, for an operator who runs an OpenTelemetry SDK. Off by
    # default: the service exports Prometheus metrics at /metrics, and FastAPI looks up the OpenTelemetry
    # configuration on every request when it is on (a few percent of a job poll).
    otel_instrumentation: bool = False

    world_dir: Path | None = None  # default: <data_dir>/world
    sandbox_size: str = "default"
    sandbox_seed: int = 7

    prefer_wait_cap_seconds: float = 60.0
    worker_concurrency: int = Field(default=4, ge=1, le=256)
    worker_poll_seconds: float = 1.0
    job_lease_seconds: float = 30.0
    job_max_attempts: int = 3
    job_retention_days: int = 30
    event_retention_days: int = 7
    shutdown_grace_seconds: float = 20.0
    idempotency_ttl_hours: float = 24.0
    # A key's claim is beaten while its request runs; one not beaten this long died with its process,
    # and the next identical request takes it over (platform/idempotency.py).
    idempotency_lock_timeout_seconds: float = Field(default=5.0, gt=0, le=3600)
    # Key lookups are cached this long per process: revocation and expiry apply within it.
    auth_cache_seconds: float = 2.0
    auth_miss_cache_seconds: float = 30.0  # an unknown key is not looked up again for this long
    auth_failures_per_minute: int = 60  # failed authentications per client address before 429
    stream_limit_per_key: int = 20  # open SSE streams one key may hold in one API process
    stream_limit_per_account: int = 50  # open SSE streams one account may hold in one API process
    # When the last of at least this many streams open at once ends, the process gives glibc's free
    # pages back to the system (malloc_trim). Off (0) by default: after a storm of 1,000 streams it gave
    # back 5 MB of 66 (docs/benchmarks.md, "Memory after a stream storm").
    memory_trim_after_streams: int = Field(default=0, ge=0)
    # Attachment bytes an account's jobs not yet done may carry (stored apart, dropped when they end).
    queued_bytes_per_account: int = 64 * 1024 * 1024

    # Every call to a backing service is bounded: past these, the request answers 503 task_unavailable.
    db_connect_timeout_seconds: float = Field(default=5.0, gt=0)
    db_statement_timeout_seconds: float = Field(default=5.0, gt=0)
    db_pool_timeout_seconds: float = Field(default=5.0, gt=0)
    # PostgreSQL connections per process: the write pool (`db_pool_size`, and as many again in bursts)
    # and the read pool of GET requests, waiters and stream followers (`db_read_pool_size`, a quarter
    # more in bursts). Size the read pool to the requests a process serves at once: a burst connection
    # is opened and closed per use. The job poll reads on a pool of its own (`db_poll_pool_size`, opened
    # on demand, closed after a minute idle): a read holds a connection for one round trip only.
    db_pool_size: int = Field(default=10, ge=1, le=512)
    db_read_pool_size: int = Field(default=16, ge=1, le=512)
    db_poll_pool_size: int = Field(default=8, ge=1, le=512)
    db_lock_timeout_seconds: float = Field(default=10.0, gt=0)  # SQLite busy timeout
    redis_timeout_seconds: float = Field(default=0.5, gt=0)
    # After a Redis failure, rate limits use per-process counters for this long before Redis is retried.
    redis_retry_seconds: float = Field(default=5.0, ge=0)

    # HTTP hardening. Hosts: comma-separated names the API answers to ("*" = any); the health
    # endpoints answer any host (load balancers probe by address).
    allowed_hosts: str = "localhost,127.0.0.1,[::1]"
    # Peers (addresses and CIDR networks, comma-separated; "*" any) whose X-Forwarded-Proto and
    # X-Forwarded-For count: the scheme that decides the console cookie's Secure flag, and the client
    # address of the failed-auth guard. A header from any other peer is ignored.
    trusted_proxies: str = "127.0.0.1,::1"
    # The console's cookies carry Secure whatever the scheme the request arrived with.
    console_secure_cookies: bool = False
    # Browser origins allowed to call /mcp/ (none by default: MCP clients are not browsers).
    allowed_origins: str = ""
    metrics_token: str | None = None  # when set, GET /metrics needs `Authorization: Bearer <token>`
    metrics_public: bool = False  # without a token /metrics is refused unless this opens it to anyone
    header_timeout_seconds: float = Field(default=10.0, gt=0)
    body_timeout_seconds: float = Field(default=30.0, gt=0)
    max_header_bytes: int = Field(default=32768, ge=1024)
    # Outside services: `sandbox` (offline default) or the real provider.
    search_provider: str = "sandbox"
    exa_api_key: str | None = None
    exa_base_url: str = "https://api.exa.ai"
    contacts_provider: str = "sandbox"
    hunter_api_key: str | None = None
    hunter_base_url: str = "https://api.hunter.io/v2"
    # Prospect-list reasoning: `rules` (offline) or `openai` (any OpenAI-compatible chat endpoint).
    reasoner: str = "rules"
    llm_base_url: str = "https://api.openai.com/v1"
    llm_api_key: str | None = None
    llm_model: str = "gpt-4o-mini"
    llm_timeout_seconds: float = Field(default=60.0, gt=0)
    # Customs trade data: `duckdb` reads <world_dir>/trade.duckdb (read-only, any number of processes);
    # `postgres` reads table trade_shipments at trade_database_url (default: database_url when PostgreSQL).
    trade_store: str = "duckdb"
    trade_database_url: str | None = None
    trade_memory_limit: str = "1GB"  # DuckDB memory_limit per process
    trade_threads: int | None = Field(default=None, ge=1, le=64)  # DuckDB threads (default: the cores)
    trade_pool_size: int = Field(default=8, ge=1, le=256)  # PostgreSQL connections per process

    # Webhooks: deliveries go only to public addresses unless this lets them reach private, loopback and
    # link-local ones too (a self-hosted deployment delivering inside its own network; the tests).
    webhook_allow_private_networks: bool = False
    webhook_timeout_seconds: float = Field(default=10.0, gt=0, le=60)  # the whole delivery, connect to body
    webhook_concurrency: int = Field(default=8, ge=1, le=256)  # deliveries one worker sends at once
    webhook_limit_per_account: int = Field(default=20, ge=1, le=1000)
    # How long registering a webhook waits for its host's name to resolve; past it the URL is accepted
    # unchecked, as a name that does not resolve yet is (every delivery checks the address again).
    egress_lookup_timeout_seconds: float = Field(default=2.0, gt=0, le=30)
    # Seconds before each retry of a failed delivery (with 10% jitter); past the last, it is `failed`.
    webhook_retry_schedule: str = "5,30,120,600,1800,7200,21600,43200,86400"
    # A webhook every delivery of which has failed for this long is disabled.
    webhook_disable_after_seconds: float = Field(default=3 * 86400, gt=0)
    webhook_retention_days: int = Field(default=30, ge=1)  # finished deliveries are kept this long

    # Monitors: how often a worker looks for due slots (slots are at least an hour apart).
    monitor_tick_seconds: float = Field(default=20.0, gt=0, le=600)

    # Prices by billable kind, JSON {"kind": credits}; unnamed kinds keep the defaults (docs/api.md,
    # Credits and per-row billing).
    prices: str = ""

    # Extra modules loaded at start (routers and job actions of extensions; the tests use it too).
    plugins: str = ""

    @field_validator("webhook_retry_schedule")
    @classmethod
    def _retry_schedule(cls, value: str) -> str:
        try:
            delays = [float(part) for part in _split(value)]
        except ValueError:
            raise ValueError("comma-separated seconds, e.g. 5,30,120") from None
        if not delays or any(d <= 0 for d in delays) or len(delays) > 30:
            raise ValueError("between 1 and 30 positive numbers of seconds")
        return value

    @field_validator("trusted_proxies")
    @classmethod
    def _trusted_proxies(cls, value: str) -> str:
        _trusted_peers(value)
        return value

    @property
    def trusted_proxy_list(self) -> list[str]:
        """The peers as uvicorn's `forwarded_allow_ips` is given them (`_trusted_peers`)."""
        return _trusted_peers(self.trusted_proxies)

    @property
    def webhook_retry_delays(self) -> tuple[float, ...]:
        return tuple(float(part) for part in _split(self.webhook_retry_schedule))

    @property
    def plugin_modules(self) -> tuple[str, ...]:
        return tuple(m.strip() for m in self.plugins.split(",") if m.strip())

    @property
    def allowed_host_list(self) -> tuple[str, ...]:
        return _split(self.allowed_hosts)

    @property
    def allowed_origin_list(self) -> tuple[str, ...]:
        return _split(self.allowed_origins)

    @property
    def resolved_database_url(self) -> str:
        if self.database_url:
            return self.database_url
        return f"sqlite+aiosqlite:///{(self.data_dir / 'leadwire.db').resolve()}"

    @property
    def is_sqlite(self) -> bool:
        return self.resolved_database_url.startswith("sqlite")

    @property
    def resolved_trade_database_url(self) -> str | None:
        """The PostgreSQL DSN of the trade store, in asyncpg's form (no SQLAlchemy driver suffix)."""
        url = self.trade_database_url or (None if self.is_sqlite else self.resolved_database_url)
        return url.replace("postgresql+asyncpg://", "postgresql://", 1) if url else None

    @property
    def resolved_world_dir(self) -> Path:
        return self.world_dir or self.data_dir / "world"

    def ensure_data_dir(self) -> Path:
        """The data directory, created readable by this user only (0700): it holds the database, the
        secret key and the messages the sandbox sent. One that exists keeps its mode (it may be a
        directory the operator shares on purpose); the files in it are 0600 all the same."""
        self.data_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
        return self.data_dir

    @cached_property
    def resolved_secret_key(self) -> str:
        """The Fernet key for stored provider credentials; generated into the data dir once (0600)."""
        if self.secret_key:
            return self.secret_key
        path = self.data_dir / "secret.key"
        if path.exists():
            keep_private(path)
            return path.read_text().strip()
        from cryptography.fernet import Fernet

        self.ensure_data_dir()
        try:
            # O_EXCL: when two processes start together, the first writer wins and both read its key.
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            return path.read_text().strip()
        with os.fdopen(fd, "w") as handle:
            handle.write(Fernet.generate_key().decode())
        return path.read_text().strip()


def keep_private(path: Path) -> None:
    """`path`, if it exists and others may read or write it, made this user's only (0600). A file
    this user does not own is left as it is (its owner chose its mode)."""
    with contextlib.suppress(FileNotFoundError, PermissionError):
        if stat.S_IMODE(path.stat().st_mode) & 0o077:
            path.chmod(0o600)


def _split(value: str) -> tuple[str, ...]:
    return tuple(part.strip().lower() for part in value.split(",") if part.strip())


def _trusted_peers(value: str) -> list[str]:
    """`LEADWIRE_TRUSTED_PROXIES` written as uvicorn reads it: each address as `ip_address` prints it and
    each network as `ip_network` does, host bits dropped (`10.0.0.5/8` is `10.0.0.0/8`), or `*` alone.
    uvicorn takes an entry it cannot parse strictly (`10.0.0.5/8`, or `*` beside an address) for a
    literal peer name that no peer has, so the proxy would silently not count; here such a value is
    either written out or refused at start (ValueError)."""
    parts = list(_split(value))
    if "*" in parts:
        if len(parts) > 1:
            raise ValueError("'*' (any peer) stands alone, not beside addresses or networks")
        return ["*"]
    peers: list[str] = []
    for part in parts:
        try:
            peer = ipaddress.ip_network(part, strict=False) if "/" in part else ipaddress.ip_address(part)
        except ValueError:
            raise ValueError(f"{part!r} is not an address or a CIDR network") from None
        peers.append(str(peer))
    return peers


def load_settings() -> Settings:
    return Settings()
