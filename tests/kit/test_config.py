"""Settings from the environment: parsed with their types, a mistyped name or a bad value refused with
one line naming the variable, both by the parser and by the `sizzle` entry point a user runs."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from services.kit.config import Config, ConfigError


def test_values_are_parsed_with_their_types() -> None:
    config = Config.from_env({"SIZZLE_REDIS_CLUSTER": "true", "SIZZLE_GRACE_SECONDS": "2.5",
                              "SIZZLE_METRICS_PORT": "9100", "SIZZLE_ADDR": "0.0.0.0:1", "HOME": "/root"})
    assert (config.redis_cluster, config.grace_seconds, config.metrics_port, config.addr) == (True, 2.5, 9100,
                                                                                             "0.0.0.0:1")
    assert Config.from_env({"SIZZLE_REDIS_CLUSTER": "0"}).redis_cluster is False
    assert Config.from_env({}) == Config()


def test_the_tools_variables_are_not_settings_and_may_share_the_environment() -> None:
    assert Config.from_env({"SIZZLE_TEST_REDIS_URL": "redis://x", "SIZZLE_BENCH_POSTGRES_URL": "p",
                            "SIZZLE_LOAD_GAMES": "hibachi"}) == Config()


@pytest.mark.parametrize(("env", "says"), [
    ({"SIZZLE_REDIS_CLUSTR": "1"}, "SIZZLE_REDIS_CLUSTR is not a setting (did you mean SIZZLE_REDIS_CLUSTER?)"),
    ({"SIZZLE_TOKEN": "k"}, "SIZZLE_TOKEN is not a setting"),
    ({"SIZZLE_GRACE_SECONDS": "abc"}, "SIZZLE_GRACE_SECONDS='abc': Input should be a valid number"),
    ({"SIZZLE_METRICS_PORT": "1e3"}, "SIZZLE_METRICS_PORT='1e3': Input should be a valid integer"),
    ({"SIZZLE_REDIS_CLUSTER": "maybe"}, "SIZZLE_REDIS_CLUSTER='maybe': Input should be a valid boolean"),
    # found by an operator's audit: a port of 99999 was wrapped to 34463, an address without a port
    # crashed at start, a negative quota meant no limit, a negative lifetime made tokens born expired
    ({"SIZZLE_ADDR": "127.0.0.1:99999"}, "SIZZLE_ADDR='127.0.0.1:99999': not HOST:PORT with a port from 0"),
    ({"SIZZLE_ADDR": "notanaddress"}, "SIZZLE_ADDR='notanaddress': not HOST:PORT"),
    ({"SIZZLE_WEB_ADDR": ":8080"}, "SIZZLE_WEB_ADDR=':8080': not HOST:PORT"),
    ({"SIZZLE_METRICS_PORT": "70000"}, "SIZZLE_METRICS_PORT='70000': not a port from 0 to 65535"),
    ({"SIZZLE_METRICS_PORT": "-1"}, "SIZZLE_METRICS_PORT='-1': not a port"),
    ({"SIZZLE_QUOTA_LIVE_MATCHES": "-1"}, "SIZZLE_QUOTA_LIVE_MATCHES='-1': must be 0 or more"),
    ({"SIZZLE_QUOTA_REQUEST_BURST": "-5"}, "SIZZLE_QUOTA_REQUEST_BURST='-5': must be 0 or more"),
    ({"SIZZLE_TOKEN_TTL_SECONDS": "-10"}, "SIZZLE_TOKEN_TTL_SECONDS='-10': must be more than 0"),
    ({"SIZZLE_GRACE_SECONDS": "-1"}, "SIZZLE_GRACE_SECONDS='-1.0': must be 0 or more"),
])
def test_a_bad_name_or_value_is_one_clear_line(env: dict[str, str], says: str) -> None:
    with pytest.raises(ConfigError) as raised:
        Config.from_env(env)
    assert str(raised.value).startswith(says) and "\n" not in str(raised.value)


@pytest.mark.parametrize("command", [["serve"], ["worker"], ["records", "migrate"]])
def test_the_entry_point_refuses_a_mistyped_setting_without_a_traceback(command: list[str]) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("SIZZLE_")}
    env["SIZZLE_REDIS_CLUSTR"] = "true"
    done = subprocess.run([sys.executable, "-m", "apps.cli", *command], env=env, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip().splitlines()[-1] == (
        f"sizzle {command[0]}: SIZZLE_REDIS_CLUSTR is not a setting (did you mean SIZZLE_REDIS_CLUSTER?); "
        "the settings are listed in services/kit/config.py")
    assert "Traceback" not in done.stderr



def test_the_web_port_may_be_off_and_addresses_may_be_ipv6() -> None:
    assert Config.from_env({"SIZZLE_WEB_ADDR": ""}).web_addr == ""
    assert Config.from_env({"SIZZLE_ADDR": "[::]:50051"}).addr == "[::]:50051"


def test_a_second_server_on_a_taken_port_stops_with_one_line() -> None:
    """gRPC's SO_REUSEPORT let a second `sizzle serve` on the same address start beside the first and
    take half its connections (each with matches of its own); and a taken metrics port crashed with a
    traceback after the gRPC server had started."""
    import socket
    import time

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    base = {k: v for k, v in os.environ.items() if not k.startswith("SIZZLE_")}
    env = {**base, "SIZZLE_ADDR": f"127.0.0.1:{port}", "SIZZLE_WEB_ADDR": ""}
    first = subprocess.Popen([sys.executable, "-m", "apps.cli", "serve", "--services", "rules"], env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        assert first.stdout is not None and "Sizzle is serving" in first.stdout.readline()
        second = subprocess.run([sys.executable, "-m", "apps.cli", "serve", "--services", "rules"], env=env,
                                capture_output=True, text=True, timeout=60)
        assert second.returncode == 1 and "Traceback" not in second.stderr, second.stderr
        assert second.stderr.strip().splitlines()[-1] == (
            f"sizzle serve: cannot listen on 127.0.0.1:{port} (is another server on it?)")
        metrics = subprocess.run([sys.executable, "-m", "apps.cli", "serve", "--services", "rules"],
                                 env={**env, "SIZZLE_ADDR": "127.0.0.1:0", "SIZZLE_METRICS_PORT": str(port)},
                                 capture_output=True, text=True, timeout=60)
        assert metrics.returncode == 1 and "Traceback" not in metrics.stderr, metrics.stderr
        assert metrics.stderr.strip().splitlines()[-1].startswith(
            f"sizzle serve: the metrics endpoint cannot listen on 127.0.0.1:{port}")
        time.sleep(0.1)
        assert first.poll() is None  # the first server serves on
    finally:
        first.terminate()
        first.wait(30)
