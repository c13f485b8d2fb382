"""ASGI middleware of the service: a request-body size cap and one OpenTelemetry span per
request (with the route template, the status and the customer-facing error code)."""

from __future__ import annotations

import json
from typing import Any

from opentelemetry import trace
from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["BodyLimitMiddleware", "RequestSpanMiddleware"]


class _TooLarge(Exception):
    pass


class BodyLimitMiddleware:
    """Answer 413 ``body_too_large`` for bodies over ``max_bytes`` (declared or streamed)."""

    def __init__(self, app: ASGIApp, *, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.max_bytes:
            await self._refuse(send)
            return
        seen = 0
        started = False

        async def limited() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_bytes:
                    raise _TooLarge
            return message

        async def tracking_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, limited, tracking_send)
        except _TooLarge:
            if not started:
                await self._refuse(send)

    async def _refuse(self, send: Send) -> None:
        body = json.dumps(
            {"code": "body_too_large", "message": f"The body is over {self.max_bytes} bytes."}
        ).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})


class RequestSpanMiddleware:
    """One server span per HTTP request: ``http.method``, ``http.route``, ``http.status_code``."""

    def __init__(self, app: ASGIApp, *, tracer: Any = None) -> None:
        self.app = app
        self.tracer = tracer or trace.get_tracer("helpdesk.service")

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        method = scope.get("method", "GET")
        with self.tracer.start_as_current_span(
            f"HTTP {method}", kind=trace.SpanKind.SERVER
        ) as span:
            span.set_attribute("http.method", method)
            span.set_attribute("http.target", scope.get("path", ""))

            async def traced_send(message: Message) -> None:
                if message["type"] == "http.response.start":
                    span.set_attribute("http.status_code", int(message["status"]))
                    route = scope.get("route")
                    path = getattr(route, "path", None)
                    if path:
                        span.set_attribute("http.route", path)
                        span.update_name(f"HTTP {method} {path}")
                await send(message)

            await self.app(scope, receive, traced_send)
