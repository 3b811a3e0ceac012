"""Refusals, as the service's errors: each carries the gRPC code name, the
machine-readable ``ErrorReason`` name and the field at fault, exactly as a
pips server would answer them."""

from __future__ import annotations


class PipsError(Exception):
    """A refusal of the rules or of a state.

    Attributes:
        message: what is wrong, for a person.
        code: the gRPC status the service answers with (``"INVALID_ARGUMENT"``,
            ``"FAILED_PRECONDITION"``, ...).
        reason: the ``ErrorReason`` name (``"ERROR_REASON_NOT_YOUR_TURN"``).
        field: the field at fault (``"state.hands[1].tiles[0]"``), or ``""``.
    """

    def __init__(self, message: str, code: str, reason: str, field: str) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.reason = reason
        self.field = field

    def __str__(self) -> str:
        where = f" (at {self.field})" if self.field else ""
        return f"{self.message}{where} [{self.reason}]"

    def __reduce__(self):
        return (type(self), (self.message, self.code, self.reason, self.field))


class InvalidArgument(PipsError, ValueError):
    """A malformed state, move or option (the service's INVALID_ARGUMENT)."""


class IllegalMove(PipsError):
    """A move that is not legal now (the service's FAILED_PRECONDITION)."""


class PermissionDenied(PipsError):
    """A seat token used for what only the full state may do."""


class Unauthenticated(PipsError):
    """A state without the tag its key requires."""
