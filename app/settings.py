"""Settings from the environment / ``.env`` (prefix ``HELPDESK_``), validated by pydantic.

A broken value fails at start-up with a message naming the variable, never halfway through a
customer's turn.
"""

from __future__ import annotations

import math
import os
from pathlib import Path

from pydantic import Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

__all__ = ["Settings", "default_data_dir"]


def default_data_dir() -> Path:
    """Per-user data dir: ``$XDG_DATA_HOME/helpdesk`` or ``~/.local/share/helpdesk``."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "helpdesk"


class Settings(BaseSettings):
    """Everything an operator can set. Environment variables are ``HELPDESK_<FIELD>``."""

    model_config = SettingsConfigDict(
        env_prefix="HELPDESK_", env_file=".env", env_file_encoding="utf-8", extra="ignore"
    )

    data_dir: Path = Field(default_factory=default_data_dir)
    """Where sessions (checkpoints) and the embedded shop's database live."""
    checkpoint_path: Path | None = None
    """SQLite checkpoint file; default ``<data_dir>/sessions.sqlite``."""
    checkpoint_url: str | None = None
    """``postgresql://...`` to keep sessions in PostgreSQL (scale-out); unset = SQLite file."""
    shop_url: str | None = None
    """Base URL of the shop API; unset = the embedded demo shop, in-process."""
    shop_db_path: Path | None = None
    """SQLite file of the embedded shop; default ``<data_dir>/shop.sqlite``."""
    customer: str = "C0001"
    """The customer the CLI talks as (the session's authenticated identity)."""
    hotline: str = "400-820-8820"
    """The only phone number the bot may give out."""
    primary_model: str | None = None
    """``provider:model`` of the primary tier, e.g. ``openai:gpt-4.1-mini``."""
    backup_model: str | None = None
    """``provider:model`` of the backup tier."""
    primary_base_url: str | None = None
    """OpenAI-compatible endpoint of the primary tier (``.../v1``); None = provider default."""
    primary_api_key: str | None = None
    """API key of the primary tier (None: ``OPENAI_API_KEY`` for OpenAI, none for local)."""
    backup_base_url: str | None = None
    """OpenAI-compatible endpoint of the backup tier."""
    backup_api_key: str | None = None
    """API key of the backup tier."""
    model_timeout_s: float = 10.0
    """Seconds one model call may take (the request budget may cut it further)."""
    probe_interval_s: float = 30.0
    """Seconds between active health probes of the model tiers (long-lived processes)."""
    backup_quota: float = 0.5
    """Backup-tier calls allowed as a fraction of main-path model requests."""
    request_budget_s: float = 8.0
    """Seconds a turn's retries may spend in total."""
    request_max_retries: int = 3
    """Retries a turn may make in total, tools and models together."""
    retry_ratio: float = 0.1
    """Process-wide cap: retries at most this fraction of calls over a 10 s window."""
    breaker_failure_rate: float = 0.30
    """A tool's breaker trips when one error class reaches this share of calls in 60 s."""
    breaker_min_calls: int = 10
    """Calls in the window before the failure-rate rule applies."""
    breaker_failure_count: int = 20
    """...or when one error class reaches this many failures in 60 s, whatever the rate."""
    breaker_open_s: float = 30.0
    """Seconds a tripped breaker stays open before probing (half-open ramp)."""
    context_window: int = 8000
    """Token window of the tier in use (minimal: the transcript kept in state)."""
    context_watermark: float = 0.75
    """Compact the conversation when it reaches this fraction of the window."""
    degraded_turns_for_simplified: int = 3
    """Degraded turns in a row that switch a session to simplified mode."""
    confirmation_ttl_s: float = Field(default=600.0, gt=0, le=86400, allow_inf_nan=False)
    """Seconds a question waiting for the customer's yes stays valid (then: expired, not done)."""

    @field_validator("request_budget_s")
    @classmethod
    def _positive_budget(cls, value: float) -> float:
        if value <= 0:
            raise ValueError("must be > 0 seconds")
        return value

    @field_validator("request_max_retries")
    @classmethod
    def _non_negative_retries(cls, value: int) -> int:
        if value < 0:
            raise ValueError("must be >= 0")
        return value

    @field_validator("retry_ratio", "breaker_failure_rate")
    @classmethod
    def _ratio(cls, value: float) -> float:
        if not 0 < value <= 1:
            raise ValueError("must be in (0, 1]")
        return value

    @field_validator("breaker_min_calls", "breaker_failure_count")
    @classmethod
    def _at_least_one(cls, value: int) -> int:
        if value < 1:
            raise ValueError("must be >= 1")
        return value

    @field_validator("breaker_open_s")
    @classmethod
    def _non_negative_seconds(cls, value: float) -> float:
        if value < 0:
            raise ValueError("must be >= 0 seconds")
        return value

    @field_validator("model_timeout_s", "probe_interval_s")
    @classmethod
    def _positive_seconds(cls, value: float) -> float:
        if value <= 0:
            raise ValueError("must be > 0 seconds")
        return value

    @field_validator("backup_quota")
    @classmethod
    def _quota_fraction(cls, value: float) -> float:
        if not 0 < value <= 1:
            raise ValueError("must be in (0, 1]")
        return value

    @field_validator("context_watermark")
    @classmethod
    def _fraction(cls, value: float) -> float:
        if not 0 < value <= 1:
            raise ValueError("must be in (0, 1]")
        return value

    @field_validator("primary_model", "backup_model")
    @classmethod
    def _provider_model(cls, value: str | None) -> str | None:
        if value is not None and value.strip() and ":" not in value:
            raise ValueError("must look like provider:model, e.g. openai:gpt-4.1-mini")
        return value or None

    @property
    def sessions_file(self) -> Path:
        return self.checkpoint_path or self.data_dir / "sessions.sqlite"

    @property
    def shop_file(self) -> Path:
        return self.shop_db_path or self.data_dir / "shop.sqlite"

    # --- `helpdesk serve` (the HTTP service); kept together at the end ---------------------
    token_secret: SecretStr | None = None
    """HMAC secret that signs customer tokens (HS256); ``helpdesk serve`` and
    ``helpdesk token`` refuse to run without one of at least 32 characters."""
    token_ttl_s: float = 3600.0
    """Seconds a minted customer token stays valid."""
    service_max_turns: int = 20
    """Turns one replica runs at once; past it a request is answered 503 + Retry-After."""
    service_max_loop_lag_s: float = 0.5
    """Event-loop lag past which new turns are shed (503) until it recovers."""
    service_turn_deadline_s: float = 30.0
    """Seconds a turn may run before it is cancelled and answered 504."""
    service_rate_per_minute: float = 30.0
    """Turns one customer may start per minute (token bucket); past it 429 + Retry-After."""
    service_rate_burst: int = 10
    """Turns one customer may start at once before the per-minute rate applies."""
    service_max_body_bytes: int = 16_384
    """Largest request body accepted (413 past it)."""
    service_demo_login: bool = False
    """Let the web page mint tokens for the demo customers (``serve --demo``); never in
    production."""
    redis_url: str | None = None
    """``redis://...`` shared by replicas (breakers, retry ratio, session owners and locks);
    unset = in-process state (one replica)."""
    redis_prefix: str = "helpdesk"
    """Prefix of every Redis key (deployments sharing one Redis use different prefixes)."""

    @field_validator(
        "token_ttl_s",
        "service_max_loop_lag_s",
        "service_turn_deadline_s",
        "service_rate_per_minute",
    )
    @classmethod
    def _service_seconds(cls, value: float) -> float:
        if not math.isfinite(value) or value <= 0:
            raise ValueError("must be a finite number > 0")
        return value

    @field_validator("service_max_turns", "service_rate_burst", "service_max_body_bytes")
    @classmethod
    def _service_count(cls, value: int) -> int:
        if value < 1:
            raise ValueError("must be >= 1")
        return value

    @field_validator("redis_url")
    @classmethod
    def _redis_url(cls, value: str | None) -> str | None:
        if value and not value.startswith(("redis://", "rediss://", "unix://")):
            raise ValueError("must be a redis:// URL")
        return value or None
