"""Replaying playthrough files against a service over REST and GraphQL, and reporting each difference
with its file, step and JSON path."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .graphql_documents import (
    GRAPHQL_PATH,
    Documents,
    root_field,
    served_schema,
    unaliased,
)
from .playthroughs import load, resolve
from .transport import Transport

SURFACES = ("rest", "graphql")
IGNORED = frozenset({"request_id"})
"""Members never compared: a request's id is the server's (or the client's) choice."""
PROBLEM_TEXT = frozenset({"title", "detail", "message"})
"""A problem's sentences for people, compared only with ``exact_text``: the contract pins a problem's
status, code, the paths in ``errors`` and the legal moves, not its wording."""


@dataclass(frozen=True)
class Difference:
    """One way an answer differs from the file."""

    file: str
    step: int
    op: str
    surface: str
    path: str
    expected: Any
    actual: Any

    def __str__(self) -> str:
        return (
            f"{self.file}: step {self.step} ({self.op}, {self.surface}): {self.path or '/'}: "
            f"expected {_short(self.expected)}, got {_short(self.actual)}"
        )


MISSING = "(absent)"


def _short(value: Any) -> str:
    text = value if value is MISSING else repr(value)
    return text if len(text) <= 120 else text[:117] + "..."


def differences(
    expected: Any,
    actual: Any,
    path: str = "",
    *,
    ignored: frozenset[str] = IGNORED,
    null_is_absent: bool = False,
) -> Iterator[tuple[str, Any, Any]]:
    """``(JSON pointer, expected, actual)`` for every place the two values differ."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        for key in sorted(set(expected) | set(actual)):
            if key in ignored:
                continue
            left, right = expected.get(key, MISSING), actual.get(key, MISSING)
            if null_is_absent and {left is None or left is MISSING, right is None or right is MISSING} == {
                True
            }:
                continue
            if left is MISSING or right is MISSING:
                yield f"{path}/{_escaped(key)}", left, right
            else:
                yield from differences(
                    left, right, f"{path}/{_escaped(key)}", ignored=ignored, null_is_absent=null_is_absent
                )
    elif isinstance(expected, list) and isinstance(actual, list):
        for index, (left, right) in enumerate(zip(expected, actual, strict=False)):
            yield from differences(
                left, right, f"{path}/{index}", ignored=ignored, null_is_absent=null_is_absent
            )
        if len(expected) != len(actual):
            yield f"{path}/length", len(expected), len(actual)
    elif type(expected) is not type(actual) or expected != actual:
        yield path, expected, actual


def _escaped(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1")


class Replayer:
    """Replays files against one service."""

    def __init__(self, transport: Transport, surfaces: Iterable[str] = SURFACES, exact_text: bool = False):
        self.transport = transport
        self.surfaces = tuple(surfaces)
        self.exact_text = exact_text
        self.documents = Documents(served_schema(transport)) if "graphql" in self.surfaces else None
        self.requests = 0

    def replay(self, path: Path, every: int = 1) -> list[Difference]:
        """Every difference between the service's answers and the file ``path`` (``every``: replay one
        step in that many, always including the first, the refusals and the last)."""
        contents = load(path)
        name = path.name.removesuffix(".json.xz")
        game = contents["game"]
        steps = contents["steps"]
        found: list[Difference] = []
        for index, step in enumerate(steps):
            if every > 1 and index % every and step["status"] == 200 and index != len(steps) - 1:
                continue
            request = resolve(step["request"], contents)
            for surface in self.surfaces:
                found += self._step(name, index, game, step, request, surface)
        return found

    def _step(
        self, name: str, index: int, game: str, step: dict[str, Any], request: dict[str, Any], surface: str
    ) -> list[Difference]:
        op = step["op"]
        expected = step["answer"]
        problem = step["status"] >= 400
        ignored = IGNORED if self.exact_text or not problem else IGNORED | PROBLEM_TEXT
        self.requests += 1
        if surface == "rest":
            status, actual = self.transport.post(f"/v1/games/{game}/{op}", request)
            found = []
            if status != step["status"]:
                found.append(Difference(name, index, op, surface, "(HTTP status)", step["status"], status))
            pairs = differences(expected, actual, ignored=ignored)
        else:
            assert self.documents is not None
            field = root_field(game, op)
            try:
                document, aliases = self.documents.document(field, tuple(request))
            except KeyError as error:
                return [Difference(name, index, op, surface, "(schema)", field, str(error))]
            status, answer = self.transport.post(GRAPHQL_PATH, {"query": document, "variables": request})
            data = answer.get("data") if isinstance(answer, dict) else None
            if not data or data.get(field) is None:
                return [Difference(name, index, op, surface, "(GraphQL answer)", expected, answer)]
            actual = unaliased(data[field], aliases)
            found = []
            # GraphQL writes null where REST leaves out an optional member that does not apply
            pairs = differences(expected, actual, ignored=ignored, null_is_absent=True)
        found += [Difference(name, index, op, surface, p, left, right) for p, left, right in pairs]
        return found
