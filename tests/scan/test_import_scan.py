"""The import scan core: tools found in a child process, problems, isolation, timeout."""

from __future__ import annotations

import os

import pytest

from enterprise_ai.errors import UsageError
from enterprise_ai.scan import ScanOptions, scan
from tests.scan.conftest import tool_module


def _names(result):
    return [t.name for t in result.tools]


def test_decorated_functions_and_assignments_are_found_with_their_def_line(tree):
    root = tree(
        {
            "shop/orders.py": '''
            from enterprise_ai.tools import tool


            @tool(
                action="read",
                scopes=["orders:read"],
            )
            def search_orders(customer_id: str) -> list[str]:
                """Search orders."""
                return []


            def _refund(order_id: str) -> None:
                """Refund an order."""


            refund = tool(_refund, name="refund-order", action="write")
            NOT_A_TOOL = 3
            '''
        }
    )
    result = scan([str(root / "shop")])
    assert result.problems == []
    assert _names(result) == ["refund-order", "search-orders"]
    refund, search = result.tools
    assert (search.file, search.line) == (str(root / "shop" / "orders.py"), 8)  # the def line, not the decorator's
    assert (refund.file, refund.line) == (str(root / "shop" / "orders.py"), 13)
    assert search.source == "eai" and search.registrable
    assert search.manifest["spec"]["scopes_required"] == ["orders:read"]
    assert refund.manifest["spec"]["action"] == "write"
    assert list(search.manifest) == ["apiVersion", "kind", "metadata", "spec"]


def test_user_code_is_isolated_output_main_block_and_eai_variables(tree, capfd, monkeypatch):
    marker = tree({}) / "main-ran"
    monkeypatch.setenv("EAI_API_KEY", "secret-key")
    monkeypatch.setenv("EAI_GATEWAY_URL", "http://127.0.0.1:1")
    monkeypatch.setenv("SCAN_TEST_VISIBLE", "yes")
    root = tree(
        {
            "noisy.py": f'''
            import os, subprocess, sys
            from enterprise_ai.tools import tool

            print("printed at import")
            print("to stderr", file=sys.stderr)
            os.write(1, b"raw fd 1\\n")
            os.write(2, b"raw fd 2\\n")
            subprocess.run([sys.executable, "-c", "print('from a grandchild')"])
            SEEN = ",".join(k for k in sorted(os.environ) if k.startswith("EAI_")) or "none"

            @tool(description="eai variables: " + SEEN + "; other: " + os.environ.get("SCAN_TEST_VISIBLE", "missing"))
            def ping() -> str:
                return "pong"

            if __name__ == "__main__":
                open({str(marker)!r}, "w").write("ran")
            '''
        }
    )
    result = scan([str(root / "noisy.py")])
    captured = capfd.readouterr()
    assert captured.out == "" and captured.err == ""
    assert result.problems == []
    assert result.tools[0].manifest["spec"]["description"] == "eai variables: none; other: yes"
    assert not os.path.exists(marker)


def test_a_module_that_fails_to_import_is_reported_and_the_others_are_scanned(tree):
    root = tree(
        {
            "a_good.py": tool_module("search_orders"),
            "b_bad.py": "import os\n\nRATE = 1 / 0\n",
            "c_good.py": tool_module("get_order"),
            "d_missing_dep.py": "import no_such_dependency_xyz\n",
            "e_exits.py": "raise SystemExit(3)\n",
        }
    )
    result = scan([str(root)])
    assert _names(result) == ["get-order", "search-orders"]
    problems = {(os.path.basename(p.file), p.line, p.message, p.severity) for p in result.problems}
    assert problems == {
        ("b_bad.py", 3, "import failed: ZeroDivisionError: division by zero", "error"),
        ("d_missing_dep.py", 1, "import failed: ModuleNotFoundError: No module named 'no_such_dependency_xyz'", "error"),
        ("e_exits.py", 1, "import failed: SystemExit: 3", "error"),
    }


def test_a_syntax_error_is_an_import_failure_with_file_and_line(tree):
    root = tree({"broken.py": "x = 1\n\ndef f(:\n    pass\n"})
    (problem,) = scan([str(root / "broken.py")]).errors
    assert problem.file == str(root / "broken.py")
    assert problem.line == 3
    assert problem.message.startswith("import failed: SyntaxError: ")


