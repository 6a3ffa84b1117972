"""The GraphQL console's editor bundle (``api/static/console.js``) is current: built from the locked
packages, the source and the build script in ``console/`` as they are committed.

The bundle is committed rather than built when the service is installed, so that installing the service
(pip, the image) needs no node. Its first lines record the SHA-256 of its build inputs, which the fast test
recomputes; the rebuild test runs ``npm ci`` and the build, and compares the bytes (esbuild writes the same
bytes for the same inputs).
"""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.test_clients import _locked

ROOT = Path(__file__).resolve().parent.parent
CONSOLE = ROOT / "console"
BUNDLE = ROOT / "api" / "static" / "console.js"
BUILD_INPUTS = ("package.json", "package-lock.json", "build.mjs", "src/console.js")
"""What the bundle is made from, as console/build.mjs hashes it (in this order)."""


def inputs_digest() -> str:
    digest = hashlib.sha256()
    for name in BUILD_INPUTS:
        digest.update(name.encode() + b"\0" + (CONSOLE / name).read_bytes() + b"\0")
    return digest.hexdigest()


def test_the_bundle_was_built_from_the_committed_inputs() -> None:
    """The digest in the bundle's header is the digest of today's lock, source and build script: after a
    change to any of them, run ``npm ci && npm run build`` in ``console/`` and commit the bundle."""
    header = BUNDLE.read_text(encoding="utf-8").splitlines()[1]
    assert header == f"// build inputs sha256:{inputs_digest()}", (
        "api/static/console.js is stale: run `npm ci && npm run build` in console/"
    )


def test_the_lock_pins_every_package_the_build_uses() -> None:
    """``npm ci`` installs exactly the lock: every package in package.json is in it, at that version."""
    manifest = json.loads((CONSOLE / "package.json").read_text())
    lock = json.loads((CONSOLE / "package-lock.json").read_text())
    for name, version in manifest["devDependencies"].items():
        assert lock["packages"][f"node_modules/{name}"]["version"] == version, name


def test_a_rebuild_gives_the_same_bytes(tmp_path: Path) -> None:
    """``npm ci`` then the build script reproduce the committed bundle byte for byte."""
    npm, node = shutil.which("npm"), shutil.which("node")
    if npm is None or node is None:
        pytest.skip("node and npm are not installed: the rebuild needs them (apt-get install nodejs npm)")
    installed = CONSOLE / "node_modules" / ".package-lock.json"
    lock = CONSOLE / "package-lock.json"
    with _locked("npm-ci-console"):
        if not installed.exists() or installed.stat().st_mtime < lock.stat().st_mtime:
            command = [npm, "ci", "--no-audit", "--no-fund"]
            done = subprocess.run(command, cwd=CONSOLE, capture_output=True, text=True, check=False)
            assert done.returncode == 0, done.stdout + done.stderr
        rebuilt = tmp_path / "console.js"
        done = subprocess.run(
            [node, "build.mjs", str(rebuilt)], cwd=CONSOLE, capture_output=True, text=True, check=False
        )
    assert done.returncode == 0, done.stdout + done.stderr
    assert rebuilt.read_bytes() == BUNDLE.read_bytes()
