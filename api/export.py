"""Regenerate the committed contract.

``python -m sevens_rules.api.export`` writes ``openapi/openapi.json``, ``openapi/schema.graphql`` and
``openapi/fragments.graphql`` (per game, a fragment of its whole state and one of its whole move) and the
operation reference in ``README.md`` (:mod:`sevens_rules.api.reference`);
``python -m sevens_rules.api.export --check`` fails when any of them differs from the models.
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

import strawberry

from .graphql import build_schema, contract_fragments
from .openapi import openapi_json
from .reference import with_reference

ROOT = Path(__file__).resolve().parent.parent
OPENAPI_PATH = ROOT / "openapi" / "openapi.json"
SDL_PATH = ROOT / "openapi" / "schema.graphql"
FRAGMENTS_PATH = ROOT / "openapi" / "fragments.graphql"
README_PATH = ROOT / "README.md"


def sdl(schema: strawberry.Schema) -> bytes:
    """The GraphQL SDL file's contents."""
    return (schema.as_str() + "\n").encode()


def artifacts() -> dict[Path, bytes]:
    """The generated files and their contents."""
    schema = build_schema()
    return {
        OPENAPI_PATH: openapi_json(),
        SDL_PATH: sdl(schema),
        FRAGMENTS_PATH: contract_fragments(schema).encode(),
        README_PATH: with_reference(README_PATH.read_text()).encode(),
    }


def contract_digest(schema: strawberry.Schema) -> str:
    """``sha256:`` and the hex SHA-256 of ``openapi/openapi.json`` followed by ``openapi/schema.graphql``
    (``cat openapi/openapi.json openapi/schema.graphql | sha256sum``)."""
    return "sha256:" + hashlib.sha256(openapi_json() + sdl(schema)).hexdigest()


def main(argv: list[str]) -> int:
    """Write the artifacts, or with ``--check`` report the ones that drifted."""
    check = "--check" in argv
    if not README_PATH.exists():  # an installed copy, not the repository's tree
        print(
            f"sevens-rules: no repository at {ROOT}: the contract is generated into a checkout installed "
            'with pip install -e ".[test]"',
            file=sys.stderr,
        )
        return 2
    stale = []
    for path, content in artifacts().items():
        if check:
            if not path.exists() or path.read_bytes() != content:
                stale.append(path)
        else:
            path.parent.mkdir(exist_ok=True)
            path.write_bytes(content)
    for path in stale:
        print(
            f"{path.relative_to(ROOT)} is out of date: run python -m sevens_rules.api.export", file=sys.stderr
        )
    return 1 if stale else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
