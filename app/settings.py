"""Settings from the environment / ``.env`` (prefix ``HELPDESK_``), validated by pydantic.

A broken value fails at start-up with a message naming the variable, never halfway through a
customer's turn.
"""

from __future__ import annotations

import math
import os
from pathlib import Path
from typing import Literal

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

    # --- sessions: lock, durability, retention, privacy at rest (see graph/session_lock.py,
    # graph/checkpoint.py, app/sessions.py) ---
    session_lock_wait_s: float = 30.0
    """Seconds a turn waits for another turn of the same session before answering "still
    working on your previous message"."""
    checkpoint_durability: Literal["exit", "async", "sync"] = "exit"
    """LangGraph durability of a turn: ``exit`` stores the state once, when the turn ends
    (before the reply is shown); ``sync``/``async`` store it after every step."""
    session_retention_days: float = 30.0
    """Sessions idle longer than this are deleted by ``helpdesk sessions purge``."""
    checkpoint_key: SecretStr | None = None
    """Key that encrypts sessions at rest (32 random bytes as 64 hex characters or base64);
    unset = plain (local CLI). The HTTP service refuses to start without it."""

    @field_validator("session_lock_wait_s")
    @classmethod
    def _lock_wait(cls, value: float) -> float:
        if not math.isfinite(value) or not 0 <= value <= 3600:
            raise ValueError("must be between 0 and 3600 seconds")
        return value

    @field_validator("session_retention_days")
    @classmethod
    def _retention(cls, value: float) -> float:
        if not math.isfinite(value) or not 0 < value <= 36500:
            raise ValueError("must be > 0 and at most 36500 days")
        return value

    @field_validator("checkpoint_key")
    @classmethod
    def _checkpoint_key(cls, value: SecretStr | None) -> SecretStr | None:
        if value is None or not value.get_secret_value():
            return None
        from helpdesk.graph.checkpoint import parse_checkpoint_key

        parse_checkpoint_key(value.get_secret_value())  # ValueError names the expected form
        return value
