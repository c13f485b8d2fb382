"""Settings from the environment / ``.env`` (prefix ``HELPDESK_``), validated by pydantic.

A broken value fails at start-up with a message naming the variable, never halfway through a
customer's turn.
"""

from __future__ import annotations

import math
import os
import re
import sqlite3
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Literal
from urllib.parse import urlsplit

import httpx
from pydantic import Field, SecretStr, ValidationError, ValidationInfo, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from helpdesk.tools.executor import DEFAULT_MAX_ATTEMPTS

__all__ = [
    "Settings",
    "SettingsError",
    "default_data_dir",
    "describe_settings_error",
    "load_settings",
    "storage_error",
    "storage_errors",
]

ENV_PREFIX = "HELPDESK_"


class SettingsError(Exception):
    """A setting is invalid; the message names each ``HELPDESK_*`` variable and what it allows."""


@dataclass(frozen=True, kw_only=True, slots=True)
class _Bound:
    """The allowed range of a numeric setting (always finite)."""

    low: float
    """The smallest value allowed (or just above it, when ``low_open``)."""
    high: float
    """The largest value allowed."""
    low_open: bool = False
    """True: ``low`` itself is not allowed."""
    unit: str = ""
    """Shown after the range (``seconds``)."""

    def admits(self, value: float) -> bool:
        if not math.isfinite(value) or value > self.high:
            return False
        return value > self.low if self.low_open else value >= self.low

    def __str__(self) -> str:
        low = f"> {_number(self.low)}" if self.low_open else f">= {_number(self.low)}"
        unit = f" {self.unit}" if self.unit else ""
        return f"{low} and <= {_number(self.high)}{unit} (a finite number)"


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


_DAY_S = 86_400.0
_BOUNDS: dict[str, _Bound] = {
    "model_timeout_s": _Bound(low=0, high=600, low_open=True, unit="seconds"),
    "probe_interval_s": _Bound(low=0, high=_DAY_S, low_open=True, unit="seconds"),
    "probe_unhealthy_interval_s": _Bound(low=0, high=_DAY_S, low_open=True, unit="seconds"),
    "backup_quota": _Bound(low=0, high=1, low_open=True),
    "request_budget_s": _Bound(low=0, high=600, low_open=True, unit="seconds"),
    "request_max_retries": _Bound(low=0, high=100),
    "tool_max_attempts": _Bound(low=1, high=20),
    "retry_ratio": _Bound(low=0, high=1, low_open=True),
    "retry_reserve_per_s": _Bound(low=0, high=10_000, unit="retries per second"),
    "breaker_failure_rate": _Bound(low=0, high=1, low_open=True),
    "breaker_min_calls": _Bound(low=1, high=1_000_000),
    "breaker_failure_count": _Bound(low=1, high=1_000_000),
    "breaker_open_s": _Bound(low=0, high=_DAY_S, unit="seconds"),
    "context_window": _Bound(low=256, high=10_000_000, unit="tokens"),
    "context_watermark": _Bound(low=0, high=1, low_open=True),
    "degraded_turns_for_simplified": _Bound(low=1, high=1000),
    "confirmation_ttl_s": _Bound(low=0, high=_DAY_S, low_open=True, unit="seconds"),
}


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
    """Seconds between active health probes of a model tier that takes traffic (long-lived
    processes: interactive chat, the service)."""
    probe_unhealthy_interval_s: float = 5.0
    """Seconds between probes of a model tier that is down (how soon a recovered one is back)."""
    backup_quota: float = 0.5
    """Backup-tier calls allowed as a fraction of main-path model requests."""
    request_budget_s: float = 8.0
    """Seconds a turn's retries may spend in total."""
    request_max_retries: int = 3
    """Retries a turn may make in total, tools and models together."""
    tool_max_attempts: int = DEFAULT_MAX_ATTEMPTS
    """Attempts one tool call may make (the first included), each retry only while the turn's
    budget and the process-wide cap grant it (see ``tools.executor.DEFAULT_MAX_ATTEMPTS``)."""
    retry_ratio: float = 0.5
    """Process-wide cap: retries at most this fraction of calls over a 10 s window (plus the
    reserve below). 30% independent failures need ~0.39 retries per call."""
    retry_reserve_per_s: float = 1.0
    """Retries per second always allowed process-wide, so a quiet process is not starved."""
    breaker_failure_rate: float = 0.5
    """A tool's breaker trips when one error class reaches this share of calls in 60 s..."""
    breaker_min_calls: int = 10
    """...with at least this many calls in the window..."""
    breaker_failure_count: int = 10
    """...and at least this many failures of that class (all three, not either). A failure is
    a logical call that failed after its retries; a retried-and-recovered attempt is noise."""
    breaker_open_s: float = 30.0
    """Seconds a tripped breaker stays open before probing (half-open ramp)."""
    context_window: int = 8000
    """Token window of the tier in use (minimal: the transcript kept in state)."""
    context_watermark: float = 0.75
    """Compact the conversation when it reaches this fraction of the window."""
    degraded_turns_for_simplified: int = 3
    """Degraded turns in a row that switch a session to simplified mode."""
    confirmation_ttl_s: float = 600.0
    """Seconds a question waiting for the customer's yes stays valid (then: expired, not done)."""
    first_round_early: bool = True
    """End the first model round at the first answer the rules corroborate; False: wait for
    both the decomposition and the tool selection (the models' reading always wins)."""

    @field_validator(*_BOUNDS)
    @classmethod
    def _in_range(cls, value: float, info: ValidationInfo) -> float:
        bound = _BOUNDS[str(info.field_name)]
        if not bound.admits(value):
            raise ValueError(f"must be {bound}")
        return value

    @field_validator("primary_model", "backup_model")
    @classmethod
    def _provider_model(cls, value: str | None) -> str | None:
        if value is not None and value.strip() and ":" not in value:
            raise ValueError("must look like provider:model, e.g. openai:gpt-4.1-mini")
        return value or None

    @field_validator("checkpoint_url")
    @classmethod
    def _postgres_url(cls, value: str | None) -> str | None:
        if not value or not value.strip():
            return None
        if not value.startswith(("postgresql://", "postgres://")):
            raise ValueError("must be a postgresql://... URL (unset: the SQLite sessions file)")
        return value

    @field_validator("shop_url", "primary_base_url", "backup_base_url")
    @classmethod
    def _http_url(cls, value: str | None) -> str | None:
        if not value or not value.strip():
            return None
        try:
            url = httpx.URL(value)
        except (httpx.InvalidURL, TypeError) as exc:
            raise ValueError("must be an http:// or https:// URL") from exc
        if url.scheme not in ("http", "https") or not url.host:
            raise ValueError("must be an http:// or https:// URL")
        return value

    @field_validator("customer")
    @classmethod
    def _customer_id(cls, value: str) -> str:
        if not re.fullmatch(r"[\x21-\x7e]{1,128}", value.strip()):
            raise ValueError("must be 1-128 printable ASCII characters without spaces")
        return value.strip()

    @field_validator("hotline")
    @classmethod
    def _phone(cls, value: str) -> str:
        if not re.fullmatch(r"[0-9+()\- ]{3,40}", value) or not re.search(r"\d", value):
            raise ValueError("must be a phone number: 3-40 of 0-9 + - ( ) and spaces")
        return value

    @field_validator("data_dir")
    @classmethod
    def _usable_dir(cls, value: Path) -> Path:
        _check_writable_dir(value)
        return value

    @field_validator("checkpoint_path", "shop_db_path")
    @classmethod
    def _usable_file(cls, value: Path | None) -> Path | None:
        if value is not None:
            if value.is_dir():
                raise ValueError("must be a file path, not a directory")
            _check_writable_dir(value.parent)
        return value

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


