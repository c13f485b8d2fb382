"""Every setting has bounds: a bad value stops start-up naming HELPDESK_<FIELD> and the range."""

from __future__ import annotations

from pathlib import Path

import pytest

from helpdesk.app.settings import SettingsError, load_settings


@pytest.mark.parametrize(
    ("field", "value", "expected"),
    [
        ("request_budget_s", "nan", "must be > 0 and <= 600 seconds (a finite number)"),
        ("request_budget_s", "inf", "must be > 0 and <= 600 seconds"),
        ("request_budget_s", "0", "must be > 0 and <= 600 seconds"),
        ("model_timeout_s", "-1", "must be > 0 and <= 600 seconds"),
        ("probe_interval_s", "nan", "must be > 0 and <= 86400 seconds"),
        ("breaker_open_s", "inf", "must be >= 0 and <= 86400 seconds"),
        ("backup_quota", "nan", "must be > 0 and <= 1"),
        ("retry_ratio", "0", "must be > 0 and <= 1"),
        ("breaker_failure_rate", "1.5", "must be > 0 and <= 1"),
        ("context_watermark", "nan", "must be > 0 and <= 1"),
        ("request_max_retries", "-1", "must be >= 0 and <= 100"),
        ("breaker_min_calls", "0", "must be >= 1 and <= 1000000"),
        ("breaker_failure_count", "0", "must be >= 1 and <= 1000000"),
        ("degraded_turns_for_simplified", "0", "must be >= 1 and <= 1000"),
        ("context_window", "0", "must be >= 256 and <= 10000000 tokens"),
        ("confirmation_ttl_s", "nan", "must be > 0 and <= 86400 seconds"),
        ("context_window", "abc", "must be >= 256 and <= 10000000 tokens"),
        ("checkpoint_url", "mysql://x", "must be a postgresql://"),
        ("shop_url", "ftp://x", "must be an http:// or https:// URL"),
        ("primary_base_url", "not a url", "must be an http:// or https:// URL"),
        ("primary_model", "gpt-4.1-mini", "must look like provider:model"),
        ("customer", "", "must be 1-128 printable ASCII characters without spaces"),
        ("customer", "客户", "must be 1-128 printable ASCII characters without spaces"),
        ("hotline", "call us", "must be a phone number"),
        ("data_dir", "/proc/nope", "must be a writable directory"),
        ("shop_db_path", "/proc/nope/shop.sqlite", "must be a writable directory"),
    ],
)
def test_load_settings_bad_value_names_the_variable_and_range(
    monkeypatch: pytest.MonkeyPatch, field: str, value: str, expected: str
) -> None:
    monkeypatch.setenv(f"HELPDESK_{field.upper()}", value)
    with pytest.raises(SettingsError) as caught:
        load_settings()
    message = str(caught.value)
    assert message.startswith(f"HELPDESK_{field.upper()} ({field}) = ")
    assert expected in message


def test_load_settings_defaults_are_valid(tmp_path: Path) -> None:
    settings = load_settings(data_dir=tmp_path)
    assert settings.request_budget_s == 8.0 and settings.customer == "C0001"


def test_load_settings_checkpoint_path_that_is_a_directory_is_refused(tmp_path: Path) -> None:
    with pytest.raises(SettingsError, match="must be a file path, not a directory"):
        load_settings(checkpoint_path=tmp_path)
