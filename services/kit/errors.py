"""The one error model: a GameError carries an ErrorReason, and the servers turn it into a
google.rpc.Status with an ErrorInfo whose reason is the enum name without its prefix."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import grpc
from google.protobuf import any_pb2
from google.rpc import code_pb2, error_details_pb2, status_pb2
from grpc_status import rpc_status

from sizzle.common.v1 import common_pb2

ERROR_DOMAIN = "sizzle.games"
Reason = common_pb2.ErrorReason

# The gRPC status code each reason travels with.
_CODES: dict[int, grpc.StatusCode] = {
    Reason.ERROR_REASON_UNKNOWN_GAME: grpc.StatusCode.INVALID_ARGUMENT,
    Reason.ERROR_REASON_INVALID_PLAYER_COUNT: grpc.StatusCode.INVALID_ARGUMENT,
    Reason.ERROR_REASON_INVALID_OPTION: grpc.StatusCode.INVALID_ARGUMENT,
    Reason.ERROR_REASON_MALFORMED_STATE: grpc.StatusCode.INVALID_ARGUMENT,
    Reason.ERROR_REASON_MALFORMED_ACTION: grpc.StatusCode.INVALID_ARGUMENT,
    Reason.ERROR_REASON_INVALID_SEAT: grpc.StatusCode.INVALID_ARGUMENT,
    Reason.ERROR_REASON_INVALID_REQUEST: grpc.StatusCode.INVALID_ARGUMENT,
    Reason.ERROR_REASON_ILLEGAL_ACTION: grpc.StatusCode.FAILED_PRECONDITION,
    Reason.ERROR_REASON_NOT_YOUR_TURN: grpc.StatusCode.FAILED_PRECONDITION,
    Reason.ERROR_REASON_GAME_OVER: grpc.StatusCode.FAILED_PRECONDITION,
    Reason.ERROR_REASON_MATCH_NOT_FINISHED: grpc.StatusCode.FAILED_PRECONDITION,
    Reason.ERROR_REASON_STALE_VERSION: grpc.StatusCode.ABORTED,
    Reason.ERROR_REASON_UNKNOWN_MATCH: grpc.StatusCode.NOT_FOUND,
    Reason.ERROR_REASON_INVALID_TOKEN: grpc.StatusCode.UNAUTHENTICATED,
    Reason.ERROR_REASON_WRONG_SEAT: grpc.StatusCode.PERMISSION_DENIED,
    Reason.ERROR_REASON_SEAT_UNAVAILABLE: grpc.StatusCode.FAILED_PRECONDITION,
    Reason.ERROR_REASON_STORE_UNAVAILABLE: grpc.StatusCode.UNAVAILABLE,
    Reason.ERROR_REASON_REQUEST_ID_REUSED: grpc.StatusCode.INVALID_ARGUMENT,
    Reason.ERROR_REASON_MATCH_NOT_STARTED: grpc.StatusCode.FAILED_PRECONDITION,
    Reason.ERROR_REASON_TICKET_EXISTS: grpc.StatusCode.ALREADY_EXISTS,
    Reason.ERROR_REASON_UNKNOWN_TICKET: grpc.StatusCode.NOT_FOUND,
    Reason.ERROR_REASON_FIXED_SEED: grpc.StatusCode.FAILED_PRECONDITION,
    Reason.ERROR_REASON_RULES_VERSION: grpc.StatusCode.UNAVAILABLE,
    Reason.ERROR_REASON_QUOTA_EXCEEDED: grpc.StatusCode.RESOURCE_EXHAUSTED,
    Reason.ERROR_REASON_INTERNAL: grpc.StatusCode.INTERNAL,
    Reason.ERROR_REASON_USERNAME_TAKEN: grpc.StatusCode.ALREADY_EXISTS,
    Reason.ERROR_REASON_INVALID_CREDENTIALS: grpc.StatusCode.UNAUTHENTICATED,
    Reason.ERROR_REASON_ALREADY_REGISTERED: grpc.StatusCode.FAILED_PRECONDITION,
}
# What an error may carry back, so that it always fits in the client's metadata limit (8 KiB by
# default) whatever the client sent.
MAX_MESSAGE_CHARS = 400
MAX_METADATA_CHARS = 80


def reason_name(reason: int) -> str:
    """The ErrorInfo reason string of an ErrorReason value, e.g. "ILLEGAL_ACTION"."""
    return Reason.Name(reason).removeprefix("ERROR_REASON_")


class GameError(Exception):
    """A refusal that a caller can act on: a reason, a message for people, optional metadata."""

    def __init__(self, reason: int, message: str, metadata: Mapping[str, str] | None = None,
                 retry_after_seconds: float | None = None) -> None:
        super().__init__(message)
        self.reason = reason
        self.message = message[:MAX_MESSAGE_CHARS]
        self.metadata = {str(k)[:MAX_METADATA_CHARS]: str(v)[:MAX_METADATA_CHARS] for k, v in (metadata or {}).items()}
        self.retry_after_seconds = retry_after_seconds

    @property
    def code(self) -> grpc.StatusCode:
        return _CODES.get(self.reason, grpc.StatusCode.INVALID_ARGUMENT)

    @property
    def reason_name(self) -> str:
        return reason_name(self.reason)

    def to_status(self) -> grpc.Status:
        info = error_details_pb2.ErrorInfo(reason=self.reason_name, domain=ERROR_DOMAIN, metadata=self.metadata)
        details = [info]
        if self.retry_after_seconds is not None:
            retry = error_details_pb2.RetryInfo()
            retry.retry_delay.FromNanoseconds(int(self.retry_after_seconds * 1e9))
            details.append(retry)
        packed = []
        for detail in details:
            packed.append(any_pb2.Any())
            packed[-1].Pack(detail)
        status = status_pb2.Status(code=getattr(code_pb2, self.code.name), message=self.message, details=packed)
        return rpc_status.to_status(status)

    def __repr__(self) -> str:
        return f"GameError({self.reason_name}, {self.message!r})"


def _detail(error: grpc.RpcError, message_type: Any) -> Any | None:
    status = rpc_status.from_call(error)  # type: ignore[arg-type]
    if status is None:
        return None
    for detail in status.details:
        if detail.Is(message_type.DESCRIPTOR):
            found = message_type()
            detail.Unpack(found)
            return found
    return None


def error_info(error: grpc.RpcError) -> error_details_pb2.ErrorInfo | None:
    """The ErrorInfo a failed call carries, if any (for clients and tests)."""
    info: error_details_pb2.ErrorInfo | None = _detail(error, error_details_pb2.ErrorInfo)
    return info


def retry_info(error: grpc.RpcError) -> error_details_pb2.RetryInfo | None:
    """The RetryInfo a refused call carries (over a quota: when to try again), if any."""
    retry: error_details_pb2.RetryInfo | None = _detail(error, error_details_pb2.RetryInfo)
    return retry
