"""Turning every kind of failure into an RFC 9457 problem details body with a stable ``code``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel, ValidationError

from sevens_rules.api.context import current_request
from sevens_rules.engine.errors import (
    IllegalMoveError,
    InconsistentStateError,
    InvalidRequestError,
    MatchOverError,
    MoveError,
    NotYourTurnError,
    RulesError,
)
from sevens_rules.schema.common import Issue, Problem, WireModel

PROBLEM_MEDIA_TYPE = "application/problem+json"

STATUS_BY_ERROR: dict[type[RulesError], int] = {
    InvalidRequestError: 422,
    InconsistentStateError: 422,
    IllegalMoveError: 409,
    NotYourTurnError: 409,
    MatchOverError: 409,
}
"""The HTTP status of each engine error (GraphQL returns the same problem as data)."""

TITLES = {
    400: "Bad request",
    404: "Not found",
    405: "Method not allowed",
    413: "Content too large",
    415: "Unsupported media type",
    422: "Unprocessable content",
    500: "Internal error",
    503: "Service unavailable",
}


def problem(
    status: int,
    code: str,
    detail: str,
    errors: Sequence[Issue] = (),
    title: str | None = None,
    model: type[Problem] = Problem,
    **extra: Any,
) -> Problem:
    """Build a problem of ``model`` (a game's problem model adds ``legal_moves``), carrying the id of the
    request being answered and recording its code for the access log and metrics."""
    request = current_request.get()
    if request is not None:
        request.problem_built(code)
    return model(
        type=f"urn:sevens-rules:problem:{code}",
        title=title or TITLES.get(status, "Error"),
        status=status,
        code=code,
        detail=detail,
        errors=list(errors),
        request_id=request.request_id if request is not None else None,
        **extra,
    )


def from_validation_error(error: ValidationError, prefix: Sequence[str | int] = ()) -> Problem:
    """A 400 for unparseable JSON, otherwise a 422 naming every offending field."""
    details = error.errors(include_url=False, include_input=False, include_context=False)
    if any(d["type"] == "json_invalid" for d in details):
        return problem(
            400, "request/malformed-json", "The body is not valid JSON.", [Issue.at([], details[0]["msg"])]
        )
    locations = [[*prefix, *_clean_loc(d["loc"])] for d in details]
    issues = [Issue.at(loc, d["msg"]) for loc, d in zip(locations, details, strict=True)]
    first = locations[0][0] if locations and locations[0] else ""
    code = {"state": "state/invalid", "move": "move/invalid"}.get(str(first), "request/invalid")
    return problem(422, code, f"The request does not match the schema: {_summary(issues)}", issues)


def from_rules_error(error: RulesError, problem_model: type[Problem] = Problem) -> Problem:
    """The problem for an error the engine raised on purpose."""
    status: int = STATUS_BY_ERROR.get(type(error), getattr(error, "status", 422))
    prefix = [error.argument] if error.argument else []
    issues = [Issue.at([*prefix, *i.path], i.message) for i in error.issues]
    extra: dict[str, Any] = {}
    if isinstance(error, MoveError) and "legal_moves" in problem_model.model_fields:
        extra["legal_moves"] = error.legal_moves
    return problem(status, error.code, error.detail, issues, title=error.title, model=problem_model, **extra)


def as_game_problem(base: Problem, problem_model: type[Problem]) -> Problem:
    """The same problem as an instance of a game's problem model (which adds ``legal_moves``)."""
    return problem_model(**{name: getattr(base, name) for name in Problem.model_fields})


def _clean_loc(loc: Sequence[str | int]) -> list[str | int]:
    # pydantic inserts validator names ("function-after[...]", "list[...]") into some locations
    return [
        part for part in loc if not (isinstance(part, str) and ("[" in part or part.startswith("function-")))
    ]


def _summary(issues: Sequence[Issue]) -> str:
    first = issues[0] if issues else None
    if first is None:
        return "invalid"
    where = first.path or "(body)"
    more = f" (and {len(issues) - 1} more)" if len(issues) > 1 else ""
    return f"{where}: {first.message}{more}"


def dump(model: BaseModel | WireModel) -> bytes:
    """The canonical JSON bytes of a model."""
    return model.__pydantic_serializer__.to_json(model)