def test_two_tools_with_the_same_name_are_an_error_naming_both_places(tree):
    root = tree({"one.py": tool_module("search_orders"), "two.py": "# moved\n# down\n" + tool_module("search_orders")})
    result = scan([str(root)])
    (problem,) = result.errors
    one, two = str(root / "one.py"), str(root / "two.py")
    assert problem.message == f"duplicate tool name 'search-orders': defined at {one}:5 and at {two}:8"
    assert (problem.file, problem.line, problem.tool) == (two, 8, "search-orders")


def test_a_tool_imported_by_another_scanned_module_is_counted_once(tree):
    root = tree(
        {
            "shop/__init__.py": "from shop.impl import search_orders\n",
            "shop/api.py": "from .impl import search_orders as exported\n",
            "shop/impl.py": tool_module("search_orders"),
        }
    )
    result = scan([str(root / "shop")])
    assert result.problems == []
    assert [(t.name, os.path.basename(t.file)) for t in result.tools] == [("search-orders", "impl.py")]


def test_no_tools_is_an_empty_result_without_problems(tree):
    root = tree({"plain.py": "def helper():\n    return 1\n", "empty/README.txt": "nothing"})
    result = scan([str(root)])
    assert result.tools == [] and result.problems == []
    assert scan([str(root / "empty")]).tools == []


def test_package_relative_and_absolute_imports_work(tree):
    root = tree(
        {
            "src/shop/__init__.py": "",
            "src/shop/common.py": "DEFAULT_LIMIT = 25\n",
            "src/shop/orders/__init__.py": "",
            "src/shop/orders/api.py": '''
            from enterprise_ai.tools import tool
            from ..common import DEFAULT_LIMIT
            from shop.common import DEFAULT_LIMIT as SAME

            @tool
            def search_orders(limit: int = DEFAULT_LIMIT + SAME) -> list[str]:
                return []
            ''',
        }
    )
    (found,) = scan([str(root / "src" / "shop" / "orders" / "api.py")]).tools
    assert found.manifest["spec"]["input_schema"]["properties"]["limit"]["default"] == 50


def test_dotted_module_names_and_packages_are_imported_from_the_current_directory(tree, monkeypatch):
    root = tree(
        {
            "shop/__init__.py": "",
            "shop/orders.py": tool_module("search_orders"),
            "shop/sub/__init__.py": "",
            "shop/sub/refunds.py": tool_module("refund_order"),
        }
    )
    monkeypatch.chdir(root)
    assert _names(scan(["shop.orders"])) == ["search-orders"]
    result = scan(["shop"])
    assert [(t.name, t.file) for t in result.tools] == [
        ("refund-order", os.path.join("shop", "sub", "refunds.py")),
        ("search-orders", os.path.join("shop", "orders.py")),
    ]
    with pytest.raises(UsageError, match="no such file, directory or module: shop.nothing"):
        scan(["shop.nothing"])


def test_same_module_name_in_two_folders_is_scanned_twice(tree):
    root = tree({"a/util.py": tool_module("alpha"), "b/util.py": tool_module("beta")})
    result = scan([str(root / "a"), str(root / "b")])
    assert result.problems == []
    assert _names(result) == ["alpha", "beta"]


def test_a_file_named_like_a_module_eai_already_uses_is_reported(tree):
    root = tree({"json.py": tool_module("alpha"), "pydantic.py": tool_module("beta"), "gamma.py": tool_module("gamma")})
    result = scan([str(root)])
    assert _names(result) == ["gamma"]
    messages = sorted(p.message for p in result.errors)
    assert len(messages) == 2
    assert messages[0].startswith("import failed: ImportError: the module name 'json' is already taken by ")
    assert messages[1].startswith("import failed: ImportError: the module name 'pydantic' is already taken by ")
    assert messages[1].endswith(": rename the file")


def test_options_set_endpoint_and_metadata(tree):
    root = tree({"m.py": tool_module("search_orders")})
    options = ScanOptions(
        endpoint_base_url="https://tools.example.com/base/",
        metadata={"owner": "shop@example.com", "version": "2.0.1", "labels": {"team": "commerce"}},
    )
    manifest = scan([str(root)], options).tools[0].manifest
    assert manifest["metadata"] == {
        "name": "search-orders",
        "version": "2.0.1",
        "owner": "shop@example.com",
        "labels": {"team": "commerce"},
    }
    assert manifest["spec"]["endpoint"] == {
        "type": "http",
        "method": "POST",
        "url": "https://tools.example.com/base/tools/search-orders",
        "timeout_seconds": 30,
    }
    default = scan([str(root)]).tools[0].manifest
    assert default["spec"]["endpoint"]["url"] == "http://127.0.0.1:8000/tools/search-orders"


