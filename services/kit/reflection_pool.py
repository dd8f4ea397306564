"""The descriptors that gRPC reflection serves, each field's `json_name` filled in as protoc fills it.

grpc's reflection service answers with FileDescriptorProtos copied from the generated Python modules,
and protoc leaves `json_name` out of those (it writes it only into the descriptors it hands to its
plugins). A client that takes a field's JSON name from the descriptor as given, grpcurl 1.8.6 and
older among them, then prints the proto name (`match_id`), where the proto3 JSON mapping and newer
clients (which compute the default when it is absent) print lowerCamel (`matchId`). Serving the same
files with `json_name` set makes every client print the names docs/api.md uses.

`JsonNamePool` is the `pool` the reflection service reads: the files of the served services are
copied when the server starts, any other file (a game's messages inside an `Any`) on first request,
and each copy is kept.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable

from google.protobuf import descriptor, descriptor_pb2, descriptor_pool


def json_name(field_name: str) -> str:
    """The lowerCamel JSON name protoc gives a field (its ToJsonName): each underscore dropped and the
    character after it upper-cased, `match_id` -> `matchId`."""
    out: list[str] = []
    capitalize_next = False
    for char in field_name:
        if char == "_":
            capitalize_next = True
        elif capitalize_next:
            out.append(char.upper())
            capitalize_next = False
        else:
            out.append(char)
    return "".join(out)


def _fill_fields(fields: Iterable[descriptor_pb2.FieldDescriptorProto]) -> None:
    for field in fields:
        if not field.HasField("json_name"):  # a json_name the proto declares is already there
            field.json_name = json_name(field.name)


def _fill_messages(messages: Iterable[descriptor_pb2.DescriptorProto]) -> None:
    for message in messages:
        _fill_fields(message.field)
        _fill_fields(message.extension)
        _fill_messages(message.nested_type)


def fill_json_names(file: descriptor_pb2.FileDescriptorProto) -> None:
    """Sets `json_name` on every field and extension of `file` that lacks one, in place, as protoc does."""
    _fill_messages(file.message_type)
    _fill_fields(file.extension)


class JsonNamePool:
    """A read-only view of `source` (the default pool) for the reflection service: the same files and
    symbols, each file served with its `json_name`s filled in. `symbols` name the files to copy at once
    (the served services'); the others are copied on first request."""

    def __init__(self, symbols: Iterable[str] = (), source: descriptor_pool.DescriptorPool | None = None) -> None:
        self._source = source or descriptor_pool.Default()
        self._copies = descriptor_pool.DescriptorPool()
        self._lock = threading.Lock()
        for symbol in symbols:
            try:
                self.FindFileContainingSymbol(symbol)
            except KeyError:
                pass  # not in the source pool: reflection answers NOT_FOUND for it, as grpc's own pool would

    # The methods grpc_reflection's servicer calls on its pool, named as DescriptorPool names them.

    def FindFileByName(self, file_name: str) -> descriptor.FileDescriptor:
        return self._copy(self._source.FindFileByName(file_name))

    def FindFileContainingSymbol(self, symbol: str) -> descriptor.FileDescriptor:
        return self._copy(self._source.FindFileContainingSymbol(symbol))

    def FindMessageTypeByName(self, full_name: str) -> descriptor.Descriptor:
        return self._source.FindMessageTypeByName(full_name)

    def FindExtensionByNumber(self, message: descriptor.Descriptor, number: int) -> descriptor.FieldDescriptor:
        return self._source.FindExtensionByNumber(message, number)

    def FindAllExtensions(self, message: descriptor.Descriptor) -> list[descriptor.FieldDescriptor]:
        return self._source.FindAllExtensions(message)

    def _copy(self, file: descriptor.FileDescriptor) -> descriptor.FileDescriptor:
        with self._lock:
            return self._copy_locked(file)

    def _copy_locked(self, file: descriptor.FileDescriptor) -> descriptor.FileDescriptor:
        try:
            return self._copies.FindFileByName(file.name)
        except KeyError:
            pass
        for dependency in file.dependencies:  # a pool takes a file only after its imports
            self._copy_locked(dependency)
        proto = descriptor_pb2.FileDescriptorProto()
        file.CopyToProto(proto)
        fill_json_names(proto)
        self._copies.Add(proto)
        return self._copies.FindFileByName(file.name)
