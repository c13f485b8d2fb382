"""Customer tokens: HS256 JWTs (PyJWT) that carry the customer id and nothing else.

The service takes the customer only from a verified token, never from a request body. A token
names its audience and expires; a forged, expired, malformed or foreign token is refused with
:class:`TokenError`, whose ``code`` is the API error code.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import jwt

__all__ = ["AUDIENCE", "MIN_SECRET_CHARS", "TokenError", "TokenIssuer", "is_customer_id"]

AUDIENCE = "helpdesk"
"""The ``aud`` claim every customer token carries (a token minted for another service fails)."""

MIN_SECRET_CHARS = 32
"""Shorter HMAC secrets are refused at start-up."""

_ALGORITHM = "HS256"
_CUSTOMER = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


def is_customer_id(value: str) -> bool:
    """Whether ``value`` is a well-formed customer id (1-64 of ``[A-Za-z0-9_-]``)."""
    return bool(_CUSTOMER.fullmatch(value))


class TokenError(Exception):
    """A customer token was missing, malformed, forged or expired."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True, kw_only=True, slots=True)
class TokenIssuer:
    """Mints and verifies customer tokens with one HMAC secret."""

    secret: str
    """HMAC key (at least :data:`MIN_SECRET_CHARS` characters)."""
    ttl_s: float = 3600.0
    """Lifetime of a minted token, seconds."""
    clock: Callable[[], float] = field(default=time.time)
    """Wall clock, epoch seconds (a fake in tests)."""

    def __post_init__(self) -> None:
        if len(self.secret) < MIN_SECRET_CHARS:
            raise ValueError(
                f"HELPDESK_TOKEN_SECRET must have at least {MIN_SECRET_CHARS} characters"
            )
        if not self.ttl_s > 0:
            raise ValueError("HELPDESK_TOKEN_TTL_S must be > 0")

    def mint(self, customer: str) -> str:
        """A signed token for ``customer``."""
        if not is_customer_id(customer):
            raise ValueError(f"not a customer id: {customer!r} (1-64 of A-Z a-z 0-9 _ -)")
        now = int(self.clock())
        claims = {"sub": customer, "aud": AUDIENCE, "iat": now, "exp": now + int(self.ttl_s)}
        return jwt.encode(claims, self.secret, algorithm=_ALGORITHM)

    def verify(self, token: str) -> str:
        """The customer id a valid token carries.

        Raises:
            TokenError: ``token_expired`` or ``token_invalid`` (bad signature, wrong audience,
                malformed, missing claims).
        """
        try:
            claims = jwt.decode(
                token,
                self.secret,
                algorithms=[_ALGORITHM],
                audience=AUDIENCE,
                options={"require": ["sub", "exp", "aud"], "verify_iat": False},
                leeway=0,
                # PyJWT compares exp with its own clock; ours is checked below.
            )
        except jwt.ExpiredSignatureError as exc:
            raise TokenError("token_expired", "The token has expired; log in again.") from exc
        except jwt.PyJWTError as exc:
            raise TokenError("token_invalid", "The token is not valid.") from exc
        customer = claims.get("sub")
        if not isinstance(customer, str) or not is_customer_id(customer):
            raise TokenError("token_invalid", "The token names no valid customer.")
        if float(claims["exp"]) <= self.clock():
            raise TokenError("token_expired", "The token has expired; log in again.")
        return customer
