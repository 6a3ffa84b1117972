"""Turning every kind of failure into an RFC 9457 problem details body with a stable ``code``."""

from __future__ import annotations

import logging
from collections.abc import Callable, Coroutine, Sequence
from types import CoroutineType
from typing import TYPE_CHECKING, Any

import orjson
from pydantic import BaseModel, ValidationError

from ..engine.errors import (
    TITLE_BY_CODE,
    IllegalMoveError,
    InconsistentStateError,
    InvalidRequestError,
    MatchOverError,
    MoveError,
    NotYourTurnError,
    RulesError,
)
from ..schema.common import MAX_LISTED_ISSUES, Issue, Problem, WireModel
from ..schema.sealed import TokenFirst
from .context import current_request
from .sealing import DISABLED_DETAIL, SealedModeDisabledError

if TYPE_CHECKING:
    from .operations import Operation

PROBLEM_MEDIA_TYPE = "application/problem+json"

logger = logging.getLogger("sevens_rules")

STATUS_BY_ERROR: dict[type[RulesError], int] = {
    InvalidRequestError: 422,
    InconsistentStateError: 422,
    IllegalMoveError: 409,
    NotYourTurnError: 409,
    MatchOverError: 409,
}
"""The HTTP status of each engine error (GraphQL returns the same problem as data)."""

TITLES: dict[str, str] = {
    "request/malformed-json": "Malformed JSON",
    "request/unsupported-media-type": "Unsupported media type",
    "request/too-large": "Content too large",
    "request/timeout": "Request timeout",
    "request/head-too-large": "Request head too large",
    "request/malformed-http": "Malformed HTTP request",
    "state/invalid": "Invalid state",
    "move/invalid": "Invalid move",
    "game/unknown": "Unknown game",
    "operation/unknown": "Unknown operation",
    "not-found": "Not found",
    "method/not-allowed": "Method not allowed",
    "graphql/bad-request": "Bad GraphQL request",
    "graphql/too-costly": "GraphQL request too costly",
    "http/error": "HTTP error",
    "internal": "Internal error",
    "service/not-ready": "Service not ready",
    "service/shutting-down": "Service shutting down",
}
"""The one title of each problem code the API raises itself; the codes of :class:`RulesError` classes (the
engine's and referee mode's) keep the titles their classes give (``TITLE_BY_CODE``)."""

MOVE_CODES = frozenset(error.code for error in STATUS_BY_ERROR if issubclass(error, MoveError))
"""The codes whose problems carry ``legal_moves`` (always, possibly empty); no other problem has it."""


def problem(
    status: int,
    code: str,
    detail: str,
    errors: Sequence[Issue] = (),
    model: type[Problem] = Problem,
    legal_moves: Sequence[Any] | None = None,
    found: int | None = None,
) -> Problem:
    """Build a problem of ``model`` (a game's problem model adds ``legal_moves``).

    Issues past :data:`MAX_LISTED_ISSUES` are counted in ``more_errors`` instead of listed (``found``: how
    many there were in all, when ``errors`` holds only the first ones); ``legal_moves`` is set exactly for
    the codes in :data:`MOVE_CODES` (an empty list when none is given).
    The problem carries the id of the request being answered, and its code is recorded for the access
    log and metrics.
    """
    request = current_request.get()
    if request is not None:
        request.problem_built(code)
    listed = errors[:MAX_LISTED_ISSUES]
    extra: dict[str, Any] = {}
    if code in MOVE_CODES and "legal_moves" in model.model_fields:
        extra["legal_moves"] = list(legal_moves or [])
    return model(
        type=f"urn:sevens-rules:problem:{code}",
        title=TITLES.get(code) or TITLE_BY_CODE[code],
        status=status,
        code=code,
        detail=detail,
        errors=list(listed),
        more_errors=max(len(errors) if found is None else found, len(listed)) - len(listed),
        request_id=request.request_id if request is not None else None,
        **extra,
    )


def from_validation_error(error: ValidationError, prefix: Sequence[str | int] = ()) -> Problem:
    """A 400 for unparseable JSON, otherwise a 422 naming the offending fields (the first few of them)."""
    # ValidationError.json rather than .errors(): a body full of mistakes (a megabyte of unknown keys is
    # tens of thousands of errors) is written out by pydantic-core in one call; only the first few are
    # converted.
    details: list[dict[str, Any]] = orjson.loads(
        error.json(include_url=False, include_input=False, include_context=False)
    )
    if any(d["type"] == "json_invalid" for d in details):
        return problem(
            400, "request/malformed-json", "The body is not valid JSON.", [Issue.at([], details[0]["msg"])]
        )
    shown = [_short_keys([*prefix, *_clean_loc(d["loc"])], d["msg"]) for d in details[:MAX_LISTED_ISSUES]]
    locations = [loc for loc, _ in shown]
    issues = [Issue.at(loc, message) for loc, message in shown]
    first = locations[0][0] if locations and locations[0] else ""
    code = {"state": "state/invalid", "move": "move/invalid"}.get(str(first), "request/invalid")
    summary = _summary(issues, len(details))
    return problem(422, code, f"The request does not match the schema: {summary}", issues, found=len(details))


