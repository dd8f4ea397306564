"""The part of grpc.aio.ServicerContext that Sizzle's servicers and its ServiceInterceptor use
(metadata, peer, abort, code), over a Connect RequestContext: so a call that arrives on the web port
runs the very handler the gRPC port runs."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NoReturn

import grpc
from connectrpc.request import RequestContext

from services.web.status import connect_error


def grpc_peer(client_address: str | None) -> str:
    """A gRPC peer string ("ipv4:127.0.0.1:5123", "ipv6:[::1]:5123") for an HTTP client's "host:port"."""
    if not client_address:
        return "unknown"
    host, _, port = client_address.rpartition(":")
    if ":" in host:
        return f"ipv6:[{host}]:{port}"
    return f"ipv4:{host}:{port}"


class WebCallContext:
    """One call of the web port as a servicer sees it."""

    def __init__(self, request: RequestContext[Any, Any]) -> None:
        self._request = request
        self._code: grpc.StatusCode | None = None
        self._details = ""

    def invocation_metadata(self) -> tuple[tuple[str, str], ...]:
        """The request's headers, lower-case names first, as gRPC metadata."""
        return tuple((name.lower(), value) for name, value in self._request.request_headers.allitems())

    def peer(self) -> str:
        return grpc_peer(self._request.client_address)

    def time_remaining(self) -> float | None:
        remaining = self._request.timeout_ms
        return None if remaining is None else max(remaining / 1000, 0.0)

    def code(self) -> grpc.StatusCode | None:
        return self._code

    def set_code(self, code: grpc.StatusCode) -> None:
        self._code = code

    def details(self) -> str:
        return self._details

    def set_details(self, details: str) -> None:
        self._details = details

    async def abort(self, code: grpc.StatusCode, details: str = "",
                    trailing_metadata: Sequence[tuple[str, Any]] = ()) -> NoReturn:
        """Ends the call with this status: raised as the ConnectError the web port answers with."""
        self._code, self._details = code, details
        raise connect_error(code, details, trailing_metadata)
