"""Privacy at rest: the checkpoint encryption key from the settings, and the service-mode rule.

Card numbers, ID-card numbers and bank accounts never reach storage: the session API masks them
when a message is received (:func:`helpdesk.app.redaction.mask_secrets`). What a ticket may
legitimately need (phone, e-mail, address) is kept, and encrypted at rest in the checkpoints when
``HELPDESK_CHECKPOINT_KEY`` is set. The local CLI runs without a key by default (plain, in the
user's own data dir); a service that holds many customers' sessions must not:
:func:`require_checkpoint_key` is what it calls before it starts.
"""

from __future__ import annotations

from helpdesk.app.settings import Settings
from helpdesk.graph.checkpoint import KEY_HELP, parse_checkpoint_key

__all__ = ["CheckpointKeyMissingError", "checkpoint_key", "require_checkpoint_key"]


class CheckpointKeyMissingError(RuntimeError):
    """Service mode was asked to start without a key to encrypt sessions at rest."""


def checkpoint_key(settings: Settings) -> bytes | None:
    """The AES key of ``HELPDESK_CHECKPOINT_KEY`` (validated by the settings), or None."""
    if settings.checkpoint_key is None:
        return None
    return parse_checkpoint_key(settings.checkpoint_key.get_secret_value())


def require_checkpoint_key(settings: Settings) -> bytes:
    """The key, or :class:`CheckpointKeyMissingError` naming the variable (service start-up)."""
    key = checkpoint_key(settings)
    if key is None:
        raise CheckpointKeyMissingError(
            "helpdesk serve keeps customers' sessions and refuses to store them unencrypted: "
            f"set HELPDESK_CHECKPOINT_KEY. {KEY_HELP}"
        )
    return key
