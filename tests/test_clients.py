"""Third-party clients, built only from the committed contract, against a running service.

- ``openapi-python-client`` generates a Python client from ``openapi/openapi.json``; it plays one full match
  of every game (first legal move each time) and its typed models parse every answer.
- ``gql`` loads the committed SDL (``openapi/schema.graphql``), validates every document against it, and
  plays two games through GraphQL, sending each state back with one spread of the committed fragment
  (``openapi/fragments.graphql``).
- ``openapi-typescript`` turns the OpenAPI into types and ``tsc --strict`` compiles the README's examples
  against them (skipped, saying why, only where node is not installed).

Each tool runs once per test session; the service is a real uvicorn process on a free local port.
"""

from __future__ import annotations

import fcntl
import importlib
import json
import os
import re
import shutil
import socket
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

import httpx
import pytest
from gql import Client, GraphQLRequest
from gql.transport.httpx import HTTPXTransport
from graphql import GraphQLObjectType, build_schema, get_named_type, parse, print_ast
from graphql.language import FragmentDefinitionNode

from sevens_rules.engine.registry import GAMES
from sevens_rules.schema.operations import field_prefix, type_prefix
from tests.seeds import seed_hex, seeding

ROOT = Path(__file__).resolve().parent.parent
OPENAPI = ROOT / "openapi" / "openapi.json"
SDL = ROOT / "openapi" / "schema.graphql"
FRAGMENTS = ROOT / "openapi" / "fragments.graphql"
README = ROOT / "README.md"
TYPESCRIPT = Path(__file__).resolve().parent / "typescript"

SHORT_OPTIONS: dict[str, dict[str, Any]] = {
    "sevens": {"deals": 1},
    "sedmice": {"target_hits": 1},
    "my-ship-sails": {"max_exchanges": 3},
}
"""Options that keep a full match short (the games' own options; every other game uses its defaults)."""

MAX_MOVES = 20_000
"""More moves than any match takes with the first-legal-move policy: a bound, not an expectation."""


