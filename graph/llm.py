"""Chat models from ``provider:model`` strings: every provider through one OpenAI-compatible client.

Settings name a tier's model as ``provider:model`` (``openai:gpt-4.1-mini``, ``ollama:qwen2.5:7b``,
``vllm:Qwen/Qwen2.5-7B-Instruct``). :func:`parse_model_spec` validates the string and
:func:`build_chat_model` turns it into a LangChain ``ChatOpenAI`` pointed at the provider's base
URL (a local default for ollama, vLLM and llama.cpp servers). SDK retries are switched off
(``max_retries=0``): every retry a model call makes is granted by the request's
:class:`~helpdesk.degrade.budget.RetryBudget`, never behind its back. ``langchain_openai`` (and
the OpenAI SDK under it) is imported only when a model is built: a bot with no model tier
configured never pays for it at start-up.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Final, Literal, get_args

if TYPE_CHECKING:
    import httpx
    from langchain_core.language_models import BaseChatModel

__all__ = ["DEFAULT_BASE_URLS", "Provider", "build_chat_model", "parse_model_spec"]

Provider = Literal["openai", "vllm", "ollama", "llamacpp", "openai_compatible"]

_PROVIDERS: Final[tuple[str, ...]] = get_args(Provider)

#: Where a local server of each provider listens by default.
DEFAULT_BASE_URLS: Final[dict[str, str]] = {
    "ollama": "http://127.0.0.1:11434/v1",
    "vllm": "http://127.0.0.1:8000/v1",
    "llamacpp": "http://127.0.0.1:8080/v1",
}

# Local servers ignore the key, but the OpenAI SDK refuses to start without one.
_NO_KEY: Final = "not-needed"


def parse_model_spec(spec: str) -> tuple[str, str]:
    """Split ``provider:model`` into ``(provider, model)``.

    Only the first ``:`` separates: ``ollama:qwen2.5:7b`` is provider ``ollama``, model
    ``qwen2.5:7b``.

    Raises:
        ValueError: the string has no ``:``, an empty part, or an unknown provider.
    """
    provider, sep, model = spec.strip().partition(":")
    provider = provider.strip().lower()
    model = model.strip()
    if not sep or not provider or not model:
        raise ValueError(
            f"model spec {spec!r} must look like 'provider:model', e.g. 'openai:gpt-4.1-mini' "
            f"(providers: {', '.join(_PROVIDERS)})"
        )
    if provider not in _PROVIDERS:
        raise ValueError(
            f"model spec {spec!r}: unknown provider {provider!r}; "
            f"use one of {', '.join(_PROVIDERS)} (all speak the OpenAI chat API)"
        )
    return provider, model


def build_chat_model(
    spec: str,
    *,
    base_url: str | None,
    api_key: str | None,
    timeout_s: float = 10.0,
    http_async_client: httpx.AsyncClient | None = None,
) -> BaseChatModel:
    """A ``ChatOpenAI`` for ``spec`` with SDK retries off and a per-call timeout.

    Args:
        spec: ``provider:model``.
        base_url: the endpoint (``.../v1``); None = the provider's default (OpenAI's API for
            ``openai``, a local port for ollama / vLLM / llama.cpp).
        api_key: the tier's key; None for local servers. ``openai`` against OpenAI's own API
            falls back to ``OPENAI_API_KEY`` and fails here if that is unset too.
        timeout_s: seconds a single call may take (the request budget may cut it further).
        http_async_client: the HTTP client to use (tests pass an in-process ASGI client).

    Raises:
        ValueError: a malformed spec, a non-positive timeout, ``openai_compatible`` without a
            base URL, or OpenAI's API without any key.
    """
    from langchain_openai import ChatOpenAI
    from pydantic import SecretStr

    provider, model = parse_model_spec(spec)
    if not timeout_s > 0:
        raise ValueError(f"timeout_s must be > 0, got {timeout_s}")
    url = base_url or DEFAULT_BASE_URLS.get(provider)
    if provider == "openai_compatible" and url is None:
        raise ValueError(f"model spec {spec!r}: openai_compatible needs a base URL")
    key: str | None = api_key
    if key is None and url is not None:
        key = _NO_KEY
    if key is None and not os.environ.get("OPENAI_API_KEY"):
        raise ValueError(
            f"model spec {spec!r}: no API key (set the tier's api_key or OPENAI_API_KEY)"
        )
    return ChatOpenAI(
        model=model,
        base_url=url,
        api_key=SecretStr(key) if key is not None else None,
        max_retries=0,
        timeout=timeout_s,
        http_async_client=http_async_client,
    )
