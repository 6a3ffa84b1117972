"""The OpenAPI 3.1 document, generated from the operation list and the pydantic models."""

from __future__ import annotations

from functools import cache
from typing import Any

import orjson
from pydantic import BaseModel
from pydantic.json_schema import JsonSchemaMode, models_json_schema

from sevens_rules import __version__
from sevens_rules.api.operations import all_operations
from sevens_rules.api.problems import PROBLEM_MEDIA_TYPE
from sevens_rules.schema.common import GamesResponse, Problem

REF_TEMPLATE = "#/components/schemas/{model}"


def _problem_response(description: str, ref: dict[str, str]) -> dict[str, Any]:
    return {"description": description, "content": {PROBLEM_MEDIA_TYPE: {"schema": ref}}}


def _sealed_responses(problem: dict[str, str]) -> dict[str, Any]:
    return {
        "403": _problem_response(
            "The seat key does not open this seat, or the move is another seat's.", problem
        ),
        "404": _problem_response("Sealed mode is not enabled (no RULES_SEAL_KEYS).", problem),
    }


@cache
def openapi_document() -> dict[str, Any]:
    """The OpenAPI document as a dict."""
    ops = all_operations()
    models: set[type[BaseModel]] = {GamesResponse, Problem}
    for op in ops:
        models |= {op.request, op.response, op.problem}
    ordered = sorted(models, key=lambda m: m.__name__)
    inputs: list[tuple[type[BaseModel], JsonSchemaMode]] = [(m, "validation") for m in ordered]
    refs, definitions = models_json_schema(inputs, ref_template=REF_TEMPLATE)
    # response models are also produced in serialization mode; their schemas are identical here because
    # no wire model has serializers or computed fields, so one schema per model is enough.
    components = definitions.get("$defs", {})

    def ref(model: type) -> dict[str, str]:
        return refs[(model, "validation")]

    paths: dict[str, Any] = {
        "/v1/games": {
            "get": {
                "operationId": "games",
                "summary": "Every game, its players, options and dynamics",
                "responses": {
                    "200": {
                        "description": "The games.",
                        "content": {"application/json": {"schema": ref(GamesResponse)}},
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
                    },
                    "400": _problem_response("The body is not valid JSON.", problem),
                    "409": _problem_response(
                        "The move is not legal now (not this seat's turn, match over, or not allowed); "
                        "the problem lists the legal moves.",
                        problem,
                    ),
                    "413": _problem_response("The body is too large.", problem),
                    **(_sealed_responses(problem) if op.sealed else {}),
                    "415": _problem_response("The body is not JSON.", problem),
                    "422": _problem_response(
                        "The request does not match the schema, or the state is inconsistent.", problem
                    ),
                },
            }
        }
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Sevens rules service",
            "version": __version__,
            "description": "A stateless rules service for the sevens family of card games. POST a "
            "state, get the legal moves, the next state and its events, the scores, or one seat's view.",
        },
        "paths": paths,
        "components": {"schemas": components},
    }


@cache
def openapi_json() -> bytes:
    """The OpenAPI document as canonical JSON bytes (sorted keys, two-space indent)."""
    return orjson.dumps(openapi_document(), option=orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS) + b"\n"
