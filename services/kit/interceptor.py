"""The one server interceptor: turns GameError into a google.rpc.Status with an ErrorInfo, and records
the RPC metrics (count by service, method and code; latency histogram) for every handler."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import grpc

from services.kit import metrics
from services.kit.errors import GameError
from sizzle.common.v1 import common_pb2

Reason = common_pb2.ErrorReason

log = logging.getLogger("sizzle.rpc")
# What a handler's unforeseen exception becomes: INTERNAL with an ErrorInfo (never UNKNOWN, and never
# the exception's text, which could carry what the caller may not see).
UNFORESEEN = GameError(Reason.ERROR_REASON_INTERNAL, "the server failed to answer this call; it is logged")


class Undecodable:
    """Stands in for a request whose bytes did not parse, so the handler can answer INVALID_ARGUMENT."""

    def __init__(self, error: Exception) -> None:
        self.error = error


def _tolerant(deserializer: Callable[[bytes], Any] | None) -> Callable[[bytes], Any] | None:
    if deserializer is None:
        return None

    def deserialize(data: bytes) -> Any:
        try:
            return deserializer(data)
        except Exception as error:  # DecodeError and friends: garbage bytes
            return Undecodable(error)

    return deserialize


def _garbage(request: Any) -> GameError | None:
    if isinstance(request, Undecodable):
        return GameError(Reason.ERROR_REASON_INVALID_REQUEST, f"the request does not parse: {request.error}")
    return None


def _split(method: str) -> tuple[str, str]:
    _, service, name = method.split("/", 2)
    return service, name


async def _abort(context: grpc.aio.ServicerContext, error: GameError) -> None:
    status = error.to_status()
    await context.abort(status.code, status.details, status.trailing_metadata)


Admission = Callable[[str, grpc.aio.ServicerContext], Awaitable[None]]


class ServiceInterceptor(grpc.aio.ServerInterceptor):
    """`admit` (optional) runs before every handler of our services, with the service's full name and
    the call's context: the rate limit (a GameError it raises is answered like a handler's)."""

    def __init__(self, admit: Admission | None = None) -> None:
        self.admit = admit

    async def intercept_service(
        self,
        continuation: Callable[[grpc.HandlerCallDetails], Awaitable[grpc.RpcMethodHandler]],
        handler_call_details: grpc.HandlerCallDetails,
    ) -> grpc.RpcMethodHandler:
        handler = await continuation(handler_call_details)
        if handler is None:
            return handler
        service, method = _split(handler_call_details.method)
        if handler.unary_unary is not None:
            return grpc.unary_unary_rpc_method_handler(
                self._wrap_unary(handler.unary_unary, service, method, self._admission(service)),
                request_deserializer=_tolerant(handler.request_deserializer),
                response_serializer=handler.response_serializer,
            )
        if handler.unary_stream is not None:
            return grpc.unary_stream_rpc_method_handler(
                self._wrap_stream(handler.unary_stream, service, method, self._admission(service)),
                request_deserializer=_tolerant(handler.request_deserializer),
                response_serializer=handler.response_serializer,
            )
        return handler

    def _admission(self, service: str) -> Admission | None:
        return None if self.admit is None or service.startswith("grpc.") else self.admit

    @staticmethod
    def _wrap_unary(behavior: Callable[..., Any], service: str, method: str,
                    admit: Admission | None) -> Callable[..., Any]:
        async def wrapper(request: Any, context: grpc.aio.ServicerContext) -> Any:
            start = time.perf_counter()
            metrics.RPC_STARTED.labels("unary", service, method).inc()
            code = "OK"
            try:
                bad = _garbage(request)
                if bad is not None:
                    raise bad
                if admit is not None:
                    await admit(service, context)
                return await behavior(request, context)
            except (asyncio.CancelledError, GeneratorExit):  # the client went away (or its deadline passed)
                code = "CANCELLED"
                raise
            except GameError as error:
                code = error.code.name
                await _abort(context, error)
            except Exception as error:
                code = _code_of(context, error)
                if code != "INTERNAL":
                    raise
                log.exception("%s/%s failed", service, method)
                await _abort(context, UNFORESEEN)
            finally:
                metrics.record_rpc("unary", service, method, code, time.perf_counter() - start)

        return wrapper

    @staticmethod
    def _wrap_stream(behavior: Callable[..., Any], service: str, method: str,
                     admit: Admission | None) -> Callable[..., Any]:
        async def wrapper(request: Any, context: grpc.aio.ServicerContext) -> AsyncIterator[Any]:
            start = time.perf_counter()
            metrics.RPC_STARTED.labels("server_stream", service, method).inc()
            sent = metrics.RPC_MESSAGES_SENT.labels("server_stream", service, method)
            open_streams = metrics.OPEN_STREAMS.labels(service, method)
            open_streams.inc()
            code = "OK"
            try:
                bad = _garbage(request)
                if bad is not None:
                    raise bad
                if admit is not None:
                    await admit(service, context)
                async for response in behavior(request, context):
                    sent.inc()
                    yield response
            except (asyncio.CancelledError, GeneratorExit):  # the client went away (or its deadline passed)
                code = "CANCELLED"
                raise
            except GameError as error:
                code = error.code.name
                await _abort(context, error)
            except Exception as error:
                code = _code_of(context, error)
                if code != "INTERNAL":
                    raise
                log.exception("%s/%s failed", service, method)
                await _abort(context, UNFORESEEN)
            finally:
                open_streams.dec()
                metrics.record_rpc("server_stream", service, method, code, time.perf_counter() - start)

        return wrapper


def _code_of(context: grpc.aio.ServicerContext, error: BaseException) -> str:
    code = context.code()
    if isinstance(code, grpc.StatusCode):
        return code.name
    if isinstance(error, grpc.aio.AbortError):
        return "ABORTED_BY_HANDLER"
    return "INTERNAL"
