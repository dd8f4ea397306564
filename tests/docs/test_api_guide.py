"""Runs the grpcurl walk-through of docs/api.md, command by command, against a real server: each
grpcurl line becomes the same call (JSON request, metadata, method) and each `| jq -r PATH` reads the
JSON answer, so the guide cannot drift from the API."""

from __future__ import annotations

import re
import shlex
import time
from pathlib import Path
from typing import Any

import grpc
from google.protobuf import descriptor_pool, json_format, message_factory

from services.rules import registry
from tests.servers import ServerThread

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "api.md"


def walkthrough() -> list[str]:
    text = GUIDE.read_text()
    section = text.split("## A whole game with grpcurl", 1)[1]
    block = section.split("```sh", 1)[1].split("```", 1)[0]
    return [line for line in block.splitlines() if line.strip() and not line.lstrip().startswith("#")]


def jq(value: Any, path: str) -> str:
    for key, index in re.findall(r"\.(\w+)(?:\[(\d+)\])?", path):
        value = value[key]
        if index:
            value = value[int(index)]
    return str(value)


def grpcurl(channel: grpc.Channel, args: list[str]) -> list[dict[str, Any]]:
    metadata, data, max_time, defaults = [], "{}", 0.0, False
    positional = []
    it = iter(args)
    for arg in it:
        if arg == "-plaintext":
            continue
        if arg == "-emit-defaults":
            defaults = True
            continue
        if arg == "-H":
            key, _, value = next(it).partition(":")
            metadata.append((key.strip().lower(), value.strip()))
        elif arg == "-d":
            data = next(it)
        elif arg == "-max-time":
            max_time = float(next(it))
        else:
            positional.append(arg)
    _, method_path = positional
    service_name, method_name = method_path.rsplit("/", 1)
    method = descriptor_pool.Default().FindServiceByName(service_name).methods_by_name[method_name]
    request = json_format.Parse(data, message_factory.GetMessageClass(method.input_type)())
    response_cls = message_factory.GetMessageClass(method.output_type)
    path = f"/{service_name}/{method_name}"
    if method.server_streaming:
        call = channel.unary_stream(path, request_serializer=lambda m: m.SerializeToString(),
                                    response_deserializer=response_cls.FromString)
        out = []
        try:
            for response in call(request, metadata=metadata, timeout=max_time or 5):
                out.append(json_format.MessageToDict(response))
        except grpc.RpcError as error:
            assert error.code() == grpc.StatusCode.DEADLINE_EXCEEDED  # -max-time ends a live stream
        return out
    call = channel.unary_unary(path, request_serializer=lambda m: m.SerializeToString(),
                               response_deserializer=response_cls.FromString)
    answer = call(request, metadata=metadata, timeout=5)
    return [json_format.MessageToDict(answer, always_print_fields_with_no_presence=defaults)]


def test_api_guide_walkthrough_runs(platform: ServerThread) -> None:
    registry.engines()  # the games' messages are in the default pool, as reflection would give them
    variables: dict[str, str] = {}
    outputs = 0
    with grpc.insecure_channel(platform.target) as channel:
        for line in walkthrough():
            if line.startswith("A="):
                variables["A"] = platform.target
                continue
            assignment = re.match(r"^(\w+)=\$\((.*) \| jq -r (\S+)\)$", line)
            command, target, path = (assignment.group(2), assignment.group(1), assignment.group(3)) if assignment \
                else (line, None, None)
            for name, value in sorted(variables.items(), key=lambda kv: -len(kv[0])):
                command = command.replace(f"${name}", value)
            args = shlex.split(command)
            assert args[0] == "grpcurl", line
            responses = grpcurl(channel, args[1:])
            assert responses, f"no answer to: {line}"
            outputs += 1
            if target:
                variables[target] = jq(responses[-1], path or "")
            if "WatchMatch" in line:
                assert responses[0]["match"]["matchId"] == variables["MATCH"]
            time.sleep(0.05)  # let the bot seat move between commands, as a person would
    assert outputs >= 12 and variables["ACTION"].isdigit()
