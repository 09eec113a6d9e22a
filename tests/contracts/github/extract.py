"""Extract the response schemas of `OPERATIONS` from GitHub's official OpenAPI description.

`python -m tests.contracts.github.extract [PACKAGE_DIR]` fetches the pinned `@octokit/openapi`
npm package (or reads an unpacked one), takes the dereferenced api.github.com description,
and writes `schemas.json` beside this file: JSON Schema (OpenAPI's `nullable` turned into
`null` types, prose dropped), so the contract test runs offline from a clean clone.
"""

import hashlib
import json
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path
from typing import Any

from tests.contracts.github.operations import OPERATIONS

PACKAGE = "@octokit/openapi"
VERSION = "23.0.2"
DESCRIPTION = "generated/api.github.com.deref.json"
OUT = Path(__file__).resolve().parent / "schemas.json"
PROSE = {"description", "example", "examples", "externalDocs", "summary"}


def npm_pack(into: Path, package: str, version: str) -> tuple[Path, dict[str, str]]:
    """`npm pack` one npm package version into a folder and unpack it: the package folder, and
    what npm says of the tarball (name, version, sha1 `shasum`, sha512 `integrity`)."""
    done = subprocess.run(
        ["npm", "pack", "--json", "--silent", f"{package}@{version}"],
        cwd=into, capture_output=True, text=True, check=True,
    )  # fmt: skip
    packed = json.loads(done.stdout)[0]
    unpacked = into / packed["filename"].removesuffix(".tgz")
    with tarfile.open(into / packed["filename"]) as tar:
        tar.extractall(unpacked, filter="data")
    facts = {k: str(packed[k]) for k in ("name", "version", "shasum", "integrity")}
    return unpacked / "package", facts


def fetch_package(into: Path) -> Path:
    """The pinned `@octokit/openapi` package, unpacked into a folder."""
    return npm_pack(into, PACKAGE, VERSION)[0]


def json_schema(node: Any) -> Any:
    """An OpenAPI 3.0 schema as JSON Schema: `nullable` becomes a null type, prose goes."""
    if isinstance(node, list):
        return [json_schema(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {k: json_schema(v) for k, v in node.items() if k not in PROSE and k != "nullable"}
    if isinstance(node.get("properties"), dict):  # property names are data, never prose
        out["properties"] = {k: json_schema(v) for k, v in node["properties"].items()}
    if node.get("nullable"):
        if "enum" in out:
            out["enum"] = [*out["enum"], None]
        if isinstance(out.get("type"), str):
            out["type"] = [out["type"], "null"]
        elif "type" not in out:
            return {"anyOf": [{"type": "null"}, out]}
    return out


def extract(package_dir: Path) -> dict[str, Any]:
    """The schemas of every operation, each stored once, named by operation."""
    api = json.loads((package_dir / DESCRIPTION).read_text())
    schemas: dict[str, Any] = {}
    operations: dict[str, str] = {}
    for op in OPERATIONS:
        response = api["paths"][op.path][op.method]["responses"][str(op.status)]
        schema = json_schema(response["content"]["application/json"]["schema"])
        text = json.dumps(schema, sort_keys=True)
        digest = hashlib.sha256(text.encode()).hexdigest()[:12]
        schemas[digest] = schema
        operations[op.key] = digest
    return {
        "source": f"npm {PACKAGE}@{VERSION}, {DESCRIPTION} (OpenAPI {api['openapi']})",
        "operations": operations,
        "schemas": schemas,
    }


def main(argv: list[str]) -> None:
    """Write schemas.json from a given or freshly fetched package."""
    with tempfile.TemporaryDirectory() as tmp:
        package_dir = Path(argv[0]) if argv else fetch_package(Path(tmp))
        OUT.write_text(json.dumps(extract(package_dir), indent=1, sort_keys=True) + "\n")
    sys.stdout.write(f"wrote {OUT} ({OUT.stat().st_size // 1024} KiB)\n")


if __name__ == "__main__":
    main(sys.argv[1:])
