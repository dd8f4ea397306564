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
