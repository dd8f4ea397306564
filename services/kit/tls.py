"""TLS for every gRPC port and every channel of the platform; plaintext stays the default.

A server serves TLS when its config names a certificate chain and its key (SIZZLE_TLS_CERT,
SIZZLE_TLS_KEY), and also requires a client certificate signed by SIZZLE_TLS_CLIENT_CA when that is
set (mTLS between services). A process calls over TLS when it trusts a CA (SIZZLE_TLS_CA) or the
system's roots (SIZZLE_TLS_SYSTEM_ROOTS=1), and presents SIZZLE_TLS_CLIENT_CERT and its key to a
server that requires one. SIZZLE_TLS_SERVER_NAME replaces the name checked against the server's
certificate (the target's host otherwise), e.g. when calling 127.0.0.1.

`server_tls` and `client_tls` read the files once, at start; what they return holds the bytes.
`open_channel` and `open_aio_channel` are the one way the repository's clients open a channel:
secure with a ClientTLS, insecure with None.

A half-configured TLS (a certificate without its key, a file that cannot be read or holds no PEM)
raises TLSConfigError, a SystemExit: the process stops with one line that names the variable.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc

from services.kit.config import Config

# The Config fields of a process's outgoing calls (client_tls reads them).
CLIENT_FIELDS = ("tls_ca", "tls_system_roots", "tls_client_cert", "tls_client_key", "tls_server_name")
PEM_CERTIFICATE = b"-----BEGIN CERTIFICATE-----"
PEM_PRIVATE_KEY = b"PRIVATE KEY-----"


class TLSConfigError(SystemExit):
    """A TLS setting that cannot work. Uncaught, it ends the process with its message (no traceback)."""

    def __init__(self, message: str) -> None:
        super().__init__(f"sizzle: {message}")
        self.message = message

    def __str__(self) -> str:
        return self.message


def variable(field: str) -> str:
    """The environment variable of a Config field (tls_cert -> SIZZLE_TLS_CERT)."""
    return f"SIZZLE_{field.upper()}"


def _read(config: Config, field: str, marker: bytes, holds: str) -> bytes:
    path = getattr(config, field)
    try:
        data = Path(path).read_bytes()
    except OSError as error:
        raise TLSConfigError(f"{variable(field)}={path} cannot be read: {error.strerror or error}") from None
    if marker not in data:
        raise TLSConfigError(f"{variable(field)}={path} holds no PEM {holds}")
    return data


def _pair(config: Config, cert_field: str, key_field: str) -> tuple[bytes, bytes] | None:
    """A certificate chain and its key, both or neither."""
    cert, key = getattr(config, cert_field), getattr(config, key_field)
    if not cert and not key:
        return None
    if not key:
        raise TLSConfigError(f"{variable(cert_field)} is set but {variable(key_field)} is not: give the "
                             "certificate's private key too (both or neither)")
    if not cert:
        raise TLSConfigError(f"{variable(key_field)} is set but {variable(cert_field)} is not: give the "
                             "certificate too (both or neither)")
    return (_read(config, cert_field, PEM_CERTIFICATE, "certificate"),
            _read(config, key_field, PEM_PRIVATE_KEY, "private key"))


@dataclass(frozen=True)
class ServerTLS:
    """What a server's port serves: its certificate chain and key, and the CA of the client
    certificates it requires (None: it asks for none)."""

    certificate_chain: bytes
    private_key: bytes
    client_ca: bytes | None = None

    @property
    def mutual(self) -> bool:
        return self.client_ca is not None

    def credentials(self) -> grpc.ServerCredentials:
        return grpc.ssl_server_credentials([(self.private_key, self.certificate_chain)],
                                           root_certificates=self.client_ca, require_client_auth=self.mutual)

    def describe(self) -> str:
        return "mTLS (client certificates required)" if self.mutual else "TLS"


@dataclass(frozen=True)
class ClientTLS:
    """How a process calls over TLS: the roots it trusts (None: the system's), the certificate chain
    and key it presents when a server requires one, and the name checked instead of the target's host."""

    root_certificates: bytes | None = None
    certificate_chain: bytes | None = None
    private_key: bytes | None = None
    server_name: str = ""

    def credentials(self) -> grpc.ChannelCredentials:
        return grpc.ssl_channel_credentials(root_certificates=self.root_certificates,
                                            private_key=self.private_key, certificate_chain=self.certificate_chain)

    def options(self) -> list[tuple[str, Any]]:
        return [("grpc.ssl_target_name_override", self.server_name)] if self.server_name else []


def server_tls(config: Config) -> ServerTLS | None:
    """The TLS a server's port serves, its files read now; None: plaintext."""
    pair = _pair(config, "tls_cert", "tls_key")
    if pair is None:
        if config.tls_client_ca:
            raise TLSConfigError(f"{variable('tls_client_ca')} is set but {variable('tls_cert')} and "
                                 f"{variable('tls_key')} are not: requiring client certificates needs TLS first")
        return None
    client_ca = _read(config, "tls_client_ca", PEM_CERTIFICATE, "certificate") if config.tls_client_ca else None
    return ServerTLS(pair[0], pair[1], client_ca)


def client_tls(config: Config) -> ClientTLS | None:
    """The TLS of this process's outgoing calls, its files read now; None: plaintext."""
    secure = bool(config.tls_ca) or bool(config.tls_system_roots)
    pair = _pair(config, "tls_client_cert", "tls_client_key")
    if not secure:
        for field in ("tls_client_cert", "tls_client_key", "tls_server_name"):
            if getattr(config, field):
                raise TLSConfigError(f"{variable(field)} is set but outgoing calls are plaintext: set "
                                     f"{variable('tls_ca')} (or {variable('tls_system_roots')}=1) too")
        return None
    roots = _read(config, "tls_ca", PEM_CERTIFICATE, "certificate") if config.tls_ca else None
    chain, key = pair if pair is not None else (None, None)
    return ClientTLS(roots, chain, key, config.tls_server_name)


def open_channel(target: str, tls: ClientTLS | None, options: Sequence[tuple[str, Any]] = ()) -> grpc.Channel:
    """A blocking channel to `target`: over TLS with `tls`, plaintext with None."""
    if tls is None:
        return grpc.insecure_channel(target, options=list(options))
    return grpc.secure_channel(target, tls.credentials(), options=[*options, *tls.options()])


def open_aio_channel(target: str, tls: ClientTLS | None, options: Sequence[tuple[str, Any]] = ()) -> grpc.aio.Channel:
    """An asyncio channel to `target`: over TLS with `tls`, plaintext with None."""
    if tls is None:
        return grpc.aio.insecure_channel(target, options=list(options))
    return grpc.aio.secure_channel(target, tls.credentials(), options=[*options, *tls.options()])
