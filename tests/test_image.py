"""The image: the Dockerfile built with Debian's podman, started, and asked as a client and as its
``HEALTHCHECK`` would.

The base is the Dockerfile's own (``python:3.11-slim-trixie``) when it is present or can be pulled.
Where no registry can be reached, the test makes one: Debian bookworm (Python 3.11, the lock's) with
``debootstrap``, the machine's local certificate authorities added so pip trusts what the machine
trusts, imported as an image whose tag is a hash of those inputs, so later runs reuse it from podman's
store (outside the repository). The image is built in Docker format, the one that keeps ``HEALTHCHECK``.

Containers run with runc where it is installed (crun fails in some sandboxes) and with explicit open-file
and process limits (runc needs them where the sandbox's own are unlimited). The test skips, saying
why, only where no container engine can run; ``.ci/run`` installs podman, runc and debootstrap.
"""

from __future__ import annotations

import fcntl
import hashlib
import http.client
import json
import os
import resource
import shutil
import socket
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from sevens_rules import __version__
from tests.output_lines import OutputLines
from tests.test_layout import SERVED

ROOT = Path(__file__).resolve().parent.parent
REGISTRY_BASE = "docker.io/library/python:3.11-slim-trixie"
"""The Dockerfile's default ``PYTHON_IMAGE``, fully qualified."""
DEBIAN_SUITE = "bookworm"  # its python3 is 3.11, the Python the lock is resolved for
DEBIAN_MIRROR = "http://deb.debian.org/debian"
DEBIAN_PACKAGES = ("python3", "python3-venv", "ca-certificates")
LOCAL_AUTHORITIES = Path("/usr/local/share/ca-certificates")
BASE_RECIPE = 1
"""Bumped whenever the way the base is made changes, so a cached base made the old way is not reused."""
BASE_REPOSITORY = "localhost/sevens-rules-test-base"
BASE_LOCK = Path(tempfile.gettempdir()) / "sevens-rules-test-base.lock"
"""Held while the base is looked for or made, so parallel runs make it once."""
SEARCH_PATH = os.pathsep.join([os.environ.get("PATH", os.defpath), "/usr/local/sbin", "/usr/sbin", "/sbin"])
"""Where the tools are looked for: runc, debootstrap and chroot live in sbin, which a CI's PATH may lack."""
OPEN_FILES = min(16384, resource.getrlimit(resource.RLIMIT_NOFILE)[1])
"""README's open-file limit for the container, or this process's own hard limit when lower: a container
gets no more than the engine that starts it (runc refuses the container otherwise)."""
LIMITS = ["--ulimit", f"nofile={OPEN_FILES}:{OPEN_FILES}", "--ulimit", "nproc=4096:4096"]
SEED = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"

# Bounds for a busy two-core machine, not speed requirements.
PULL_TIMEOUT_SECONDS = 60
DEBOOTSTRAP_TIMEOUT_SECONDS = 900
BUILD_TIMEOUT_SECONDS = 900
START_TIMEOUT_SECONDS = 180
COMMAND_TIMEOUT_SECONDS = 120


def podman_command() -> list[str]:
    """podman, with runc as its runtime when runc is installed; skips when no engine can run."""
    podman = shutil.which("podman")
    if podman is None:
        pytest.skip("no container engine: podman is not installed (.ci/run installs Debian's podman)")
    command = [podman]
    runc = shutil.which("runc", path=SEARCH_PATH)
    if runc is not None:
        command += ["--runtime", runc]
    info = subprocess.run([*command, "info"], capture_output=True, text=True, timeout=COMMAND_TIMEOUT_SECONDS)
    if info.returncode != 0:
        pytest.skip(f"podman is installed but cannot run here: {info.stderr.strip()[-500:]}")
    return command


def run(command: list[str], timeout: float = COMMAND_TIMEOUT_SECONDS, **kwargs: Any) -> str:
    """Run a command, failing the test with its output when it fails; its stdout."""
    result = subprocess.run(command, capture_output=True, text=True, timeout=timeout, **kwargs)
    assert result.returncode == 0, f"{' '.join(command)} exited {result.returncode}:\n{result.stderr[-4000:]}"
    return str(result.stdout)


