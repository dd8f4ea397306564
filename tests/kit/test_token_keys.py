"""Secure by default: a server on a shared store refuses the development key; keys rotate."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from services.auth.tokens import TokenSigner
from services.kit.config import DEV_TOKEN_KEY, Config
from services.kit.errors import GameError

OLD = "old-key-0123456789abcdef0123456789"
NEW = "new-key-0123456789abcdef0123456789"


@pytest.mark.parametrize("env", [{"SIZZLE_REDIS_URL": "redis://127.0.0.1:6379/13"},
                                 {"SIZZLE_BROKER_URL": "redis://127.0.0.1:6379/13"}])
def test_a_server_on_a_shared_store_refuses_to_start_without_a_key(env: dict[str, str]) -> None:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("SIZZLE_")}
    done = subprocess.run([sys.executable, "-m", "apps.cli", "serve", "--addr", "127.0.0.1:0"],
                          env={**clean, **env}, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "SIZZLE_TOKEN_KEY is not set" in done.stderr and done.stderr.count("\n") == 1  # one clear line


def test_short_keys_are_refused_and_the_embedded_default_may_use_the_dev_key() -> None:
    assert Config().insecure_reason() == "" and Config().uses_dev_key
    assert "at least 32" in Config(token_key="short").insecure_reason()
    assert "VERIFY_KEYS" in Config(token_key=NEW, token_verify_keys="tiny").insecure_reason()
    assert Config(redis_url="redis://x", token_key=NEW).insecure_reason() == ""
    assert Config(redis_url="redis://x", token_key=DEV_TOKEN_KEY).insecure_reason()


def test_keys_rotate_a_new_key_signs_the_old_one_still_verifies() -> None:
    before = TokenSigner(OLD, 3600)
    old_token = before.player_token("p_1", "Ann")
    after = TokenSigner.from_config(Config(token_key=NEW, token_verify_keys=f"{OLD}, "))
    assert after.verify(old_token).player_id == "p_1"  # issued before the rotation
    new_token = after.player_token("p_2", "Bo")
    assert after.verify(new_token).player_id == "p_2"
    with pytest.raises(GameError) as caught:
        before.verify(new_token)  # a replica that still has only the old key
    assert caught.value.reason_name == "INVALID_TOKEN"
    retired = TokenSigner(NEW, 3600)  # the old key dropped: its tokens stop working
    with pytest.raises(GameError):
        retired.verify(old_token)
