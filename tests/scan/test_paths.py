"""Which files a scan imports, and under which module names (no child process involved)."""

from __future__ import annotations

import os

import pytest

from enterprise_ai.errors import UsageError
from enterprise_ai.scan._import import resolve_targets
from enterprise_ai.scan._paths import looks_like_module_name, module_for_file, python_files


def test_directory_walk_skips_hidden_venvs_caches_and_build_output(tree):
    root = tree(
        {
            "a.py": "",
            "pkg/__init__.py": "",
            "pkg/b.py": "",
            "pkg/__main__.py": "",
            "pkg/.hidden.py": "",
            "pkg/notes.txt": "",
            ".git/hooks/x.py": "",
            ".tox/y.py": "",
            "venv/lib/v.py": "",
            ".venv/lib/v.py": "",
            "env/lib/v.py": "",
            "myenv/pyvenv.cfg": "home = /usr/bin\n",
            "myenv/lib/site.py": "",
            "__pycache__/c.py": "",
            "node_modules/n.py": "",
            "build/lib/d.py": "",
            "dist/e.py": "",
            "lib/site-packages/f.py": "",
            "lib/g.py": "",
        }
    )
    found = [os.path.relpath(p, root) for p in python_files(str(root))]
    assert found == ["a.py", os.path.join("lib", "g.py"), os.path.join("pkg", "__init__.py"), os.path.join("pkg", "b.py")]


def test_module_name_walks_up_to_the_package_root(tree):
    root = tree({"src/shop/__init__.py": "", "src/shop/orders/__init__.py": "", "src/shop/orders/api.py": "", "loose.py": ""})
    assert module_for_file(str(root / "src/shop/orders/api.py")) == ("shop.orders.api", str(root / "src"))
    assert module_for_file(str(root / "src/shop/orders/__init__.py")) == ("shop.orders", str(root / "src"))
    assert module_for_file(str(root / "loose.py")) == ("loose", str(root))


def test_module_names_are_told_apart_from_paths():
    assert looks_like_module_name("shop.orders")
    assert looks_like_module_name("orders")
    assert not looks_like_module_name("orders.py")
    assert not looks_like_module_name("shop/orders")
    assert not looks_like_module_name("1shop")


def test_targets_list_each_file_once_and_keep_module_names(tree):
    root = tree({"pkg/__init__.py": "", "pkg/a.py": ""})
    targets = resolve_targets([str(root / "pkg"), str(root / "pkg" / "a.py"), "some.module", "some.module"])
    assert [t.get("module") or t["name"] for t in targets] == ["pkg", "pkg.a", "some.module"]
    assert targets[1] == {"kind": "file", "path": str(root / "pkg" / "a.py"), "module": "pkg.a", "root": str(root)}


@pytest.mark.parametrize("arg, message", [("missing/dir", "no such file, directory or module"), ("nope.py", "no such file")])
def test_missing_paths_are_usage_errors(tmp_path, monkeypatch, arg, message):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(UsageError, match=message):
        resolve_targets([arg])


def test_a_file_that_is_not_python_is_a_usage_error(tree):
    root = tree({"notes.txt": "hello"})
    with pytest.raises(UsageError, match="not a Python file"):
        resolve_targets([str(root / "notes.txt")])
    with pytest.raises(UsageError, match="no path"):
        resolve_targets([])
