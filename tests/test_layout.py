"""The package layout: no symbolic links in the repository, and one installed namespace.

The repository's top folder is the package ``sevens_rules`` and its layers stay at the top (``api/``,
``conformance/``, ``engine/``, ``schema/``, the rules reference in ``docs/rules/``); pyproject.toml's
``[tool.setuptools.package-dir]`` maps them. These tests check the mapping from both ends: the tests'
own (editable) install imports every module of the tree under its ``sevens_rules`` name from the tree's
own file, and a wheel built from the repository holds every module and every file the service reads, and
serves what the tree serves.
"""

from __future__ import annotations

import ast
import hashlib
import json
import shutil
import subprocess
import sys
import sysconfig
import tomllib
import zipfile
from importlib import import_module
from importlib.resources import files
from importlib.util import find_spec
from pathlib import Path

import pytest
from starlette.testclient import TestClient

ROOT = Path(__file__).resolve().parent.parent
SETUPTOOLS = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
LAYERS = {"api": "api", "conformance": "conformance", "engine": "engine", "schema": "schema"}
"""The layers' packages under ``sevens_rules`` and their folders in the repository."""
SERVED = (
    "/rules",
    "/rules/sjuan",
    "/rules/seven-up.md",
    "/play",
    "/play/play.js",
    "/graphql",
    "/graphql/console.js",
    "/docs",
    "/redoc",
    "/openapi.json",
)
"""Pages whose answers come from the package's data files (or, for ``/openapi.json``, from every model)."""
PIP = [sys.executable, "-m", "pip", "--quiet", "--disable-pip-version-check"]
LINK_MODE = "120000"
"""The mode git records for a symbolic link."""
BUILD_TIMEOUT_SECONDS = 600  # bounds for a busy two-core machine, not speed requirements
RUN_TIMEOUT_SECONDS = 300
REINSTALL = (
    "the editable install links the files that existed when it was made: run `.venv/bin/pip install -e "
    '".[test]"` again after adding, moving or removing a module'
)


def package_folders() -> dict[str, Path]:
    """Every package pyproject.toml lists and the folder it is built from: its own entry in package-dir,
    or (setuptools' rule) its parent's folder and its own name."""
    mapped = SETUPTOOLS["package-dir"]

    def folder(package: str) -> Path:
        parent, _, name = package.rpartition(".")
        return ROOT / mapped[package] if package in mapped else folder(parent) / name

    return {package: folder(package) for package in SETUPTOOLS["packages"]}


def tree_modules() -> dict[str, Path]:
    """Every module of the repository's packages, by its installed name, and its file."""
    modules = {}
    for package, folder in package_folders().items():
        for path in sorted(folder.glob("*.py")):
            modules[package if path.stem == "__init__" else f"{package}.{path.stem}"] = path
    return modules


def wheel_sources() -> set[str]:
    """What the wheel is built from besides pyproject.toml and README.md, as paths from the repository's
    top: the top-level folders that package-dir maps packages to (``sevens_rules.engine`` is ``engine/``,
    ``sevens_rules.rules`` is ``docs/rules/``), package data included, and the files of the package that
    is the top folder itself (``sevens_rules``: its modules and ``py.typed``)."""
    paths = [*tree_modules().values(), *data_files().values()]
    return {path.name if path.parent == ROOT else path.relative_to(ROOT).parts[0] for path in paths}


def data_files() -> dict[str, Path]:
    """Every package data file pyproject.toml ships, by its path inside the installed package tree."""
    folders = package_folders()
    found = {}
    for package, patterns in SETUPTOOLS["package-data"].items():
        for pattern in patterns:
            for path in sorted(folders[package].glob(pattern)):
                inside = path.relative_to(folders[package]).as_posix()
                found[f"{package.replace('.', '/')}/{inside}"] = path
    return found


def symbolic_links(checkout: Path) -> list[str]:
    """The files git tracks in ``checkout`` as symbolic links."""
    listing = subprocess.run(
        ["git", "ls-files", "--stage", "-z"], cwd=checkout, capture_output=True, check=True
    ).stdout
    entries = [entry.decode() for entry in listing.split(b"\0") if entry]
    return [entry.split("\t", 1)[1] for entry in entries if entry.split(" ", 1)[0] == LINK_MODE]