@contextmanager
def _locked(name: str) -> Iterator[None]:
    """Serialise a one-time setup step across pytest-xdist workers."""
    with open(Path(os.environ.get("TMPDIR", "/tmp")) / f"sevens-rules-{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@pytest.fixture(scope="module")
def service() -> Iterator[str]:
    """The base URL of the service, started as the console script would start it."""
    port = _free_port()
    env = {**os.environ, "HOST": "127.0.0.1", "PORT": str(port)}
    process = subprocess.Popen(
        [sys.executable, "-m", "sevens_rules"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        with httpx.Client(base_url=base) as probe:
            for _ in range(600):  # wait for startup: up to a minute on a loaded machine
                if process.poll() is not None:
                    raise RuntimeError(
                        f"the service exited: {process.stderr.read() if process.stderr else ''}"
                    )
                try:
                    if probe.get("/v1/games", timeout=1).status_code == 200:
                        break
                except httpx.TransportError:
                    pass
                with suppress(subprocess.TimeoutExpired):
                    process.wait(timeout=0.1)
            else:
                raise RuntimeError("the service did not start")
        yield base
    finally:
        process.terminate()
        process.wait(timeout=30)


def _snake(game_id: str) -> str:
    return game_id.replace("-", "_")


# ---- openapi-python-client ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def python_client(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """The Python client openapi-python-client generates from the committed OpenAPI, imported."""
    out = tmp_path_factory.mktemp("python-client")
    config = out / "config.yaml"
    config.write_text("post_hooks: []\n")  # no formatter run: the generated code is imported, not kept
    tool = Path(sys.executable).parent / "openapi-python-client"
    package = out / "generated_rules_client"
    done = subprocess.run(
        [
            str(tool),
            "generate",
            "--path",
            str(OPENAPI),
            "--meta",
            "none",
            *("--config", str(config)),
            "--output-path",
            str(package),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    # the generator reports every schema it could not turn into a model; a clean contract has none
    assert "Unable to process" not in done.stdout + done.stderr, done.stdout + done.stderr
    sys.path.insert(0, str(out))
    try:
        return importlib.import_module("generated_rules_client")
    finally:
        sys.path.remove(str(out))


def _call(client_package: Any, api_client: Any, game_id: str, operation: str, body: dict[str, Any]) -> Any:
    """One operation through the generated client: the body goes through its request model."""
    name = _snake(game_id)
    module = importlib.import_module(f"{client_package.__name__}.api.{name}.{name}_{operation}")
    models = importlib.import_module(f"{client_package.__name__}.models")
    request = getattr(models, f"{type_prefix(game_id)}{operation.capitalize()}Request").from_dict(body)
    answer = module.sync(client=api_client, body=request)
    expected = getattr(models, f"{type_prefix(game_id)}{operation.capitalize()}Response")
    assert isinstance(answer, expected), f"{game_id} {operation}: {answer!r}"
    return answer


def _engine_match(game_id: str, players: int, seed: int) -> list[dict[str, Any]]:
    """Every state of a match played in-process with the first legal move, the finished one last."""
    game = GAMES[game_id]
    state = game.new(
        players, game.models.options(**SHORT_OPTIONS.get(game_id, {})), seeding(seed), None, None
    )
    states = [state.model_dump(mode="json")]
    for _ in range(MAX_MOVES):
        listed = game.moves(state)[1]
        if not listed:
            return states
        state, _ = game.apply(state, listed[0])
        states.append(state.model_dump(mode="json"))
    raise AssertionError(f"{game_id}: no end after {MAX_MOVES} moves")


CLIENT_MOVES = 25
"""Moves the generated client plays at each end of a match. A Sjuan-family match to 100 penalty points
takes 900 to 4,000 moves with the first-legal-move policy; its middle is replayed in-process, so the test
stays fast while the client still starts every match, plays real deals and finishes every match."""


@pytest.mark.parametrize("game_id", list(GAMES))
def test_generated_python_client_plays_a_full_match(service: str, python_client: Any, game_id: str) -> None:
    game = GAMES[game_id]
    players = min(game.table_sizes())
    options = SHORT_OPTIONS.get(game_id, {})
    expected = _engine_match(game_id, players, 7)
    last = len(expected) - 1
    client_moves = sorted(set(range(CLIENT_MOVES)) | set(range(last - CLIENT_MOVES, last)))
    with python_client.Client(base_url=service, raise_on_unexpected_status=True) as api_client:

        def call(operation: str, body: dict[str, Any]) -> Any:
            return _call(python_client, api_client, game_id, operation, body)

        state = call("new", {"players": players, "seed": seed_hex(7), "options": options}).state.to_dict()
        for index in (i for i in client_moves if 0 <= i < last):
            if index == last - CLIENT_MOVES and index > CLIENT_MOVES:
                state = expected[index]  # skip the middle of a long match (replayed in-process)
            assert state == expected[index], f"{game_id}: the client's state differs after {index} moves"
            listed = call("moves", {"state": state})
            assert listed.to_act, f"{game_id}: over after {index} moves, the engine played {last}"
            state = call("apply", {"state": state, "move": listed.moves[0].to_dict()}).state.to_dict()
        assert state == expected[last]
        assert call("moves", {"state": state}).to_act == []
        score = call("score", {"state": state})
        assert score.outcome.over is True
        winners = score.outcome.winners
        assert winners and [seat.place for seat in score.outcome.seats if seat.seat in winners] == [1] * len(
            winners
        )
        view = call("view", {"state": state, "player": 0})
        assert view.seat == 0 and view.game == game_id


# ---- gql ------------------------------------------------------------------------------------------------

GQL_GAMES = ("sevens", "sedmice")


def _fragment(name: str) -> str:
    """One fragment of the committed fragments file (a document may not carry unused fragments)."""
    for definition in parse(FRAGMENTS.read_text()).definitions:
        if isinstance(definition, FragmentDefinitionNode) and definition.name.value == name:
            return print_ast(definition)
    raise AssertionError(f"{name} is not in {FRAGMENTS.name}")


def _all_fields(type_name: str) -> str:
    """A selection of every (scalar) field of a flat output type, read from the committed SDL."""
    object_type = build_schema(SDL.read_text()).get_type(type_name)
    assert isinstance(object_type, GraphQLObjectType)
    assert not any(isinstance(get_named_type(f.type), GraphQLObjectType) for f in object_type.fields.values())
    return " ".join(object_type.fields)


@pytest.mark.parametrize("game_id", GQL_GAMES)
def test_gql_with_the_committed_sdl_plays_a_full_match(service: str, game_id: str) -> None:
    field, prefix = field_prefix(game_id), type_prefix(game_id)
    fragment = _fragment(f"{prefix}StateFields")
    union = f"... on {prefix}Problem {{ code detail }}"
    new = f"""query New($players: Int!, $options: {prefix}OptionsInput) {{
      {field}New(players: $players, seed: "{seed_hex(11)}", options: $options) {{
        __typename ... on {prefix}NewResponse {{ state {{ ...{prefix}StateFields }} }} {union} }} }}"""
    move_fields = _all_fields(f"{prefix}Move")
    moves = f"""query Moves($state: {prefix}StateInput!) {{
      {field}Moves(state: $state) {{
        __typename ... on {prefix}MovesResponse {{ to_act moves {{ {move_fields} }} }} {union} }} }}"""
    apply = f"""query Apply($state: {prefix}StateInput!, $move: {prefix}MoveInput!) {{
      {field}Apply(state: $state, move: $move) {{
        __typename ... on {prefix}ApplyResponse {{ state {{ ...{prefix}StateFields }} }} {union} }} }}"""
    score = f"""query Score($state: {prefix}StateInput!) {{
      {field}Score(state: $state) {{
        __typename ... on {prefix}ScoreResponse {{ outcome {{ over winners seats {{ seat total place }} }} }}
        {union} }} }}"""
    game = GAMES[game_id]
    players = min(game.table_sizes())
    options = SHORT_OPTIONS.get(game_id, {})
    # with a schema, gql validates every document against the committed SDL before sending it
    client = Client(schema=SDL.read_text(), transport=HTTPXTransport(url=f"{service}/graphql"))
    with client as session:

        def run(document: str, operation: str, **variables: Any) -> dict[str, Any]:
            spread = f"...{prefix}StateFields" in document
            request = GraphQLRequest(
                document + ("\n" + fragment if spread else ""), variable_values=variables
            )
            result: dict[str, Any] = session.execute(request)[f"{field}{operation}"]
            assert result["__typename"] == f"{prefix}{operation}Response", result
            return result

        state = run(new, "New", players=players, options=options)["state"]
        expected = game.new(players, game.models.options(**options), seeding(11), None, None)
        for _ in range(MAX_MOVES):
            listed = run(moves, "Moves", state=state)
            if not listed["to_act"]:
                break
            state = run(apply, "Apply", state=state, move=listed["moves"][0])["state"]
            expected, _ = game.apply(expected, game.moves(expected)[1][0])
        else:
            raise AssertionError(f"{game_id}: no end after {MAX_MOVES} moves")
        # the fragment selected the whole state: it is the engine's state, field for field
        assert state == expected.model_dump(mode="json")
        outcome = run(score, "Score", state=state)["outcome"]
        assert outcome["over"] is True and outcome["winners"] == game.outcome(expected).winners != []


# ---- openapi-typescript and tsc --strict ----------------------------------------------------------------


def _readme_examples() -> list[tuple[str, str, str]]:
    """The README's complete JSON examples as ``(schema, json, where)``: request bodies and answers.

    A body sent to ``/v1/games/<game>/<operation>`` is that operation's request (its schema named as the
    committed OpenAPI names it); the ``json`` block after it is its response (skipped when abbreviated
    with ``…``); a problem block is the game's problem. ``STATE`` stands for a state the reader got before.
    """
    text = README.read_text()
    paths = json.loads(OPENAPI.read_text())["paths"]
    examples: list[tuple[str, str, str]] = []
    last: tuple[str, str] | None = None
    pattern = re.compile(r"```(sh|json)\n(.*?)```", re.S)
    for match in pattern.finditer(text):
        kind, block = match.groups()
        line = text.count("\n", 0, match.start()) + 1
        if kind == "sh":
            last = None
            call = re.search(r"/v1/games/([a-z-]+)/([a-z]+) .*?-d '(.*?)'", block, re.S)
            if call:
                game_id, operation, body = call.groups()
                post = paths[f"/v1/games/{game_id}/{operation}"]["post"]
                last = (type_prefix(game_id), _ref_name(post["responses"]["200"]))
                examples.append((_ref_name(post["requestBody"]), body, f"README.md:{line}"))
            continue
        if "…" in block:
            continue
        if '"urn:sevens-rules:problem:' in block and last:
            examples.append((f"{last[0]}Problem", block, f"README.md:{line}"))
        elif last:
            examples.append((last[1], block, f"README.md:{line}"))
    return examples


def _ref_name(body: dict[str, Any]) -> str:
    """The component name of a request body's or a response's JSON schema (the OpenAPI's own naming)."""
    ref: str = body["content"]["application/json"]["schema"]["$ref"]
    return ref.rsplit("/", 1)[1]


def _typescript_source(examples: list[tuple[str, str, str]]) -> str:
    lines = [
        'import type { components } from "./api";',
        "type Schemas = components['schemas'];",
        "declare const STATE: Schemas['SjuanStateInput'];",
    ]
    for index, (schema, body, where) in enumerate(examples):
        lines.append(f"// {where}")
        lines.append(f"export const example{index}: Schemas['{schema}'] = {body.strip()};")
    # the check can fail: a move without its seat must not compile
    lines.append("// @ts-expect-error a move names its player")
    lines.append("export const broken: Schemas['SjuanMoveInput'] = { type: 'play', card: '7H' };")
    return "\n".join(lines) + "\n"


TSC_OPTIONS = (
    "--strict",
    "--noEmit",
    "--target",
    "es2022",
    "--module",
    "es2022",
    "--moduleResolution",
    "bundler",
)


@pytest.fixture(scope="module")
def typescript_tools() -> Path:
    """``tests/typescript/node_modules/.bin`` after ``npm ci`` (run once, when the lock file changed)."""
    npm = shutil.which("npm")
    if npm is None or shutil.which("node") is None:
        pytest.skip(
            "node and npm are not installed: the TypeScript check needs them (apt-get install nodejs npm)"
        )
    bin_dir = TYPESCRIPT / "node_modules" / ".bin"
    installed = TYPESCRIPT / "node_modules" / ".package-lock.json"
    lock = TYPESCRIPT / "package-lock.json"
    with _locked("npm-ci"):
        if not installed.exists() or installed.stat().st_mtime < lock.stat().st_mtime:
            done = subprocess.run(
                [npm, "ci", "--no-audit", "--no-fund"],
                cwd=TYPESCRIPT,
                capture_output=True,
                text=True,
                check=False,
            )
            assert done.returncode == 0, done.stdout + done.stderr
    return bin_dir


def test_typescript_types_compile_the_readme_examples(typescript_tools: Path, tmp_path: Path) -> None:
    examples = _readme_examples()
    schemas = {schema for schema, _, _ in examples}
    # the README's move (no deck), its new request, its answers and its problem are all checked
    assert {"SjuanNewRequest", "SjuanApplyRequest", "SjuanMovesResponse", "SjuanProblem"} <= schemas, schemas
    generated = subprocess.run(
        [str(typescript_tools / "openapi-typescript"), str(OPENAPI), "--output", str(tmp_path / "api.d.ts")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert generated.returncode == 0, generated.stdout + generated.stderr
    source = tmp_path / "examples.ts"
    source.write_text(_typescript_source(examples))
    compiled = subprocess.run(
        [str(typescript_tools / "tsc"), *TSC_OPTIONS, str(source)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert compiled.returncode == 0, compiled.stdout + compiled.stderr + "\n" + source.read_text()


def test_readme_examples_are_found() -> None:
    # the extraction above must not silently find nothing: the README's first example is a new request
    schema, body, _ = _readme_examples()[0]
    assert schema == "SjuanNewRequest" and json.loads(body) == {"players": 3, "seed": bytes(range(32)).hex()}
