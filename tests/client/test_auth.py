"""auth login/status/logout, profiles, and keyrings that work, fail, hang or are insecure."""

from __future__ import annotations

import io
import json
import os
import stat
import sys
import time
from pathlib import Path

import httpx
import keyring
import keyring.backends.fail
import pytest

from enterprise_ai.auth import Secret, _config
from tests.client.conftest import SENTINEL, err
from tests.client.keyring_backends import FailingKeyring, FileKeyring, HangingKeyring

REPO = Path(__file__).resolve().parents[2]
OK_PAGE = httpx.Response(200, json={"items": [], "next_cursor": None})


class Counting(FileKeyring):
    def __init__(self) -> None:
        super().__init__()
        self.calls = 0

    def get_password(self, service, username):
        self.calls += 1
        return super().get_password(service, username)


@pytest.fixture
def use_keyring():
    previous = keyring.get_keyring()

    def install(backend):
        keyring.set_keyring(backend)
        return backend

    yield install
    keyring.set_keyring(previous)


@pytest.fixture
def login_env(gw, monkeypatch):
    monkeypatch.delenv("EAI_API_KEY")
    monkeypatch.delenv("EAI_BASE_URL")
    gw.on("GET /v1/tools", OK_PAGE)
    return gw


def _stdin(monkeypatch, text):
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))


def _config_files(tmp_path):
    root = tmp_path / "config"
    return sorted(p.name for p in root.iterdir()) if root.exists() else []


def test_secret_hides_its_value():
    s = Secret(SENTINEL)
    assert SENTINEL not in repr(s) and SENTINEL not in str(s) and SENTINEL not in f"{s}" and SENTINEL not in repr([s])
    assert s.reveal() == SENTINEL and s.last4 == SENTINEL[-4:]
    with pytest.raises(TypeError):
        import pickle

        pickle.dumps(s)


def test_login_stores_in_keyring_and_status_shows_last4(login_env, cli, use_keyring, monkeypatch, tmp_path):
    backend = use_keyring(FileKeyring())
    _stdin(monkeypatch, SENTINEL + "\n")
    code, out, errout = cli("auth", "login", "--profile", "work", "--base-url", "http://gw.test", "--token-stdin")
    assert code == 0, errout
    assert backend.get_password("eai", "work") == SENTINEL
    checked = login_env.calls("GET /v1/tools")[0]
    assert checked.headers["authorization"] == f"Bearer {SENTINEL}" and "limit=1" in checked.url
    assert _config_files(tmp_path) == ["config.json"]  # no credentials file
    cfg = json.loads((tmp_path / "config" / "config.json").read_text())
    assert cfg["profiles"]["work"] == {"base_url": "http://gw.test", "token_storage": "keyring"}
    code, out, errout = cli("auth", "status", "--profile", "work", "-o", "json")
    status = json.loads(out)
    assert status["token_source"] == "keyring" and status["token_last4"] == SENTINEL[-4:]
    assert status["base_url"] == "http://gw.test"
    monkeypatch.setenv("EAI_PROFILE", "work")
    code, out, _ = cli("tools", "list", "-o", "json")
    assert code == 0 and login_env.requests[-1].headers["authorization"] == f"Bearer {SENTINEL}"
    code, out, _ = cli("auth", "logout")
    assert code == 0 and backend.get_password("eai", "work") is None
    code, out, errout = cli("tools", "list")
    assert code == 3 and "no token for profile 'work'" in errout


def test_login_with_a_rejected_token_writes_nothing(login_env, cli, use_keyring, monkeypatch, tmp_path):
    backend = use_keyring(FileKeyring())
    login_env.on("GET /v1/tools", err(401, "unauthenticated", "unknown token"))
    _stdin(monkeypatch, "wrong-token\n")
    code, _, errout = cli("auth", "login", "--token-stdin")
    assert code == 3 and "401 unauthenticated" in errout
    assert backend.memory == {} and _config_files(tmp_path) == []


@pytest.mark.parametrize("backend", [FailingKeyring, keyring.backends.fail.Keyring])
def test_unusable_keyring_fails_and_writes_nothing(login_env, cli, use_keyring, monkeypatch, tmp_path, backend):
    use_keyring(backend())
    _stdin(monkeypatch, SENTINEL + "\n")
    code, out, errout = cli("auth", "login", "--token-stdin")
    assert code == 3
    assert "keyring" in errout and "--insecure-storage" in errout
    assert _config_files(tmp_path) == []
    assert SENTINEL not in out + errout


