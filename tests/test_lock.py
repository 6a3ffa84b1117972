"""The lock files and the Dockerfile agree on how every package installs.

The image installs ``requirements.lock`` with ``--only-binary=:all:`` except the packages its
``--no-binary=`` names, which it builds from their hashed source with the locked build tools; it
installs ``requirements-build.lock`` wheels only. A lock that pins only an sdist of any other package
stops the build at "No matching distribution". These tests look every pinned hash up in PyPI's simple
index (PEP 691 JSON, the API pip itself reads) to learn which file it is.
"""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from pathlib import Path

import pytest
from packaging.tags import Tag, compatible_tags, cpython_tags
from packaging.utils import canonicalize_name, parse_sdist_filename, parse_wheel_filename
from packaging.version import Version

ROOT = Path(__file__).resolve().parent.parent
DOCKERFILE = ROOT / "Dockerfile"
INDEX = "https://pypi.org/simple"
INDEX_TIMEOUT_SECONDS = 60  # a bound for a slow network, not a speed requirement

IMAGE_PYTHON = (3, 11)
"""The image base's Python: ``python:3.11-slim-…``, or Debian bookworm's python3 in tests/test_image.py."""
IMAGE_GLIBC_MINOR = 36
"""The oldest glibc of the image's bases: Debian bookworm's 2.36 (trixie has 2.41)."""


def image_tags() -> frozenset[Tag]:
    """The wheel tags pip accepts in the image: CPython 3.11 on glibc Linux, x86-64."""
    platforms = [f"manylinux_2_{minor}_x86_64" for minor in range(IMAGE_GLIBC_MINOR, 4, -1)]
    platforms += ["manylinux2014_x86_64", "manylinux2010_x86_64", "manylinux1_x86_64", "linux_x86_64"]
    tags = [*cpython_tags(IMAGE_PYTHON, platforms=platforms)]
    tags += compatible_tags(IMAGE_PYTHON, "cp311", platforms=platforms)
    return frozenset(tags)


def locked(lock: Path) -> dict[str, tuple[str, frozenset[str]]]:
    """Every package of a lock file: its canonical name, pinned version and pinned sha256 hashes."""
    pins: dict[str, tuple[str, frozenset[str]]] = {}
    for block in re.split(r"\n(?=[A-Za-z])", lock.read_text().strip()):
        match = re.match(r"([A-Za-z0-9_.-]+)(?:\[[^\]]*\])?==(\S+)", block)
        if match:
            hashes = frozenset(re.findall(r"--hash=sha256:([0-9a-f]{64})", block))
            pins[canonicalize_name(match.group(1))] = (match.group(2), hashes)
    return pins


def dockerfile_pip_runs() -> list[str]:
    """The Dockerfile's commands that run pip on a lock file, continuation lines joined."""
    text = re.sub(r"\\\n", " ", DOCKERFILE.read_text())
    return [
        line for line in text.splitlines() if re.search(r"pip (install|wheel) .*-r /tmp/requirements", line)
    ]


def install_command(lock: str) -> str:
    """The one Dockerfile pip command that reads ``lock``."""
    (command,) = [line for line in dockerfile_pip_runs() if f"-r /tmp/{lock}" in line]
    return command


def from_source(command: str) -> frozenset[str]:
    """The packages a pip command allows from source: what its ``--no-binary=`` names."""
    assert "--only-binary=:all:" in command and "--require-hashes" in command, command
    named = re.findall(r"--no-binary[= ](\S+)", command)
    return frozenset(canonicalize_name(name) for value in named for name in value.split(","))


@cache
def index_files(name: str) -> dict[str, str]:
    """Every file PyPI holds for a project, filename by sha256."""
    request = urllib.request.Request(
        f"{INDEX}/{name}/", headers={"Accept": "application/vnd.pypi.simple.v1+json"}
    )
    with urllib.request.urlopen(request, timeout=INDEX_TIMEOUT_SECONDS) as response:
        page = json.load(response)
    return {
        entry["hashes"]["sha256"]: entry["filename"] for entry in page["files"] if "sha256" in entry["hashes"]
    }


