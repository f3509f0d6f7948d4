"""Review: the gateway's contract endpoint reports the same problems as the local validator."""

from __future__ import annotations

from pathlib import Path

import httpx

from enterprise_ai.validate import Finding, check_manifest, iter_documents

INVALID = Path(__file__).resolve().parents[2] / "manifests-examples" / "invalid"


def local_problems(doc, raw) -> set[tuple[str, str, str]]:
    """What ``eai tools validate`` says of the document, as the gateway words it (``message [rule]``).

    One known difference: for ``manifest.quote-string`` the CLI quotes the YAML source text
    (``version: 3.10`` -> ``"3.10"``), which the gateway never sees (it receives the JSON number 3.1);
    such findings must still match by rule and path.
    """
    cli, plain = check_manifest(doc, raw=raw), check_manifest(doc)
    assert [(f.rule, f.pointer) for f in cli] == [(f.rule, f.pointer) for f in plain]
    assert [f.message for f in cli if f.rule != "manifest.quote-string"] == [
        f.message for f in plain if f.rule != "manifest.quote-string"]
    return {(f.severity, f.pointer, f"{f.message} [{f.rule}]") for f in plain}


def test_gateway_contract_validation_matches_the_local_validator(gateway):
    compared = 0
    with httpx.Client(base_url=gateway.base_url, headers=gateway.headers("dev"), timeout=30) as client:
        for path in sorted(INVALID.iterdir()):
            if path.suffix not in (".yaml", ".yml", ".json"):
                continue
            for item in iter_documents(path):
                if isinstance(item, Finding):
                    continue  # loading problems never reach the gateway: the client refuses the file
                response = client.post("/v1/contracts/tool-manifest/validate", json=item.data)
                assert response.status_code == 200, (path.name, response.text)
                body = response.json()
                remote = {("error", e["path"], e["message"]) for e in body["errors"]}
                remote |= {("warning", w["path"], w["message"]) for w in body.get("warnings", [])}
                local = local_problems(item.data, item.raw)
                assert local <= remote, (path.name, local - remote)
                # The gateway may add its own apply checks (egress allow-list, structure), never drop ours.
                extra = {p for p in remote - local if not p[2].endswith("]")}
                assert remote - local == extra, (path.name, remote - local)
                assert body["valid"] == (not any(s == "error" for s, _, _ in local | remote))
                compared += 1
    assert compared >= 20
