"""The whole lifecycle through the real CLI against the real local gateway (``gateway`` fixture).

register -> list -> promote and approve -> invoke a tool that needs approval (pending -> approved ->
succeeded) -> invocations table -> replayed idempotent invoke -> delete.
"""

from __future__ import annotations

import json
import re
import subprocess
import time

import yaml

from tests.support.cli import EAI, clean_env
from tests.support.gateway import manifest


def _env(gateway, who, tmp_path):
    return {"EAI_BASE_URL": gateway.base_url, "EAI_API_KEY": gateway.tokens[who], "EAI_CONFIG_DIR": str(tmp_path / "cfg")}


def test_lifecycle_end_to_end(eai, gateway, tmp_path, monkeypatch, capsys):
    """Each step runs the CLI's entry point (``main``) in this process, to keep the test fast; the
    waiting invoke runs as a real child process, and the first register goes through ``eai`` itself."""
    from types import SimpleNamespace

    from enterprise_ai.cli.main import main

    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.delenv("EAI_PROFILE", raising=False)

    def run(who, *args, code=0):
        for key, value in _env(gateway, who, tmp_path).items():
            monkeypatch.setenv(key, value)
        got = main(list(args))
        out = capsys.readouterr()
        assert got == code, f"{args}: {got}\n{out.out}\n{out.err}"
        return SimpleNamespace(stdout=out.out, stderr=out.err)

    guarded, plain = gateway.unique("guarded"), gateway.unique("plain")
    path = tmp_path / "tools.yaml"
    path.write_text(yaml.safe_dump_all([manifest(guarded, requires_approval=True), manifest(plain)]))

    # register (twice: created, then unchanged; --exit-code says whether anything changed)
    proc = eai(["tools", "register", str(path), "--exit-code"], env=_env(gateway, "dev", tmp_path))
    assert proc.returncode == 1, proc.stderr
    out = proc.stdout
    assert re.search(rf"^{guarded}\tcreated\tdraft", out, re.M) and re.search(rf"^{plain}\tcreated\tdraft", out, re.M)
    rows = json.loads(run("dev", "tools", "apply", str(path), "--exit-code", "-o", "json").stdout)
    assert [r["result"] for r in rows] == ["unchanged", "unchanged"]

    # list
    listed = {t["name"]: t["status"] for t in json.loads(run("dev", "tools", "list", "-o", "json").stdout)}
    assert listed[guarded] == "draft" and listed[plain] == "draft"

    # promote (security officer) and approve (tenant admin: four eyes)
    for name in (guarded, plain):
        err = run("secoff", "tools", "update", name, "--status", "approved").stderr
        approval = re.search(r"waits for approval (\S+)", err).group(1)
        run("secoff", "approvals", "approve", approval, code=4)  # its own request: self_approval_forbidden
        decided = json.loads(run("admin", "approvals", "approve", approval, "--comment", "ok", "-o", "json").stdout)
        assert decided["status"] == "approved"
        assert json.loads(run("dev", "tools", "get", name, "-o", "json").stdout)["status"] == "approved"
    approved = json.loads(run("dev", "tools", "list", "--status", "approved", "-o", "json").stdout)
    assert {guarded, plain} <= {t["name"] for t in approved}

    # invoke a tool that needs approval: pending -> approved -> succeeded
    pending_err = run("agent", "tools", "invoke", guarded, "text=first", code=8).stderr
    first_id = re.search(r"needs approval (\S+)", pending_err).group(1)
    run("admin", "approvals", "approve", first_id)
    run("agent", "tools", "invoke", guarded, "text=other", "--approval-id", first_id, code=6)  # 409 approval_mismatch
    used = json.loads(run("agent", "tools", "invoke", guarded, "text=first", "--approval-id", first_id, "-o", "json").stdout)
    assert used["status"] == "succeeded" and used["result"] == {"text": "first"}
    run("agent", "tools", "invoke", guarded, "text=first", "--approval-id", first_id, code=6)  # approval_consumed
    waiting = subprocess.Popen(
        [*EAI, "tools", "invoke", guarded, "text=hello", "--run-id", "run-e2e", "--wait", "60", "-o", "json"],
        env=clean_env(_env(gateway, "agent", tmp_path)), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        stdin=subprocess.DEVNULL)
    try:
        deadline, pending = time.monotonic() + 30, []
        while not pending and time.monotonic() < deadline:
            items = json.loads(run("admin", "approvals", "list", "--tool", guarded, "-o", "json").stdout)
            pending = [a for a in items if a.get("kind") != "promotion" and a.get("status") == "pending"
                       and a.get("arguments") == {"text": "hello"}]
            time.sleep(0.2)
        assert pending, "no pending approval appeared"
        run("admin", "approvals", "approve", pending[0]["id"])
        out, err = waiting.communicate(timeout=60)
    finally:
        if waiting.poll() is None:
            waiting.kill()
    assert waiting.returncode == 0, err
    result = json.loads(out)
    assert result["status"] == "succeeded" and result["approval_id"] == pending[0]["id"]
    assert f"needs approval {pending[0]['id']}" in err

    # invocations table
    table = run("admin", "tools", "invocations", "--tool", guarded).stdout.splitlines()
    assert table[0] == "TIME\tTOOL\tACTOR\tSTATUS\tDECISION\tDURATION\tCOST\tDLP\tRUN ID"
    succeeded = [line.split("\t") for line in table[1:] if "\tsucceeded\t" in line]
    assert succeeded and succeeded[0][1] == guarded and succeeded[0][2] == "agent" and succeeded[0][8] == "run-e2e"
    assert succeeded[0][6].endswith("EUR")

    # replayed idempotent invoke: same key -> same invocation, recorded once
    first = json.loads(run("agent", "tools", "invoke", plain, "text=once", "--idempotency-key", "k-e2e-1", "-o", "json").stdout)
    again = json.loads(run("agent", "tools", "invoke", plain, "text=once", "--idempotency-key", "k-e2e-1", "-o", "json").stdout)
    assert first["status"] == "succeeded" and again["id"] == first["id"]
    records = json.loads(run("admin", "tools", "invocations", "--tool", plain, "-o", "json").stdout)
    assert len(records) == 1
    run("agent", "tools", "invoke", plain, "text=other", "--idempotency-key", "k-e2e-1", code=6)  # another body: 409

    # delete
    run("admin", "tools", "delete", plain, code=2)  # no terminal and no --yes
    run("admin", "tools", "delete", plain, "--yes")
    run("admin", "tools", "get", plain, code=5)
    run("admin", "tools", "delete", guarded, "--yes")