def pinned_files(lock: Path) -> dict[str, list[str]]:
    """The files each locked package pins, by filename, each checked to be of the pinned version."""
    pins = locked(lock)
    try:
        with ThreadPoolExecutor(max_workers=8) as pool:
            pages = dict(zip(pins, pool.map(index_files, pins), strict=True))
    except urllib.error.URLError as error:
        pytest.skip(f"PyPI's index cannot be reached to look the pinned hashes up: {error}")
    files: dict[str, list[str]] = {}
    for name, (version, hashes) in pins.items():
        unknown = sorted(h for h in hashes if h not in pages[name])
        assert not unknown, f"{name}=={version} pins hashes PyPI does not have: {unknown}"
        files[name] = sorted(pages[name][h] for h in hashes)
        for filename in files[name]:
            assert file_version(filename) == Version(version), (name, version, filename)
    return files


def file_version(filename: str) -> Version:
    """The version a wheel or sdist filename carries."""
    if filename.endswith(".whl"):
        return parse_wheel_filename(filename)[1]
    return parse_sdist_filename(filename)[1]


def installable_in_image(filenames: list[str]) -> list[str]:
    """The wheels among ``filenames`` that pip would install in the image."""
    tags = image_tags()
    return [f for f in filenames if f.endswith(".whl") and parse_wheel_filename(f)[3] & tags]


def assert_installs_as_the_dockerfile_says(lock: Path, allowed_from_source: frozenset[str]) -> None:
    """Each package not allowed from source pins a wheel that pip takes in the image (uv also pins the
    version's sdist, which ``--only-binary=:all:`` never takes); each allowed one pins its sdist and has
    no such wheel, so the exception is needed."""
    files = pinned_files(lock)
    assert allowed_from_source <= set(files), "--no-binary names a package the lock does not pin"
    for name, filenames in files.items():
        wheels = installable_in_image(filenames)
        if name in allowed_from_source:
            assert not wheels, f"{name} has a wheel for the image now: drop it from --no-binary"
            assert any(not f.endswith(".whl") for f in filenames), (
                f"{name} is allowed from source but pins no sdist"
            )
        else:
            assert wheels, f"{name} pins no wheel for CPython 3.11 on x86-64 Linux: {filenames}"


def test_the_image_installs_the_runtime_lock_wheels_only_but_what_it_builds_from_source() -> None:
    allowed = from_source(install_command("requirements.lock"))
    assert allowed == {"openapi-ui-bundles"}  # PyPI has 0.3.0 only as an sdist
    assert_installs_as_the_dockerfile_says(ROOT / "requirements.lock", allowed)


def test_the_build_tools_install_as_wheels_only() -> None:
    command = install_command("requirements-build.lock")
    assert from_source(command) == frozenset()
    assert_installs_as_the_dockerfile_says(ROOT / "requirements-build.lock", frozenset())


def test_what_is_built_from_source_is_built_with_the_locked_build_tools_only() -> None:
    command = install_command("requirements.lock")
    # no build isolation: pip would otherwise fetch the sdist's build backend unpinned and unhashed
    assert command.startswith("RUN /opt/build/bin/pip wheel ") and "--no-build-isolation" in command


def test_the_check_tells_a_source_only_pin_from_a_wheel(tmp_path: Path) -> None:
    # the check above can fail: the lock's own sdist pin, with nothing allowed from source, is refused
    lock = tmp_path / "requirements.lock"
    (sdist_hash,) = locked(ROOT / "requirements.lock")["openapi-ui-bundles"][1]
    lock.write_text(f"openapi-ui-bundles==0.3.0 \\\n    --hash=sha256:{sdist_hash}\n")
    with pytest.raises(AssertionError, match="pins no wheel"):
        assert_installs_as_the_dockerfile_says(lock, frozenset())