def image_exists(podman: list[str], name: str) -> bool:
    """Whether podman's store holds ``name``."""
    return subprocess.run([*podman, "image", "exists", name], timeout=COMMAND_TIMEOUT_SECONDS).returncode == 0


def base_key() -> str:
    """A hash of everything the made base depends on."""
    digest = hashlib.sha256(
        f"{BASE_RECIPE}|{DEBIAN_SUITE}|{DEBIAN_MIRROR}|{','.join(DEBIAN_PACKAGES)}".encode()
    )
    for authority in sorted(LOCAL_AUTHORITIES.glob("*.crt")):
        digest.update(authority.name.encode() + b"\0" + authority.read_bytes())
    return digest.hexdigest()[:16]


def make_base(podman: list[str], name: str) -> None:
    """Debootstrap Debian with Python 3.11 and import it as ``name``."""
    if os.geteuid() != 0:
        pytest.skip("the registry base cannot be pulled and making one with debootstrap needs root")
    debootstrap = shutil.which("debootstrap", path=SEARCH_PATH)
    if debootstrap is None:
        pytest.skip(
            "the registry base cannot be pulled and debootstrap is not installed (.ci/run installs it)"
        )
    with tempfile.TemporaryDirectory(prefix="sevens-rules-base-") as scratch:
        rootfs = Path(scratch) / "rootfs"
        packages = ",".join(DEBIAN_PACKAGES)
        run(
            [
                debootstrap,
                "--variant=minbase",
                f"--include={packages}",
                DEBIAN_SUITE,
                str(rootfs),
                DEBIAN_MIRROR,
            ],
            timeout=DEBOOTSTRAP_TIMEOUT_SECONDS,
            env={**os.environ, "PATH": SEARCH_PATH},  # debootstrap runs chroot and other sbin tools
        )
        # the machine's own authorities (a TLS-inspecting proxy's, say), so pip in the build trusts them
        for authority in LOCAL_AUTHORITIES.glob("*.crt"):
            shutil.copy(authority, rootfs / "usr/local/share/ca-certificates" / authority.name)
        run(["chroot", str(rootfs), "update-ca-certificates"], env={**os.environ, "PATH": SEARCH_PATH})
        for cache in ("var/cache/apt/archives", "var/lib/apt/lists"):
            for leftover in (rootfs / cache).glob("*"):
                if leftover.is_file():
                    leftover.unlink()
        tarball = Path(scratch) / "rootfs.tar"
        run(["tar", "-C", str(rootfs), "-cf", str(tarball), "."])
        run([*podman, "import", "--change", 'CMD ["python3"]', str(tarball), name])


def base_image(podman: list[str]) -> str:
    """The image to build on: the Dockerfile's default when podman has or can pull it, else a made one."""
    if image_exists(podman, REGISTRY_BASE):
        return REGISTRY_BASE
    with BASE_LOCK.open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        made = f"{BASE_REPOSITORY}:{base_key()}"
        if image_exists(podman, made):
            return made
        try:
            pulled = subprocess.run(
                [*podman, "pull", "--quiet", REGISTRY_BASE],
                capture_output=True,
                timeout=PULL_TIMEOUT_SECONDS,
            )
            if pulled.returncode == 0:
                return REGISTRY_BASE
        except subprocess.TimeoutExpired:
            pass  # a registry that does not answer is one that cannot be reached
        make_base(podman, made)
        return made


def free_port() -> int:
    """A TCP port free on the loopback interface now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class Container(OutputLines):
    """A started container of the image, with its log read line by line."""

    def __init__(self, podman: list[str], image: str) -> None:
        self.podman = podman
        self.name = f"sevens-rules-test-{uuid.uuid4().hex[:12]}"
        self.port = free_port()
        published = f"127.0.0.1:{self.port}:8000"
        run([*podman, "run", "--detach", "--name", self.name, *LIMITS, "--publish", published, image])
        self.logs = subprocess.Popen(
            [*podman, "logs", "--follow", self.name],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        super().__init__(self.logs.stdout, START_TIMEOUT_SECONDS)

    def fetch(self, method: str, path: str, body: dict[str, Any] | None = None) -> tuple[int, bytes]:
        """One request to the published port: the status and the answer's body."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=COMMAND_TIMEOUT_SECONDS)
        try:
            payload = json.dumps(body) if body is not None else None
            connection.request(method, path, payload, {"content-type": "application/json"} if payload else {})
            response = connection.getresponse()
            return response.status, response.read()
        finally:
            connection.close()

    def request(self, method: str, path: str, body: dict[str, Any] | None = None) -> tuple[int, Any]:
        """One request to the published port: the status and the JSON answer."""
        status, content = self.fetch(method, path, body)
        return status, json.loads(content)

    def exec(self, *command: str) -> subprocess.CompletedProcess[str]:
        """Run a command in the container."""
        return subprocess.run(
            [*self.podman, "exec", self.name, *command],
            capture_output=True,
            text=True,
            timeout=COMMAND_TIMEOUT_SECONDS,
        )

    def remove(self) -> None:
        """Stop and remove the container."""
        subprocess.run(
            [*self.podman, "rm", "--force", self.name], capture_output=True, timeout=COMMAND_TIMEOUT_SECONDS
        )
        self.logs.kill()
        self.logs.wait()