def test_login_then_use_the_keyring_profile(eai, gateway, tmp_path):
    import os
    from pathlib import Path

    repo = Path(__file__).resolve().parents[2]
    store = tmp_path / "keyring.json"
    env = {"EAI_CONFIG_DIR": str(tmp_path / "cfg"), "EAI_TEST_KEYRING_FILE": str(store),
           "PYTHON_KEYRING_BACKEND": "tests.client.keyring_backends.FileKeyring",
           "PYTHONPATH": os.pathsep.join([str(repo), os.environ.get("PYTHONPATH", "")])}
    token = gateway.tokens["dev"]
    bad = eai(["auth", "login", "--profile", "ci", "--base-url", gateway.base_url, "--token-stdin"],
              env=env, input="not-a-token\n", cwd=repo)
    assert bad.returncode == 3 and not store.exists() and not (tmp_path / "cfg").exists()
    proc = eai(["auth", "login", "--profile", "ci", "--base-url", gateway.base_url, "--token-stdin"],
               env=env, input=token + "\n", cwd=repo)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(store.read_text()) == {"eai/ci": token}
    assert token not in proc.stdout + proc.stderr
    status = json.loads(eai(["auth", "status", "-o", "json"], env={**env, "EAI_PROFILE": "ci"}, cwd=repo).stdout)
    assert status == {"profile": "ci", "base_url": gateway.base_url, "token_source": "keyring",
                      "token_last4": token[-4:], "config_dir": str(tmp_path / "cfg")}
    listed = eai(["tools", "list", "--profile", "ci"], env=env, cwd=repo)
    assert listed.returncode == 0 and listed.stdout.startswith("NAME\tSTATUS")
    assert eai(["auth", "logout", "--profile", "ci"], env=env, cwd=repo).returncode == 0
    assert json.loads(store.read_text()) == {}
    assert eai(["tools", "list", "--profile", "ci"], env=env, cwd=repo).returncode == 3


def test_validate_remote_gives_the_gateway_verdict_at_its_line(eai, gateway, tmp_path):
    path = tmp_path / "bad.yaml"
    body = manifest("bad-handler", endpoint={"type": "builtin", "handler": "rm-rf"})
    path.write_text(yaml.safe_dump(body, sort_keys=False))
    line = next(i for i, text in enumerate(path.read_text().splitlines(), 1) if "handler: rm-rf" in text)
    proc = eai(["tools", "validate", "--remote", str(path)], env=_env(gateway, "dev", tmp_path))
    assert proc.returncode == 1, proc.stderr
    assert f"{path}:{line}:" in proc.stdout and "endpoint.builtin-handler gateway: handler 'rm-rf'" in proc.stdout
    good = tmp_path / "good.yaml"
    good.write_text(yaml.safe_dump(manifest("good-one")))
    assert eai(["tools", "validate", "--remote", str(good)], env=_env(gateway, "dev", tmp_path)).returncode == 0
