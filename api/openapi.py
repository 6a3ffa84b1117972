"""The OpenAPI 3.1 document, generated from the operation list and the pydantic models."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

import orjson
from pydantic import BaseModel
from pydantic.json_schema import JsonSchemaMode, models_json_schema

from .. import __version__
from ..schema.common import GamesResponse, Problem
from ..schema.operations import contract_names, type_prefix
from .examples import (
    STORE_OPERATIONS,
    games_example,
    illegal_apply,
    plain_examples,
    problem_examples,
    sealed_new_request,
    with_examples,
)
from .limits import BODY_TIMEOUT_SECONDS
from .operations import Operation, all_operations
from .problems import PROBLEM_MEDIA_TYPE

REF_TEMPLATE = "#/components/schemas/{model}"


def _problem_response(description: str, ref: dict[str, str]) -> dict[str, Any]:
    return {"description": description, "content": {PROBLEM_MEDIA_TYPE: {"schema": ref}}}


STATE_LINKS: dict[str, dict[str, Any]] = {
    "moves": {"state": "$response.body#/state", "player": None},
    "score": {"state": "$response.body#/state"},
    "view": {"state": "$response.body#/state", "player": "$response.body#/state/dealer"},
}
"""Plain mode: the answers of ``new`` and ``apply`` carry a state, which goes on to these operations: the
moves of every seat to act (``player`` null: a generated seat is seldom one the table has), the view for
the dealer (a seat every table has). Not to ``apply``: only ``moves`` knows a move that is legal."""

TOKEN_LINKS: dict[str, dict[str, dict[str, Any]]] = {
    "new": {
        "join": {
            "token": "$response.body#/token",
            "seat": "$response.body#/open_seats/0",
            "entropy": "linked",
        },
        "fill": {"token": "$response.body#/token", "host_key": "$response.body#/host_key"},
    },
    "join": {
        "join": {
            "token": "$response.body#/token",
            "seat": "$response.body#/open_seats/0",
            "entropy": "linked",
        },
    }
    | {
        name: {
            "token": "$response.body#/token",
            "seat": "$request.body#/seat",
            "seat_key": "$response.body#/seat_key",
        }
        for name in ("moves", "view")
    },
    "fill": {
        name: {"token": "$response.body#/token", "seat": 0, "seat_key": "$response.body#/seat_keys/0"}
        for name in ("moves", "view")
    }
    | {"score": {"token": "$response.body#/token"}},
    "apply": {
        name: {
            "token": "$response.body#/token",
            "seat": "$request.body#/seat",
            "seat_key": "$request.body#/seat_key",
        }
        for name in ("moves", "view")
    }
    | {"score": {"token": "$response.body#/token"}},
    "moves": {
        "apply": {
            "token": "$request.body#/token",
            "seat": "$request.body#/seat",
            "seat_key": "$request.body#/seat_key",
            "move": "$response.body#/moves/0",
        }
    },
}
"""Sealed mode: a token chains by ``token``. ``new`` opens a table: a seat joins its first open seat, or
the host fills every open seat with its host key; a join goes on to the next open seat, and to
``moves`` and ``view`` with the key it handed out (a 409 ``match/not-dealt`` until the last seat
joined); ``fill`` hands out every seat's key and goes on as seat 0; ``apply`` goes on with the seat and
key it was sent; ``moves`` sends its first legal move (for that seat, with that token) to ``apply``."""


def _links(op: Operation, operations: tuple[Operation, ...]) -> dict[str, Any]:
    """OpenAPI links from this operation's answer to the operations of the same game and mode it feeds.

    Plain ``new`` and ``apply`` answer with a state that goes on to ``moves``, ``apply``, ``score`` and
    ``view``; ``moves`` sends its first legal move, with the state it was sent, to ``apply``. Sealed
    operations chain by their token the same way (:data:`TOKEN_LINKS`). The targets are looked up in the
    operation list by game, mode and name, so a plain operation never links to a sealed one or back.
    Following the links, a client such as schemathesis's stateful phase plays real matches.
    """
    targets = {
        other.name: other.operation_id
        for other in operations
        if other.game is op.game and other.sealed == op.sealed
    }
    if op.sealed:
        bodies = TOKEN_LINKS.get(op.name, {})
    elif op.name in ("new", "apply"):
        bodies = STATE_LINKS
    elif op.name == "moves":
        bodies = {"apply": {"state": "$request.body#/state", "move": "$response.body#/moves/0"}}
    else:
        bodies = {}
    carried = "token" if op.sealed else "state"
    return {
        name: {
            "operationId": targets[name],
            "requestBody": body,
            "description": f"The {name} operation on "
            + (
                f"the {carried} sent, with its first legal move."
                if op.name == "moves"
                else f"the new {carried}."
            ),
        }
        for name, body in bodies.items()
        if name in targets
    }


def _reachable(refs: list[str], components: dict[str, Any]) -> set[str]:
    """The names of the components the given ``$ref``s lead to, directly or through other components."""
    found: set[str] = set()
    pending = list(refs)
    while pending:
        name = pending.pop().rsplit("/", 1)[1]
        if name not in found:
            found.add(name)
            pending += _refs(components[name])
    return found


def _refs(node: Any) -> list[str]:
    if isinstance(node, dict):
        return [v for k, v in node.items() if k == "$ref"] + [r for v in node.values() for r in _refs(v)]
    if isinstance(node, list):
        return [r for v in node for r in _refs(v)]
    return []


def _defaults_described(schema: dict[str, Any]) -> dict[str, Any]:
    """A request-side object schema whose property defaults are told in words, not as ``default``.

    Client generators (openapi-typescript by default) read a ``default`` on a component property as "the
    server always sends it" and make the field required, which is true of answers but not of requests: a
    move without ``deck`` would not compile. Request-side schemas therefore keep the default only in the
    description; the answer-side schemas list every field as required anyway.
    """
    properties = {}
    for name, prop in schema.get("properties", {}).items():
        if "default" in prop:
            prop = {key: value for key, value in prop.items() if key != "default"}
            default = orjson.dumps(schema["properties"][name]["default"]).decode()
            prop["description"] = f"{prop.get('description', '').rstrip()} Omitted: {default}.".lstrip()
        properties[name] = prop
    return schema | {"properties": properties} if properties else schema


def _schema_name(name: str) -> str:
    # pydantic names the two schemas of a model that reads and writes differently "X-Input" and
    # "X-Output"; GraphQL's convention reads better in generated clients: "XInput" and plain "X".
    if name.endswith("-Input"):
        return name.removesuffix("-Input") + "Input"
    return name.removesuffix("-Output")


def _renamed(node: Any) -> Any:
    """``node`` with every component name and ``$ref`` to it in the GraphQL naming convention."""
    if isinstance(node, dict):
        result = {}
        for key, value in node.items():
            if key == "$ref" and isinstance(value, str) and value.startswith(REF_TEMPLATE.format(model="")):
                result[key] = REF_TEMPLATE.format(model=_schema_name(value.rsplit("/", 1)[1]))
            else:
                result[key] = _renamed(value)
        return result
    if isinstance(node, list):
        return [_renamed(v) for v in node]
    return node


def _name_after_games(
    ops: tuple[Operation, ...],
    components: dict[str, Any],
    mode_of: dict[type[BaseModel], JsonSchemaMode],
    ref: Callable[[type[BaseModel]], dict[str, str]],
) -> None:
    """Give the models a game shares with its family the names its contract gives them
    (:func:`contract_names`: ``FanTanMove``, ``FanTanMoveInput``), as the GraphQL schema does.

    The components of a game's operations (all named after the game) then refer to copies of the
    shared components under the game's names; the shared ones stay for the game they are named after.
    """
    for op in ops:
        renamed: dict[str, str] = {}
        for model, name in contract_names(op.game.id, op.game.models).items():
            if model.__name__ != name:
                renamed |= {model.__name__ + suffix: name + suffix for suffix in ("", "Input")}
        if not renamed:
            continue
        prefix = type_prefix(op.game.id)
        roots = [ref(model)["$ref"] for model in (op.request, op.response, op.problem)]
        for name in sorted(_reachable(roots, components)):
            if name in renamed:
                components[renamed[name]] = _refs_renamed(components[name], renamed) | {
                    "title": renamed[name]
                }
            elif any(target in renamed for target in _ref_names(components[name])):
                if not name.startswith(prefix):
                    raise RuntimeError(f"{name}, shared, refers to a model {prefix} names otherwise")
                components[name] = _refs_renamed(components[name], renamed)
    used = _reachable(_refs(list(components.values())) + [ref(m)["$ref"] for m in mode_of], components)
    for name in set(components) - used:
        del components[name]


def _ref_names(node: Any) -> list[str]:
    return [ref.rsplit("/", 1)[1] for ref in _refs(node)]


def _refs_renamed(node: Any, renamed: dict[str, str]) -> Any:
    if isinstance(node, dict):
        return {
            key: REF_TEMPLATE.format(model=renamed.get(value.rsplit("/", 1)[1], value.rsplit("/", 1)[1]))
            if key == "$ref"
            else _refs_renamed(value, renamed)
            for key, value in node.items()
        }
    if isinstance(node, list):
        return [_refs_renamed(v, renamed) for v in node]
    return node


_CONFLICTS = {
    "apply": "The move is not legal now (not this seat's turn, the match over, or not allowed); the problem "
    "lists the legal moves (sealed: the seat's own).",
    "bot": "The seat is not to act now, or the match is over; no moves are listed.",
    "sample": "The match is over: every view shows its seed, so there is nothing to sample.",
}
"""What a 409 means for the operations that answer one on a state."""
_SEALED_CONFLICTS = (
    "A token older than the match's latest version where the operation moves the match on, a seat "
    "taken, a table already dealt or not dealt yet (`match/stale`, `seat/taken`, `table/dealt`, "
    "`match/not-dealt`)."
)


def _conflict(op: Operation) -> str:
    """The 409 response's description for ``op``."""
    parts = [_CONFLICTS.get(op.name, ""), _SEALED_CONFLICTS if op.sealed else ""]
    return " ".join(part for part in parts if part) or "Not answered by this operation."


