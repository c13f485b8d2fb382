"""API errors: every refusal is JSON ``{code, message}`` with the right status and headers."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

__all__ = ["ApiError", "error_body", "install_error_handlers"]


class ApiError(Exception):
    """A request refused with ``status`` and a stable ``code``."""

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        *,
        headers: dict[str, str] | None = None,
        extra: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.headers = headers or {}
        self.extra = extra or {}


def error_body(code: str, message: str, **extra: Any) -> dict[str, Any]:
    return {"code": code, "message": message, **extra}


def install_error_handlers(app: FastAPI) -> None:
    """Map ApiError, validation errors and HTTP errors to ``{code, message}``."""

    async def on_api_error(_: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, ApiError)
        return JSONResponse(
            error_body(exc.code, exc.message, **exc.extra),
            status_code=exc.status,
            headers=exc.headers,
        )

    async def on_validation_error(_: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, RequestValidationError)
        errors = list(exc.errors())
        if any(e.get("type") == "json_invalid" for e in errors):
            return JSONResponse(
                error_body("invalid_json", "The request body is not valid JSON."), status_code=400
            )
        fields = [
            {
                "field": ".".join(str(p) for p in e.get("loc", ()) if p != "body"),
                "message": str(e.get("msg", "")),
            }
            for e in errors
        ]
        return JSONResponse(
            error_body("invalid_request", "The request is not valid.", fields=fields),
            status_code=422,
        )

    async def on_http_error(_: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, StarletteHTTPException)
        code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
        return JSONResponse(
            error_body(code, str(exc.detail)), status_code=exc.status_code, headers=exc.headers
        )

    async def on_unexpected(_: Request, exc: Exception) -> JSONResponse:
        return JSONResponse(
            error_body("internal_error", "Something went wrong on our side."), status_code=500
        )

    app.add_exception_handler(ApiError, on_api_error)
    app.add_exception_handler(RequestValidationError, on_validation_error)
    app.add_exception_handler(StarletteHTTPException, on_http_error)
    app.add_exception_handler(Exception, on_unexpected)
