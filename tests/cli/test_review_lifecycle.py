"""Review: the lifecycle commands against the real local gateway, used the way a new user would."""

from __future__ import annotations

import json
import signal
import subprocess
import time

from tests.support.cli import EAI, clean_env
from tests.support.gateway import manifest


def _env(gateway, tmp_path, who: str = "dev") -> dict[str, str]:
    return {"EAI_BASE_URL": gateway.base_url, "EAI_API_KEY": gateway.tokens[who],
            "EAI_CONFIG_DIR": str(tmp_path / "config")}


def _write(path, doc) -> str:
    path.write_text(json.dumps(doc), encoding="utf-8")
    return str(path)


def _exists(gateway, name: str) -> bool:
    return gateway.request("GET", f"/v1/tools/{name}", "admin").status_code == 200


def test_register_a_directory_of_manifests_applies_them(eai, gateway, tmp_path):
    names = [gateway.unique("dir"), gateway.unique("dir")]
    folder = tmp_path / "manifests"
    (folder / "nested").mkdir(parents=True)
    _write(folder / "a.json", manifest(names[0]))
    _write(folder / "nested" / "b.json", manifest(names[1]))
    proc = eai(["tools", "register", folder, "-o", "json"], env=_env(gateway, tmp_path))
    assert proc.returncode == 0, proc.stderr
    assert sorted((r["tool"], r["result"]) for r in json.loads(proc.stdout)) == sorted(
        (n, "created") for n in names)


def test_register_reads_standard_input(eai, gateway, tmp_path):
    name = gateway.unique("stdin")
    proc = eai(["tools", "register", "-", "-o", "json"], input=json.dumps(manifest(name)),
               env=_env(gateway, tmp_path))
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == [{"tool": name, "source": "<stdin>", "result": "created", "status": "draft"}]


def test_register_with_one_invalid_manifest_registers_nothing(eai, gateway, tmp_path):
    good, bad = gateway.unique("good"), gateway.unique("bad")
    files = [_write(tmp_path / "good.json", manifest(good)),
             _write(tmp_path / "bad.json", manifest(bad, risk_level="unacceptable"))]
    proc = eai(["tools", "register", *files], env=_env(gateway, tmp_path))
    assert proc.returncode == 1
    assert "bad.json: /spec/risk_level" in proc.stderr and "nothing was registered" in proc.stderr
    assert not _exists(gateway, good) and not _exists(gateway, bad)


def test_register_refused_midway_names_the_file_and_what_was_applied(eai, gateway, tmp_path):
    theirs, mine = gateway.unique("theirs"), gateway.unique("mine")
    assert gateway.apply(manifest(theirs), who="dev").status_code in (200, 201)
    files = [_write(tmp_path / "mine.json", manifest(mine)),
             _write(tmp_path / "theirs.json", manifest(theirs, description="Changed by someone else."))]
    proc = eai(["tools", "register", *files], env=_env(gateway, tmp_path, who="dev2"))
    assert proc.returncode == 4
    assert "theirs.json: 403" in proc.stderr
    assert f"already done before this error: {mine} created" in proc.stderr


def test_invoke_reads_arguments_from_standard_input(eai, gateway, tmp_path):
    name = gateway.unique("echo")
    assert gateway.apply(manifest(name)).status_code in (200, 201)
    proc = eai(["tools", "invoke", name, "--args-file", "-", "-o", "json"], input='{"text": "hé"}',
               env=_env(gateway, tmp_path))
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["result"] == {"text": "hé"}


def test_follow_shows_only_invocations_made_after_it_started(gateway, tmp_path):
    name = gateway.unique("follow")
    assert gateway.apply(manifest(name)).status_code in (200, 201)
    for text in ("old-1", "old-2", "old-3"):
        assert gateway.invoke(name, {"text": text}, who="dev").status_code == 200
    proc = subprocess.Popen([*EAI, "tools", "invocations", "--tool", name, "--follow", "--limit", "1",
                             "-o", "json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=clean_env(_env(gateway, tmp_path)))
    try:
        first = proc.stdout.readline()  # the initial listing is printed: later calls are new
        assert gateway.invoke(name, {"text": "new-1"}, who="dev").status_code == 200
        time.sleep(4.5)  # more than two polls (2 s each)
    finally:
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    assert proc.returncode == 130, err
    texts = [json.loads(line)["arguments"]["text"] for line in (first + out).splitlines()]
    assert texts == ["old-3", "new-1"], out
    assert "Traceback" not in err


def test_a_parameter_the_gateway_refuses_is_a_usage_error(eai, gateway, tmp_path):
    name = gateway.unique("param")
    assert gateway.apply(manifest(name)).status_code in (200, 201)
    proc = eai(["tools", "update", name, "--description", ""], env=_env(gateway, tmp_path))
    assert proc.returncode == 2, proc.stderr
    assert "/body/description" in proc.stderr and "Traceback" not in proc.stderr