@pytest.mark.parametrize(
    "options, message",
    [
        (ScanOptions(endpoint_base_url="ftp://x"), "http"),
        (ScanOptions(endpoint_base_url="localhost:8000"), "http"),
        (ScanOptions(timeout=0), "positive"),
    ],
)
def test_bad_options_are_usage_errors(tree, options, message):
    root = tree({"m.py": ""})
    with pytest.raises(UsageError, match=message):
        scan([str(root)], options)


def test_a_tool_whose_schema_cannot_be_built_is_reported_and_others_kept(tree):
    root = tree(
        {
            "m.py": '''
            from __future__ import annotations
            from typing import TYPE_CHECKING
            from enterprise_ai.tools import tool

            if TYPE_CHECKING:
                from decimal import Decimal

            @tool
            def price(amount: Decimal) -> str:
                return ""

            @tool
            def fine(x: int) -> int:
                return x
            '''
        }
    )
    result = scan([str(root)])
    assert _names(result) == ["fine"]
    (problem,) = result.errors
    assert (problem.tool, problem.line) == ("price", 9)
    assert problem.message.startswith("cannot build the manifest: tool 'price': parameter 'amount'")


def test_the_timeout_stops_a_hanging_import_and_keeps_what_was_found(tree):
    root = tree({"a.py": tool_module("alpha"), "b_hangs.py": "import time\ntime.sleep(60)\n", "c.py": tool_module("gamma")})
    result = scan([str(root)], ScanOptions(timeout=3))
    assert _names(result) == ["alpha"]
    messages = {os.path.basename(p.file): p.message for p in result.errors}
    assert messages == {
        "b_hangs.py": "import did not finish within the 3 s timeout",
        "c.py": f"not scanned: the scan timed out after {root / 'b_hangs.py'}",
    }


def test_a_module_that_kills_the_worker_is_blamed_and_the_scan_goes_on(tree):
    root = tree({"a.py": tool_module("alpha"), "b_exit.py": "import os\nos._exit(7)\n", "c.py": tool_module("gamma")})
    result = scan([str(root)])
    assert _names(result) == ["alpha", "gamma"]
    (problem,) = result.errors
    assert (os.path.basename(problem.file), problem.message) == ("b_exit.py", "the import ended the scan process (exit code 7)")


AGENTS_SDK = os.path.join(os.path.dirname(__file__), os.pardir, "fixtures", "agents_sdk")


@pytest.mark.skipif(not os.path.isdir(AGENTS_SDK), reason="stand-in agents SDK not present")
def test_agents_sdk_tools_are_converted_and_client_tools_flagged(tree, monkeypatch):
    pytest.importorskip("enterprise_ai.integrations.agents")
    monkeypatch.setenv("PYTHONPATH", os.path.abspath(AGENTS_SDK))
    root = tree(
        {
            "assistant.py": '''
            import agents


            @agents.tool
            def lookup_weather(city: str) -> str:
                """Current weather of a city."""
                return "sunny"


            @agents.client_tool
            def pick_file(pattern: str) -> str:
                """Ask the user to pick a file."""
                raise NotImplementedError
            '''
        }
    )
    result = scan([str(root)])
    assert result.errors == []
    tools = {t.name: t for t in result.tools}
    assert set(tools) == {"lookup-weather", "pick-file"}
    assert (tools["lookup-weather"].source, tools["lookup-weather"].registrable, tools["lookup-weather"].line) == ("agents", True, 5)
    assert (tools["pick-file"].source, tools["pick-file"].registrable) == ("agents-client", False)
    (note,) = result.problems
    assert (note.severity, note.tool) == ("note", "pick-file")

    with_endpoint = scan([str(root)], ScanOptions(endpoint_base_url="https://agents.example.com"))
    client = next(t for t in with_endpoint.tools if t.source == "agents-client")
    assert client.registrable and with_endpoint.problems == []
    assert client.manifest["spec"]["endpoint"]["url"] == f"https://agents.example.com/tools/{client.name}"
