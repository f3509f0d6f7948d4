"""Review: local commands (scan, auth config, dev) given broken inputs, as a hostile new user would."""

from __future__ import annotations

from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[2] / "manifests-examples"


def _one_error_line(stderr: str) -> str:
    lines = [line for line in stderr.splitlines() if line.startswith("eai: error:")]
    assert len(lines) == 1, stderr
    assert "Traceback" not in stderr and "internal error" not in stderr
    return lines[0]


@pytest.mark.parametrize("check", [False, True])
def test_scan_out_with_a_folder_where_a_manifest_goes_is_a_usage_error(eai, tmp_path, check):
    out = tmp_path / "out"
    (out / "get-order.yaml").mkdir(parents=True)
    proc = eai(["tools", "scan", EXAMPLES / "tools", "--out", out, *(["--check"] if check else [])])
    assert proc.returncode == 2
    assert "get-order.yaml: cannot read" in _one_error_line(proc.stderr)
    assert sorted(p.name for p in out.iterdir()) == ["get-order.yaml"]  # nothing written beside it


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ('{"profiles": {"default": "http://x"}}', "'profiles' must map each profile name to an object"),
        ('{"profiles": [1]}', "'profiles' must map each profile name to an object"),
        ('{"default_profile": 5}', "'default_profile' must be a string"),
        (None, "config.json: cannot read"),  # a folder where the file goes
    ],
)
def test_a_broken_config_file_is_a_usage_error_naming_it(eai, tmp_path, content, expected):
    config = tmp_path / "config"
    config.mkdir()
    if content is None:
        (config / "config.json").mkdir()
    else:
        (config / "config.json").write_text(content, encoding="utf-8")
    for args in (["auth", "status"], ["tools", "list"]):
        proc = eai(args, env={"EAI_CONFIG_DIR": str(config), "EAI_API_KEY": "tok"})
        assert proc.returncode == 2, proc.stderr
        assert expected in _one_error_line(proc.stderr)


def test_a_config_dir_that_is_a_file_is_a_usage_error(eai, tmp_path):
    not_a_dir = tmp_path / "file"
    not_a_dir.write_text("x", encoding="utf-8")
    proc = eai(["auth", "status"], env={"EAI_CONFIG_DIR": str(not_a_dir)})
    assert proc.returncode == 2
    assert "Not a directory" in _one_error_line(proc.stderr)


@pytest.mark.parametrize(("path", "expected"), [("missing.py", "no such file"), ("empty", "no Python file"),
                                                 ("notes.yaml", "not a Python file")])
def test_dev_with_a_bad_path_stops_before_starting_anything(eai, tmp_path, path, expected):
    (tmp_path / "empty").mkdir()
    (tmp_path / "notes.yaml").write_text("a: 1\n", encoding="utf-8")
    data = tmp_path / "data"
    proc = eai(["dev", path, "--port", "0", "--tools-port", "0", "--data-dir", data, "--insecure-storage"],
               cwd=tmp_path, env={"EAI_CONFIG_DIR": str(tmp_path / "config")}, timeout=60)
    assert proc.returncode == 2, proc.stderr
    assert expected in _one_error_line(proc.stderr)
    assert not data.exists() and not (tmp_path / "config").exists()


@pytest.mark.parametrize(("option", "value"), [("--version", "x y"), ("--version", "3.10"), ("--owner", " ")])
def test_scan_metadata_options_that_would_make_every_manifest_invalid_are_refused(eai, option, value):
    proc = eai(["tools", "scan", EXAMPLES / "tools" / "orders.py", option, value])
    assert proc.returncode == 2
    assert option in _one_error_line(proc.stderr)
    assert proc.stdout == ""


def test_validate_reads_a_named_pipe_like_a_file(eai, tmp_path):
    """``eai tools validate <(generate)`` passes /dev/fd/N, a pipe: it is read (capped), not 'no such file'."""
    import os
    import threading

    fifo = tmp_path / "manifest.yaml"
    os.mkfifo(fifo)
    text = (EXAMPLES / "manifests" / "get-order.yaml").read_bytes()

    def feed() -> None:
        with open(fifo, "wb") as handle:
            handle.write(text)

    writer = threading.Thread(target=feed, daemon=True)
    writer.start()
    proc = eai(["tools", "validate", fifo])
    writer.join(10)
    assert proc.returncode == 0, proc.stderr
    assert "checked 1 file (1 manifest): 0 errors" in proc.stdout + proc.stderr


@pytest.mark.parametrize("args", [["--max-bytes", "100000000000000000000"], ["--max-bytes", "100000000000000000"],
                                  ["--max-depth", "100000000"]])
def test_validate_caps_that_cannot_be_honoured_are_usage_errors(eai, args):
    proc = eai(["tools", "validate", EXAMPLES / "manifests" / "get-order.yaml", *args])
    assert proc.returncode == 2
    assert args[0] in proc.stderr and "internal error" not in proc.stderr


@pytest.mark.parametrize("value", ["inf", "1e300", "nan", "0"])
def test_scan_timeouts_out_of_range_are_usage_errors(eai, value):
    proc = eai(["tools", "scan", EXAMPLES / "tools" / "orders.py", "--timeout", value])
    assert proc.returncode == 2
    assert "scan timeout" in _one_error_line(proc.stderr)


def test_scan_of_standard_input_says_it_is_not_supported(eai):
    proc = eai(["tools", "scan", "-"], input="from enterprise_ai.tools import tool\n")
    assert proc.returncode == 2
    assert "cannot read standard input" in _one_error_line(proc.stderr)