def test_hanging_keyring_gives_up_after_3_seconds(login_env, cli, use_keyring, monkeypatch, tmp_path):
    use_keyring(HangingKeyring())
    _stdin(monkeypatch, SENTINEL + "\n")
    started = time.monotonic()
    code, _, errout = cli("auth", "login", "--token-stdin")
    elapsed = time.monotonic() - started
    assert code == 3 and "did not answer within 3 s" in errout
    assert 2.9 <= elapsed < 6
    assert _config_files(tmp_path) == []


def test_insecure_storage_warns_before_writing_a_0600_file(login_env, cli, use_keyring, monkeypatch, tmp_path):
    backend = use_keyring(Counting())
    from enterprise_ai.cli import render

    events: list[str] = []
    real_warn, real_write = render.warn, _config.write_file_token
    monkeypatch.setattr(render, "warn", lambda msg, state=None: (events.append("warn"), real_warn(msg, state)))
    monkeypatch.setattr(_config, "write_file_token", lambda *a: (events.append("write"), real_write(*a))[1])
    _stdin(monkeypatch, SENTINEL + "\n")
    code, out, errout = cli("auth", "login", "--token-stdin", "--insecure-storage")
    assert code == 0, errout
    assert events == ["warn", "write"]
    assert "warning: storing the token in plain text" in errout
    creds = tmp_path / "config" / "credentials.json"
    assert stat.S_IMODE(creds.stat().st_mode) == 0o600
    assert json.loads(creds.read_text()) == {"default": SENTINEL}
    assert backend.calls == 0
    code, out, _ = cli("auth", "status", "-o", "json")
    assert json.loads(out)["token_source"] == "file"


def test_env_api_key_wins_and_keyring_is_never_touched(gw, cli, use_keyring, tmp_path):
    use_keyring(HangingKeyring())  # any keyring call would take 3 s and fail
    _config.save_profile("default", "http://gw.test", "keyring")
    gw.on("GET /v1/tools", OK_PAGE)
    started = time.monotonic()
    code, out, errout = cli("auth", "status", "-o", "json")
    assert code == 0 and json.loads(out)["token_source"] == "env EAI_API_KEY"
    code, _, _ = cli("tools", "list")
    assert code == 0
    assert time.monotonic() - started < 2


def test_login_refuses_while_env_key_is_set(gw, cli, monkeypatch):
    _stdin(monkeypatch, "x\n")
    code, _, errout = cli("auth", "login", "--token-stdin")
    assert code == 2 and "EAI_API_KEY" in errout


def test_a_token_is_never_a_command_line_value(eai):
    proc = eai(["auth", "login", "--token", "abc"])
    assert proc.returncode == 2 and "No such option" in proc.stderr


def test_login_without_terminal_or_stdin_flag_is_a_usage_error(eai, tmp_path):
    proc = eai(["auth", "login"], env={"EAI_CONFIG_DIR": str(tmp_path)})
    assert proc.returncode == 2 and "--token-stdin" in proc.stderr


def test_profiles_selected_by_flag_and_env(gw, cli, monkeypatch, tmp_path):
    monkeypatch.delenv("EAI_BASE_URL")
    _config.save_profile("a", "http://a.test", "none")
    _config.save_profile("b", "http://b.test", "none")
    assert json.loads(cli("auth", "status", "-o", "json")[1])["profile"] == "a"  # the first saved is the default
    monkeypatch.setenv("EAI_PROFILE", "b")
    assert json.loads(cli("auth", "status", "-o", "json")[1])["base_url"] == "http://b.test"
    assert json.loads(cli("auth", "status", "--profile", "a", "-o", "json")[1])["base_url"] == "http://a.test"


def _child_env(tmp_path, backend):
    cfg = tmp_path / "config"
    cfg.mkdir(exist_ok=True)
    (cfg / "config.json").write_text(json.dumps(
        {"default_profile": "default", "profiles": {"default": {"base_url": "http://127.0.0.1:9", "token_storage": "keyring"}}}))
    return {
        "EAI_CONFIG_DIR": str(cfg),
        "PYTHON_KEYRING_BACKEND": f"tests.client.keyring_backends.{backend}",
        "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")]),
    }


def test_child_process_with_hanging_keyring_exits_3_promptly(eai, tmp_path):
    started = time.monotonic()
    proc = eai(["tools", "list"], env=_child_env(tmp_path, "HangingKeyring"), cwd=REPO, timeout=30)
    assert proc.returncode == 3, proc.stderr
    assert "did not answer within 3 s" in proc.stderr
    assert time.monotonic() - started < 15


def test_child_process_with_failing_keyring_exits_3(eai, tmp_path):
    proc = eai(["tools", "list"], env=_child_env(tmp_path, "FailingKeyring"), cwd=REPO)
    assert proc.returncode == 3 and "the OS keyring failed: KeyringError" in proc.stderr
