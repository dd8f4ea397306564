"""The HTTP application of the web port: RPC paths go to the Connect application, everything else
to the web client's built files (clients/web/dist), behind CORS for third-party web clients."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from starlette.exceptions import HTTPException
from starlette.middleware.cors import CORSMiddleware
from starlette.responses import PlainTextResponse
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Receive, Scope, Send

from services.web.bridge import RpcApp

CLIENT_DIR = Path(__file__).resolve().parents[2] / "clients" / "web" / "dist"
# What a Connect, gRPC-Web or gRPC client sends and must be able to read (connectrpc's CORS guidance).
ALLOWED_HEADERS = ["Content-Type", "Connect-Protocol-Version", "Connect-Timeout-Ms", "Grpc-Timeout",
                   "X-Grpc-Web", "X-User-Agent", "Authorization"]
EXPOSED_HEADERS = ["Grpc-Status", "Grpc-Message", "Grpc-Status-Details-Bin"]
# The client's pages load only from this origin; RPCs go to this origin too.
SECURITY_HEADERS = [
    (b"content-security-policy", b"default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
                                 b"frame-ancestors 'none'; base-uri 'none'; form-action 'none'"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
]
MISSING_CLIENT = ("The web client is not built. `make run` builds it (Node 20 and npm are needed); "
                  "or run `make web`.\n")


def cors_origins(setting: str) -> list[str]:
    return [origin.strip() for origin in setting.split(",") if origin.strip()]


class ClientFiles:
    """The built client, with security headers; a plain 503 explains a missing build, and a path
    with no file is a plain 404 (405 for a method other than GET or HEAD), never a server error."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.files: Any = StaticFiles(directory=folder, html=True) if (folder / "index.html").is_file() else None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self.files is None:
            await PlainTextResponse(MISSING_CLIENT, status_code=503)(scope, receive, send)
            return

        async def send_with_headers(message: Any) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), *SECURITY_HEADERS]}
            await send(message)

        try:
            await self.files(scope, receive, send_with_headers)
        except HTTPException as refused:  # a path with no file (404), a method files do not take (405)
            await PlainTextResponse(f"{refused.detail}\n", status_code=refused.status_code,
                                    headers=refused.headers)(scope, receive, send_with_headers)


class WebSite:
    """Dispatches by path: the RPC application for its services' paths, the client's files otherwise."""

    def __init__(self, rpc: RpcApp, client: ClientFiles) -> None:
        self.rpc = rpc
        self.client = client

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan" or scope["type"] == "http" and self.rpc.answers(scope["path"]):
            await self.rpc(scope, receive, send)  # type: ignore[arg-type]
        elif scope["type"] == "http" and _is_grpc(scope):
            await _grpc_unimplemented(scope, receive, send)
        elif scope["type"] == "http":
            await self.client(scope, receive, send)


def _is_grpc(scope: Scope) -> bool:
    return any(name == b"content-type" and value.startswith(b"application/grpc") for name, value in scope["headers"])


async def _grpc_unimplemented(scope: Scope, receive: Receive, send: Send) -> None:
    """A gRPC call of a method the web port does not serve (grpcurl's reflection, a bidirectional
    stream): a trailers-only UNIMPLEMENTED, as a gRPC server answers, not the files' 405 page (after
    which Hypercorn's HTTP/2 stream logged a traceback for each such call)."""
    try:  # the request's first message is read first: data arriving for a stream already answered
        await asyncio.wait_for(receive(), 1.0)  # made Hypercorn's HTTP/2 log a traceback
    except TimeoutError:
        pass
    service = scope["path"].strip("/").split("/")[0]
    message = f"the web port does not serve {service}; the gRPC port serves every service and reflection"
    await send({"type": "http.response.start", "status": 200, "trailers": True,
                "headers": [(b"content-type", b"application/grpc")]})
    await send({"type": "http.response.body", "body": b"", "more_body": False})
    await send({"type": "http.response.trailers", "more_trailers": False, "headers": [
        (b"grpc-status", b"12"), (b"grpc-message", message.replace(" ", "%20").encode())]})


def build_site(rpc: RpcApp, cors: str, client_dir: Path = CLIENT_DIR) -> ASGIApp:
    site: ASGIApp = WebSite(rpc, ClientFiles(client_dir))
    origins = cors_origins(cors)
    if origins:
        site = CORSMiddleware(site, allow_origins=origins, allow_methods=["GET", "POST"],
                              allow_headers=ALLOWED_HEADERS, expose_headers=EXPOSED_HEADERS, max_age=7200)
    return site