def _sealed_responses(op: Operation, problem: dict[str, str]) -> dict[str, Any]:
    answers = {
        "403": _problem_response(
            "The seat key does not open this seat, or the move is another seat's.", problem
        ),
        "404": _problem_response("Sealed mode is not enabled (no RULES_SEAL_KEYS).", problem),
    }
    if op.name not in STORE_OPERATIONS:
        return answers
    full = " or holds `RULES_MATCH_LIMIT` matches (`store/full`)" if op.name == "new" else ""
    answers["503"] = _problem_response(
        f"The match store cannot be reached (`store/unavailable`: send the request again){full}.", problem
    )
    if op.name != "new":  # (a new table is no match the store could have forgotten)
        answers["410"] = _problem_response(
            "The match store does not remember this match (idle too long, or begun elsewhere): "
            "`match/unknown`.",
            problem,
        )
    return answers


@cache
def openapi_document(sealed: bool = True) -> dict[str, Any]:
    """The OpenAPI document as a dict: the whole contract, or (``sealed=False``) without the sealed
    operations, as a service without sealing keys serves it (they would only answer ``sealed/disabled``)."""
    ops = tuple(op for op in all_operations() if sealed or not op.sealed)
    # Requests are described as the service reads them (a field with a default may be left out) and
    # responses as it writes them (every field present): one shared schema would make generated clients
    # demand `"deck": null` in every move, or treat every answered field as optional.
    requests: set[type[BaseModel]] = {op.request for op in ops}
    responses: set[type[BaseModel]] = {GamesResponse, Problem}
    responses |= {op.response for op in ops} | {op.problem for op in ops}
    mode_of: dict[type[BaseModel], JsonSchemaMode] = {m: "validation" for m in requests}
    mode_of |= {m: "serialization" for m in responses}
    refs, definitions = models_json_schema(
        sorted(mode_of.items(), key=lambda item: item[0].__name__), ref_template=REF_TEMPLATE
    )
    components = {}
    for name, schema in definitions.get("$defs", {}).items():
        # generators name classes after the title: the input and output schemas need one each
        components[_schema_name(name)] = _renamed(schema) | {"title": _schema_name(name)}

    def ref(model: type[BaseModel]) -> dict[str, str]:
        renamed: dict[str, str] = _renamed(refs[(model, mode_of[model])])
        return renamed

    for name in _reachable([ref(m)["$ref"] for m in requests], components):
        components[name] = _defaults_described(components[name])

    paths: dict[str, Any] = {
        "/v1/games": {
            "get": {
                "operationId": "games",
                "summary": "Every game, its players, options and dynamics",
                "responses": {
                    "200": {
                        "description": "The games.",
                        "content": {
                            "application/json": {"schema": ref(GamesResponse), "example": games_example()}
                        },
                    }
                },
            }
        }
    }
    for op in ops:
        problem = ref(op.problem)
        paths[op.path] = {
            "post": {
                "operationId": op.operation_id,
                "summary": op.summary,
                "tags": [op.game.id],
                "requestBody": {
                    "required": True,
                    "content": {"application/json": {"schema": ref(op.request)}},
                },
                "responses": {
                    "200": {
                        "description": "Success.",
                        "content": {"application/json": {"schema": ref(op.response)}},
                        **({"links": links} if (links := _links(op, ops)) else {}),
                    },
                    "400": _problem_response("The body is not valid JSON.", problem),
                    "408": _problem_response(
                        f"The body did not arrive within {BODY_TIMEOUT_SECONDS:g} s of the request head "
                        "(the connection is closed).",
                        problem,
                    ),
                    "409": _problem_response(_conflict(op), problem),
                    "413": _problem_response("The body is too large.", problem),
                    **(_sealed_responses(op, problem) if op.sealed else {}),
                    "415": _problem_response("The body is not JSON.", problem),
                    "422": _problem_response(
                        "The request does not match the schema, or the state is inconsistent.", problem
                    ),
                },
            }
        }
    for op in ops:
        if op.sealed and op.name == "new":  # the one sealed example that needs no token (api/examples.py)
            body = paths[op.path]["post"]["requestBody"]["content"]["application/json"]
            body["example"] = sealed_new_request(op.game)
        answers = paths[op.path]["post"]["responses"]
        for status, example in problem_examples(op, illegal_apply(op)).items():
            answers[status]["content"][PROBLEM_MEDIA_TYPE] = {"schema": ref(op.problem), "example": example}
    _name_after_games(ops, components, mode_of, ref)
    return with_examples(
        {
            "openapi": "3.1.0",
            "info": {
                "title": "Sevens rules service",
                "version": __version__,
                "description": "A stateless rules service for the sevens family of card games. POST a "
                "state, get the legal moves, the next state and its events, the scores, or one seat's view. "
                "Every example is a real request and the service's answer to it (a seeded deal of each "
                "game); the examples of sealed operations that need a token are filled in by a service "
                "with RULES_SEAL_KEYS, from a match it deals and seals for them when it first serves this "
                "document (a seat joins once, so the join request shown is for another table, still open, "
                "and its answer is the join made at that match).",
            },
            "paths": paths,
            "components": {"schemas": components},
        },
        plain_examples(),
    )


@cache
def openapi_json(sealed: bool = True) -> bytes:
    """The OpenAPI document as canonical JSON bytes (:func:`document_json`); ``sealed`` as in
    :func:`openapi_document`."""
    return document_json(openapi_document(sealed))


def document_json(document: dict[str, Any]) -> bytes:
    """An OpenAPI document as canonical JSON bytes: sorted keys, two-space indent, a final newline."""
    return orjson.dumps(document, option=orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS) + b"\n"