@pytest.fixture
def image() -> Iterator[tuple[list[str], str]]:
    """podman and the image, built from the repository in Docker format; untagged afterwards (its layers
    stay in podman's cache, so the next build reuses every unchanged stage)."""
    podman = podman_command()
    base = base_image(podman)
    tag = f"localhost/sevens-rules-test:{uuid.uuid4().hex[:12]}"
    build = [*podman, "build", "--format", "docker", "--build-arg", f"PYTHON_IMAGE={base}"]
    build += ["--build-arg", f"VERSION={__version__}", "--build-arg", "REVISION=test-revision"]
    run([*build, "--tag", tag, str(ROOT)], timeout=BUILD_TIMEOUT_SECONDS)
    try:
        yield podman, tag
    finally:
        subprocess.run([*podman, "rmi", tag], capture_output=True, timeout=COMMAND_TIMEOUT_SECONDS)


def test_the_image_builds_starts_answers_and_passes_its_healthcheck(
    image: tuple[list[str], str], client: TestClient
) -> None:
    # one test, so a parallel run builds the image once
    podman, tag = image
    (inspected,) = json.loads(run([*podman, "image", "inspect", tag]))
    config = inspected["Config"]
    assert inspected["Healthcheck"]["Test"] == ["CMD", "sevens-rules", "healthcheck"]  # kept: Docker format
    assert config["User"] == "10001:10001"
    assert config["Labels"]["org.opencontainers.image.version"] == __version__
    assert config["Labels"]["org.opencontainers.image.revision"] == "test-revision"

    container = Container(podman, tag)
    try:
        # the start-up line tells it is serving
        (line,) = container.wait_for('"logger":"sevens_rules.startup"')
        entry = json.loads(line.string)
        assert (entry["address"], entry["workers"], entry["version"]) == (
            "http://0.0.0.0:8000",
            1,
            __version__,
        )
        assert entry["commit"] == "test-revision"
        assert container.request("GET", "/healthz") == (200, {"status": "ok"})
        assert container.request("GET", "/readyz") == (200, {"status": "ready"})
        status, version = container.request("GET", "/version")
        assert status == 200 and (version["version"], version["commit"]) == (__version__, "test-revision")

        request = {"players": 3, "seed": SEED}
        status, answer = container.request("POST", "/v1/games/sjuan/new", request)
        assert status == 200
        state = answer["state"]
        assert state["game"] == "sjuan" and len(state["hands"]) == 3
        assert sorted(len(hand) for hand in state["hands"]) == [17, 17, 18]  # 52 cards dealt round the table
        assert len({card for hand in state["hands"] for card in hand}) == 52
        assert answer == client.post("/v1/games/sjuan/new", json=request).json()  # the source's deal
        # the pages the installed package serves from its data files: the same as from the source
        for path in SERVED:
            assert container.fetch("GET", path) == (200, client.get(path).content), path

        health = subprocess.run(
            [*podman, "healthcheck", "run", container.name],
            capture_output=True,
            text=True,
            timeout=COMMAND_TIMEOUT_SECONDS,
        )
        assert health.returncode == 0, health.stdout + health.stderr
        # the check's command fails against a port nothing listens on: it does probe the server
        assert container.exec("env", "PORT=1", "sevens-rules", "healthcheck").returncode == 1
        assert container.exec("id", "-u").stdout.strip() == "10001"
    finally:
        container.remove()
