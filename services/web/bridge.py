"""The gRPC servicers as Connect endpoints. Each Registration's generated `add_...to_server` hands its
method handlers to a recorder instead of a gRPC server; each handler then goes through the
ServiceInterceptor (the error model, the RPC metrics, the rate-limit admission) exactly as on the
gRPC port, and becomes an endpoint of one ConnectASGIApplication. connectrpc does the wire: the
Connect protocol, gRPC-Web and gRPC, unary and server streaming, deadlines and disconnects."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import grpc
from connectrpc.codec import Codec
from connectrpc.compat import google_protobuf_binary_codec, google_protobuf_json_codec
from connectrpc.compression.gzip import GzipCompression
from connectrpc.errors import ConnectError
from connectrpc.method import IdempotencyLevel, MethodInfo, StreamType
from connectrpc.server import ConnectASGIApplication, Endpoint
from google.protobuf import descriptor_pool, message_factory

from services.kit.errors import GameError
from services.kit.interceptor import Admission, ServiceInterceptor
from services.kit.server import Registration
from services.web.context import WebCallContext
from services.web.status import from_game_error
from sizzle.common.v1 import common_pb2


class HandlerRecorder:
    """Stands in for grpc.aio.Server in a generated `add_XServicer_to_server`: keeps the handlers."""

    def __init__(self) -> None:
        self.handlers: dict[str, dict[str, grpc.RpcMethodHandler]] = {}

    def add_generic_rpc_handlers(self, handlers: Sequence[Any]) -> None:
        pass  # the same handlers arrive by name through add_registered_method_handlers

    def add_registered_method_handlers(self, service: str, handlers: Mapping[str, grpc.RpcMethodHandler]) -> None:
        self.handlers[service] = dict(handlers)


@dataclass(frozen=True)
class _CallDetails:
    method: str
    invocation_metadata: tuple[tuple[str, str], ...] = ()


class BadRequest(ValueError):
    """What our own checks of a request found, in words meant for the caller."""


def whole_enum_numbers(value: Any, descriptor: Any, path: str = "") -> None:
    """Refuses an enum given as a number that is not whole (protobuf's JSON parser truncated 2.5 to 2
    and read true as 1, where an integer field refuses 1.5): an enum is its name or its number."""
    if not isinstance(value, dict):
        return
    if descriptor.full_name == "google.protobuf.Any":  # its fields are those of the type it names
        type_url = value.get("@type")
        try:
            descriptor = descriptor_pool.Default().FindMessageTypeByName(str(type_url).rsplit("/", 1)[-1])
        except KeyError:
            return  # the parser refuses a type it does not know
    for key, item in value.items():
        field = descriptor.fields_by_camelcase_name.get(key) or descriptor.fields_by_name.get(key)
        if field is None:  # the parser refuses unknown fields itself
            continue
        if field.message_type is not None and field.message_type.GetOptions().map_entry:
            items = list(item.values()) if isinstance(item, dict) else []
            field = field.message_type.fields_by_name["value"]
        else:
            items = item if field.is_repeated and isinstance(item, list) else [item]
        for one in items:
            fractional = isinstance(one, float) and not one.is_integer()
            if field.enum_type is not None and (isinstance(one, bool) or fractional):
                raise BadRequest(f"{path}{key}: an enum is its name or a whole number, not {json.dumps(one)}")
            if field.message_type is not None:
                whole_enum_numbers(one, field.message_type, f"{path}{key}.")


class ProtoCodec:
    """A google.protobuf codec whose undecodable requests are answered like the gRPC port's:
    INVALID_ARGUMENT with reason INVALID_REQUEST."""

    def __init__(self, inner: Codec) -> None:
        self.inner = inner

    def name(self) -> str:
        return self.inner.name()

    def encode(self, message: Any) -> bytes:
        return self.inner.encode(message)

    def decode(self, data: bytes | bytearray, message_class: type[Any]) -> Any:
        try:
            if self.inner.name() == "json":
                if not bytes(data).lstrip().startswith(b"{"):
                    raise BadRequest("a request is a JSON object")
                try:
                    parsed = json.loads(data)
                except ValueError:
                    raise BadRequest("the request is not valid JSON") from None
                whole_enum_numbers(parsed, message_class.DESCRIPTOR)
            return self.inner.decode(data, message_class)
        except Exception as error:
            raise from_game_error(GameError(common_pb2.ERROR_REASON_INVALID_REQUEST,
                                            f"the request does not parse: {parse_error_text(error)}")) from error


def parse_error_text(error: Exception) -> str:
    """What a parser said of the request, in our words: protobuf's JSON parser passes Python's own
    ("invalid literal for int() with base 10: 'abc'") and its own phrasing, and lists the message's
    fields. The field it failed on is what a client needs; the rest is said plainly."""
    text = str(error)
    if isinstance(error, BadRequest):
        return text
    field = re.search(r"Failed to parse (\w+) field", text)
    if field:
        return f"field {field.group(1)} does not hold a value of its type"
    unknown = re.search(r'has no field named "(\w+)"', text)
    if unknown:
        return f"no field is named {unknown.group(1)!r}"
    if "type_url" in text or "@type" in text:
        return "an Any needs an @type of a message this server knows"
    if "JSON" in text:
        return "the request is not valid JSON (a key given twice is not either)"
    return "it is not a message of the method's request type"


class GzipRequests(GzipCompression):
    """gzip whose undecodable request bodies are answered like any undecodable request
    (INVALID_REQUEST with its ErrorInfo); connectrpc's answer carried zlib's text and no ErrorInfo."""

    def decompress(self, data: bytes | bytearray | memoryview, read_max_bytes: int | None = None) -> bytes:
        try:
            return super().decompress(data, read_max_bytes)
        except ConnectError:
            raise  # over the size limit: connectrpc's own answer
        except Exception as error:
            raise from_game_error(GameError(common_pb2.ERROR_REASON_INVALID_REQUEST,
                                            "the request's gzip body does not decompress")) from error


def _method_info(service: str, name: str, handler: grpc.RpcMethodHandler) -> MethodInfo[Any, Any]:
    method = descriptor_pool.Default().FindServiceByName(service).methods_by_name[name]
    if handler.request_streaming or handler.unary_unary is None and handler.unary_stream is None:
        raise ValueError(f"{service}/{name}: the web port serves unary and server-streaming methods only")
    return MethodInfo(
        name=name, service_name=service,
        input=message_factory.GetMessageClass(method.input_type),
        output=message_factory.GetMessageClass(method.output_type),
        idempotency_level=IdempotencyLevel.UNKNOWN,
        stream_type=StreamType.SERVER_STREAM if handler.response_streaming else StreamType.UNARY,
    )


def _endpoint(info: MethodInfo[Any, Any], handler: grpc.RpcMethodHandler) -> Endpoint[Any, Any]:
    if handler.unary_stream is not None:
        stream = handler.unary_stream

        def watch(request: Any, ctx: Any) -> Any:
            return stream(request, WebCallContext(ctx))

        return Endpoint.server_stream(info, watch)
    unary = handler.unary_unary

    async def call(request: Any, ctx: Any) -> Any:
        return await unary(request, WebCallContext(ctx))

    return Endpoint.unary(info, call)


async def intercepted_endpoints(registrations: Sequence[Registration],
                                admit: Admission | None) -> dict[str, Endpoint[Any, Any]]:
    """Every method of `registrations` behind the ServiceInterceptor, by its path ("/pkg.Service/Method")."""
    recorder = HandlerRecorder()
    for registration in registrations:
        registration.add(registration.servicer, recorder)  # type: ignore[arg-type]
    interceptor = ServiceInterceptor(admit)
    endpoints: dict[str, Endpoint[Any, Any]] = {}
    for service, handlers in recorder.handlers.items():
        for name, raw in handlers.items():
            path = f"/{service}/{name}"

            async def continuation(_: Any, raw: grpc.RpcMethodHandler = raw) -> grpc.RpcMethodHandler:
                return raw

            handler = await interceptor.intercept_service(continuation, _CallDetails(path))  # type: ignore[arg-type]
            endpoints[path] = _endpoint(_method_info(service, name, raw), handler)
    return endpoints


class RpcApp(ConnectASGIApplication[None]):
    """One ASGI application answering every method of the given services."""

    def __init__(self, endpoints: Mapping[str, Any], read_max_bytes: int) -> None:
        # JSON as strict as the binary form is checked: an unknown field or enum name is refused (ignored,
        # an unknown status filter would list every match, an unknown difficulty make a medium bot)
        codecs = [ProtoCodec(google_protobuf_binary_codec()),
                  ProtoCodec(google_protobuf_json_codec(ignore_unknown_fields=False))]
        super().__init__(service=None, endpoints=lambda _: endpoints, read_max_bytes=read_max_bytes,
                         codecs=codecs, compressions=[GzipRequests()])
        self.paths = frozenset(endpoints)
        self.services = frozenset(path.split("/")[1] for path in endpoints)

    @property
    def path(self) -> str:
        return "/"

    def answers(self, path: str) -> bool:
        """True for a path of one of its services (an unknown method of one is answered 404 here)."""
        return path.split("/")[1] in self.services if path.count("/") == 2 else False