def from_rules_error(error: RulesError, problem_model: type[Problem] = Problem) -> Problem:
    """The problem for an error the engine raised on purpose."""
    status: int = STATUS_BY_ERROR.get(type(error), getattr(error, "status", 422))
    prefix = [error.argument] if error.argument else []
    issues = [Issue.at([*prefix, *i.path], i.message) for i in error.issues[:MAX_LISTED_ISSUES]]
    legal = error.legal_moves if isinstance(error, MoveError) else None
    built = problem(status, error.code, error.detail, issues, problem_model, legal, found=len(error.issues))
    extra = getattr(error, "problem_fields", None)  # match/stale: the latest version and its token
    return built.model_copy(update=extra) if extra else built


def internal_problem(where: str, problem_model: type[Problem] = Problem) -> Problem:
    """Log the exception being handled (a bug) with its traceback, and answer a bare 500 problem.

    Call it from an ``except`` block; REST and GraphQL both report their unexpected errors through it.
    """
    logger.exception("unexpected error in %s", where)
    return problem(500, "internal", "An unexpected error occurred.", model=problem_model)


def runner(op: Operation, where: str) -> Callable[[bytes], Any]:
    """Run ``op`` on a JSON request body: its response, or a problem of the game's problem model.

    The one place REST and GraphQL (``where`` names the route or field in logs) turn a request into an
    answer: a body the schema refuses is a 422, an engine error its problem, anything else a logged 500.
    A ValidationError raised while answering is a bug too (a response the models refuse), not a 422.
    The sealed operations that consult the match store answer a coroutine of the same (see
    :func:`sevens_rules.api.sealed.sealed_runs`): ``await`` it.
    """
    validate_json, run, problem_model = op.request.model_validate_json, op.run, op.problem
    if op.disabled:
        return lambda body: from_rules_error(SealedModeDisabledError(DISABLED_DETAIL), problem_model)

    def answer(body: bytes) -> Any:
        try:
            request = validate_json(body)
        except ValidationError as error:
            return as_game_problem(from_validation_error(error), problem_model)
        try:
            result: Any = run(request)
        except RulesError as error:
            return from_rules_error(error, problem_model)
        except Exception:  # a bug: logged, and answered without leaking a trace
            return internal_problem(where, problem_model)
        if type(result) is CoroutineType:  # a sealed operation that asks the match store first
            return finished(result)
        return result

    async def finished(pending: Coroutine[Any, Any, WireModel]) -> WireModel:
        try:
            return await pending
        except RulesError as error:
            return from_rules_error(error, problem_model)
        except Exception:
            return internal_problem(where, problem_model)

    return answer


def as_game_problem(base: Problem, problem_model: type[Problem]) -> Problem:
    """The same problem as an instance of a game's problem model (which adds ``legal_moves``)."""
    return problem_model(**{name: getattr(base, name) for name in Problem.model_fields})


def _clean_loc(loc: Sequence[str | int]) -> list[str | int]:
    # pydantic inserts validator names ("function-after[...]", "list[...]") into some locations
    return [
        part for part in loc if not (isinstance(part, str) and ("[" in part or part.startswith("function-")))
    ]


MAX_NAMED_KEY_CHARS = 128
"""The longest key a problem names in a path: the answer would otherwise grow with the keys a client
sends (a 60 KB unknown key of slashes was a 240 KB answer, named in the path, escaped, and again in the
detail)."""


def _short_keys(loc: list[str | int], message: str) -> tuple[list[str | int], str]:
    """``loc`` and ``message``, or, where a key in ``loc`` is longer than :data:`MAX_NAMED_KEY_CHARS`, the
    path of the object holding it and a message that gives the key's length instead of the key."""
    for index, part in enumerate(loc):
        if isinstance(part, str) and len(part) > MAX_NAMED_KEY_CHARS:
            return loc[:index], f"{message} (a key of {len(part)} characters, not named here)"
    return loc, message


def _summary(issues: Sequence[Issue], count: int) -> str:
    first = issues[0] if issues else None
    if first is None:
        return "invalid"
    where = first.path or "(body)"
    more = f" (and {count - 1} more)" if count > 1 else ""
    return f"{where}: {first.message}{more}"


def dump(model: BaseModel | WireModel) -> bytes:
    """The canonical JSON bytes of a model; a problem without ``legal_moves`` leaves the key out, and an
    answer handing out a new token is written by :meth:`TokenFirst.json_bytes` (the same bytes)."""
    if isinstance(model, TokenFirst):
        return model.json_bytes()
    if isinstance(model, Problem):
        return model.__pydantic_serializer__.to_json(model, exclude=_absent(model))
    return model.__pydantic_serializer__.to_json(model)


_ONLY_WHEN_SET = ("legal_moves", "latest_version", "latest_token")
"""Problem members that only some codes carry: left out of every other problem's JSON."""


def _absent(model: Problem) -> set[str]:
    return {name for name in _ONLY_WHEN_SET if getattr(model, name, None) is None}
