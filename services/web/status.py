"""gRPC statuses as Connect errors: the code, the message, and the google.rpc.Status details
(ErrorInfo, RetryInfo) that the gRPC port sends in `grpc-status-details-bin` travel as the error's
details, so a browser reads the same reason a gRPC client does."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import grpc
from connectrpc.code import Code
from connectrpc.errors import ConnectError
from google.rpc import status_pb2
from protobuf.wkt import Any as ConnectAny

from services.kit.errors import GameError

STATUS_DETAILS_KEY = "grpc-status-details-bin"


def connect_code(code: grpc.StatusCode) -> Code:
    return Code.CANCELED if code == grpc.StatusCode.CANCELLED else Code[code.name]


def connect_error(code: grpc.StatusCode, details: str, trailing_metadata: Sequence[tuple[str, Any]]) -> ConnectError:
    packed: list[ConnectAny] = []
    for key, value in trailing_metadata:
        if key == STATUS_DETAILS_KEY:
            status = status_pb2.Status.FromString(value)
            packed.extend(ConnectAny(type_url=d.type_url, value=d.value) for d in status.details)
    return ConnectError(connect_code(code), details or "", packed)


def from_game_error(error: GameError) -> ConnectError:
    status = error.to_status()
    return connect_error(status.code, status.details, status.trailing_metadata)