def _check_writable_dir(path: Path) -> None:
    """Create ``path`` if needed and prove a file can be written in it (root ignores modes)."""
    try:
        path.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=path):
            pass
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        raise ValueError(f"must be a writable directory; {path}: {reason}") from exc


def load_settings(**overrides: object) -> Settings:
    """Settings from the environment; a bad value raises :class:`SettingsError` naming it."""
    try:
        return Settings(**overrides)  # type: ignore[arg-type]
    except ValidationError as exc:
        raise SettingsError(describe_settings_error(exc)) from exc


def describe_settings_error(exc: ValidationError) -> str:
    """One line per bad setting: ``HELPDESK_X (x) = 'value': what is allowed``."""
    lines = []
    for error in exc.errors():
        field = ".".join(str(part) for part in error.get("loc", ())) or "?"
        message = str(error.get("msg", "invalid")).removeprefix("Value error, ")
        bound = _BOUNDS.get(field)
        if bound is not None and not message.startswith("must be"):
            message = f"{message}; must be {bound}"
        value = error.get("input")
        shown = repr(value if not isinstance(value, str) else value[:80])
        lines.append(f"{ENV_PREFIX}{field.upper()} ({field}) = {shown}: {message}")
    return "\n".join(lines)


def storage_errors() -> tuple[type[BaseException], ...]:
    """What opening the session store raises when its setting points nowhere usable."""
    errors: list[type[BaseException]] = [OSError, ValueError, RuntimeError, sqlite3.Error]
    try:
        import psycopg
    except ImportError:  # pragma: no cover - the postgres extra is not installed
        pass
    else:
        errors.append(psycopg.Error)
    return tuple(errors)


def storage_error(settings: Settings, exc: BaseException) -> str:
    """The start-up message for a session store that cannot be opened (no password shown)."""
    if settings.checkpoint_url:
        parts = urlsplit(settings.checkpoint_url)
        host = parts.hostname or "localhost"
        port = f":{parts.port}" if parts.port else ""
        where = f"{parts.scheme}://{host}{port}{parts.path}"
        variable = f"{ENV_PREFIX}CHECKPOINT_URL"
        allowed = "a reachable postgresql://user@host:port/db"
    else:
        where = str(settings.sessions_file)
        variable = f"{ENV_PREFIX}CHECKPOINT_PATH / {ENV_PREFIX}DATA_DIR"
        allowed = "a writable SQLite file"
    first_line = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
    return f"{variable}: cannot open the session store at {where}: {first_line} (must be {allowed})"