def require_git() -> None:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout, or git is not installed")


def test_the_repository_tracks_no_symbolic_link() -> None:
    # a link breaks checkouts on systems without them and hides its target from tools that read the tree
    require_git()
    assert symbolic_links(ROOT) == []


def test_a_tracked_symbolic_link_is_found(tmp_path: Path) -> None:
    # the check above can fail: a repository tracking a link to a folder, beside a file, lists the link only
    require_git()
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    (tmp_path / "engine").mkdir()
    (tmp_path / "engine" / "cards.py").write_text("")
    (tmp_path / "package").mkdir()
    (tmp_path / "package" / "engine").symlink_to("../engine")
    subprocess.run(["git", "add", "."], cwd=tmp_path, check=True)
    assert symbolic_links(tmp_path) == ["package/engine"]


def test_every_package_folder_is_listed() -> None:
    # a folder with an __init__.py that pyproject.toml does not list would be left out of the wheel
    folders = package_folders()
    listed = set(folders.values())
    for layer in LAYERS.values():
        for init in (ROOT / layer).rglob("__init__.py"):
            assert init.parent in listed, f"{init.parent.relative_to(ROOT)} is not in pyproject's packages"
    assert folders["sevens_rules"] == ROOT  # the repository's top folder is the package
    assert folders["sevens_rules.rules"] == ROOT / "docs" / "rules"
    for name, folder in LAYERS.items():
        assert folders[f"sevens_rules.{name}"] == ROOT / folder


def test_the_installed_namespace_is_the_trees_layers() -> None:
    for name, folder in LAYERS.items():
        module = import_module(f"sevens_rules.{name}")
        assert module.__file__ is not None
        assert Path(module.__file__).resolve() == ROOT / folder / "__init__.py", (
            "the tests run on an editable install of this checkout (.venv/bin/pip install -e .)"
        )


def test_every_module_of_the_tree_imports_under_its_installed_name() -> None:
    modules = tree_modules()
    assert {
        "sevens_rules.__main__",
        "sevens_rules.engine.bots.search",
        "sevens_rules.api.app",
    } <= modules.keys()
    for name, path in modules.items():
        spec = find_spec(name)
        assert spec is not None and spec.origin is not None, f"{name} does not import: {REINSTALL}"
        assert Path(spec.origin).resolve() == path, f"{name} imports from {spec.origin}: {REINSTALL}"


def layer_imports(path: Path) -> list[str]:
    """The lines of ``path`` that import a module of a layer (``sevens_rules.api``, ``.engine``, ...) by
    its absolute name."""
    layers = tuple(f"sevens_rules.{layer}." for layer in LAYERS)
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom) and not node.level:
            names = [node.module or ""]
        elif isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        else:
            continue
        found += [f"{node.lineno}: {name}" for name in names if (name + ".").startswith(layers)]
    return found


def test_the_layers_import_each_other_relatively() -> None:
    # an absolute name (sevens_rules.schema.common) names a folder the tree does not have
    # (sevens_rules/schema/): tools that draw the structure from the imports lose the arrow, within a layer
    # and between layers; a relative one (..schema.common) is the file's own path (README, the layout)
    for path in tree_modules().values():  # every module of the package, its own __main__.py included
        assert not layer_imports(path), f"{path.relative_to(ROOT)}: import these relatively"


