"""Domain errors of the rules engine.

Each error carries a stable machine ``code``; the API maps codes to HTTP statuses. The engine never
raises anything else for bad input: a posted state is checked once, at the boundary, and an
inconsistent one is refused with :class:`InconsistentStateError` before any rule runs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class IssueAt:
    """One problem found in a request: a JSON path (keys and indexes) and a message."""

    path: tuple[str | int, ...]
    message: str


TITLE_BY_CODE: dict[str, str] = {}
"""The title of each error code, filled as the error classes are defined (the API's and the engine's)."""


class RulesError(Exception):
    """Base of every error the engine raises on purpose."""

    code = "rules/error"
    title = "Rules error"
    argument = ""
    """The request field the issue paths are relative to ('state', 'move', ...; '' for the whole body)."""

    def __init_subclass__(cls) -> None:
        super().__init_subclass__()
        # one title per code: a subclass that keeps its parent's code must keep its title too
        if TITLE_BY_CODE.setdefault(cls.code, cls.title) != cls.title:
            known = TITLE_BY_CODE[cls.code]
            raise TypeError(f"{cls.__name__}: code {cls.code!r} already has the title {known!r}")

    def __init__(self, detail: str, issues: Sequence[IssueAt] = (), argument: str | None = None) -> None:
        super().__init__(detail)
        self.detail = detail
        self.issues = tuple(issues)
        if argument is not None:
            self.argument = argument


class InvalidRequestError(RulesError):
    """The request is well-typed but asks for something impossible (a seat that does not exist...)."""

    code = "request/invalid"
    title = "Invalid request"


class InconsistentStateError(RulesError):
    """The posted state is well-typed but could not have arisen in play (a card twice, a wrong count...)."""

    code = "state/inconsistent"
    title = "Inconsistent state"
    argument = "state"


class MoveError(RulesError):
    """Base of errors about a well-formed move that cannot be made now; lists the legal moves."""

    argument = "move"

    def __init__(self, detail: str, legal_moves: Sequence[Any], issues: Sequence[IssueAt] = ()) -> None:
        super().__init__(detail, issues)
        self.legal_moves = list(legal_moves)


class IllegalMoveError(MoveError):
    """The seat may act, but not with this move."""

    code = "move/illegal"
    title = "Illegal move"


class NotYourTurnError(MoveError):
    """The move names a seat that is not to act now."""

    code = "move/not-your-turn"
    title = "Not this seat's turn"


class MatchOverError(MoveError):
    """The match has ended; no move is legal."""

    code = "match/over"
    title = "Match over"