def test_an_absolute_import_of_a_layer_is_found(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text(
        "from sevens_rules.engine.game import Game\nimport sevens_rules.engine\nfrom .game import Game\n"
        "from sevens_rules.schema.common import Phase\nfrom ..match import DEAL_OVER\n"
        "from sevens_rules import __version__\nfrom ..schema.common import Phase\n"
    )
    assert layer_imports(module) == [
        "1: sevens_rules.engine.game",
        "2: sevens_rules.engine",
        "4: sevens_rules.schema.common",
    ]


def test_the_installed_package_holds_its_data_files() -> None:
    shipped = data_files()
    rules_pages = sorted((ROOT / "docs" / "rules").glob("*.md"))
    assert len(rules_pages) == 11  # the index and one page per game
    for page in rules_pages:
        assert (files("sevens_rules.rules") / page.name).read_bytes() == page.read_bytes()
        assert shipped[f"sevens_rules/rules/{page.name}"] == page
    for page in sorted((ROOT / "api" / "static").iterdir()):
        assert (files("sevens_rules.api") / "static" / page.name).read_bytes() == page.read_bytes()
        assert shipped[f"sevens_rules/api/static/{page.name}"] == page
    playthroughs = sorted((ROOT / "conformance" / "playthroughs").glob("*.json.xz"))
    assert playthroughs
    for playthrough in playthroughs:
        assert shipped[f"sevens_rules/conformance/playthroughs/{playthrough.name}"] == playthrough
    assert shipped["sevens_rules/py.typed"] == ROOT / "py.typed"


WHEEL_CHECK = """
import hashlib, importlib, json, sys
from starlette.testclient import TestClient
from sevens_rules.api.app import create_app
from sevens_rules.api.limits import Settings
modules, paths = json.loads(sys.argv[1]), json.loads(sys.argv[2])
files = {name: importlib.import_module(name).__file__ for name in modules}
with TestClient(create_app(Settings()), raise_server_exceptions=False) as client:
    answers = {}
    for path in paths:
        answer = client.get(path)
        answers[path] = [answer.status_code, hashlib.sha256(answer.content).hexdigest()]
print(json.dumps({"files": files, "answers": answers}))
"""
"""Run by the wheel's install, with only it and the dependencies on the path: each module's file and
each page's status and the hash of its body."""


def test_a_wheel_built_from_the_repository_holds_and_serves_the_tree(
    tmp_path: Path, client: TestClient
) -> None:
    # the wheel is built from a copy of what the Dockerfile's wheel stage copies: pyproject.toml, README.md
    # and the folders the packages are mapped from (tests/test_deploy.py checks the stage copies them all)
    source = tmp_path / "source"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    for top in sorted(wheel_sources()):
        if (ROOT / top).is_dir():
            shutil.copytree(ROOT / top, source / top, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy(ROOT / top, source / top)
    wheels = tmp_path / "wheels"
    build = [*PIP, "wheel", "--no-deps", "--wheel-dir", str(wheels), str(source)]
    built = subprocess.run(build, capture_output=True, text=True, timeout=BUILD_TIMEOUT_SECONDS)
    assert built.returncode == 0, built.stderr[-4000:]
    (wheel,) = wheels.glob("sevens_rules-*.whl")

    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
    modules = tree_modules()
    for name, path in modules.items():
        inside = name.replace(".", "/") + ("/__init__.py" if path.name == "__init__.py" else ".py")
        assert inside in names, f"the wheel lacks {name} ({path.relative_to(ROOT)})"
    assert set(data_files()) <= names
    assert not any(name.startswith(("api/", "engine/", "schema/", "conformance/", "docs/")) for name in names)

    installed = tmp_path / "installed"
    install = [*PIP, "install", "--no-deps", "--no-index", "--target", str(installed), str(wheel)]
    done = subprocess.run(install, capture_output=True, text=True, timeout=BUILD_TIMEOUT_SECONDS)
    assert done.returncode == 0, done.stderr[-4000:]
    assert "sevens_rules.__main__" in (installed / "bin" / "sevens-rules").read_text()  # the console script
    # Python without site (no editable install's .pth) sees the wheel's install first and this environment's
    # dependencies after it, and runs from a folder holding no sevens_rules/
    search = [str(installed), sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]]
    check = [sys.executable, "-S", "-c", WHEEL_CHECK, json.dumps(sorted(modules)), json.dumps(SERVED)]
    ran = subprocess.run(
        check,
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={"PYTHONPATH": ":".join(search), "PATH": "/usr/bin:/bin"},
        timeout=RUN_TIMEOUT_SECONDS,
    )
    assert ran.returncode == 0, ran.stderr[-4000:]
    report = json.loads(ran.stdout)
    for name, origin in report["files"].items():
        assert Path(origin).is_relative_to(installed), f"{name} came from {origin}, not the wheel"
    for page in SERVED:
        answer = client.get(page)
        assert report["answers"][page] == [200, hashlib.sha256(answer.content).hexdigest()], page
        assert answer.status_code == 200
