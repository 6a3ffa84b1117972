"""The engine's one adapter to pydantic: every wire model the engine makes or copies is made here.

The engine makes a wire model for every move, event and state it answers, and pydantic's general
constructors (validation, ``model_construct``, ``model_copy``) do far more than a model the engine
computed needs. The functions below make the same models with less work, through pydantic's documented
instance layout (``__dict__``, ``__pydantic_fields_set__``, ``__pydantic_extra__``,
``__pydantic_private__``); nothing else in the engine reads or sets those. ``tests/test_engine_speed.py``
compares every one of them with pydantic's own constructor, so that a pydantic upgrade that changes the
layout fails a test.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from collections.abc import Set as AbstractSet
from functools import lru_cache
from typing import Any, Concatenate, TypeVar, cast

from pydantic import BaseModel

ModelT = TypeVar("ModelT", bound=BaseModel)
KindT = TypeVar("KindT")


def field_values(model: BaseModel) -> dict[str, Any]:
    """The field values of a closed wire model (no extra fields, no private attributes), by name: the
    model's own dict, not to be changed."""
    return model.__dict__


def updated(model: ModelT, **fields: object) -> ModelT:
    """A copy of ``model`` with ``fields`` replaced, refusing a name the model has no field for (a typo
    would otherwise be dropped silently and vanish on output)."""
    return updated_from(model, fields)


def updated_from(model: ModelT, changes: dict[str, object]) -> ModelT:
    """``updated(model, **changes)`` for a caller that holds ``changes`` as a dict (built up field by field
    over a move): no keyword arguments to build and unpack again. Refuses a name the model has no field
    for, as :func:`updated` does, and marks the changed fields set."""
    cls = type(model)
    fields_set = model.__pydantic_fields_set__
    if not fields_set.issuperset(changes):
        # A name not set in the model yet (a state sets every field: only a model with defaults comes
        # here): refuse it unless the model has a field of that name, else mark it set in a new set.
        # Otherwise every name is set already, so a field of the model (a model's set fields are fields
        # of it), and the copy shares the set, which is never changed.
        known = _field_names(cls)
        if not known.issuperset(changes):
            raise TypeError(f"{cls.__name__} has no field {', '.join(sorted(changes.keys() - known))}")
        fields_set = fields_set.union(changes)
    # What model_copy(update=changes) does, without its general bookkeeping (deep copies, private
    # attributes, extra fields: wire models are closed and have none), as every applied move runs this.
    # Like model_copy, it does not validate: the engine only updates its own states with values it computed.
    return unvalidated(cls, {**model.__dict__, **changes}, fields_set)


def same_model(listed: object, other: object) -> bool:
    """``listed == other`` for two wire models: the same class and the same field values.

    What ``BaseModel.__eq__`` decides for closed wire models (no private attributes, no extra fields,
    nothing in ``__dict__`` but fields), without its generic-origin, private and extra checks. A legality
    test compares a posted move with the listed one this way on every applied move that came over the
    wire (a move picked from a listed list is the same object).
    """
    return listed is other or (type(listed) is type(other) and listed.__dict__ == other.__dict__)


def unvalidated(model: type[ModelT], values: dict[str, Any], fields_set: AbstractSet[str]) -> ModelT:
    """A ``model`` holding ``values`` (every field, in field order) whose set fields are ``fields_set``,
    made without validation, as pydantic's own ``model_construct`` and ``model_copy`` set a model up.

    Only for values the engine computed and already holds as the right types (and lists the new model
    owns): :func:`updated` copies states with it, and records and events are made with it where
    validating them again was a measurable part of a playout (the tests compare such models with the
    validated ones)."""
    made = _new_instance(model)
    _set_dict(made, values)
    _set_fields_set(made, fields_set)
    _set_extra(made, None)
    _set_private(made, None)
    return made


def constructed(model: type[ModelT], **values: Any) -> ModelT:
    """``model.model_construct(**values)`` for values that name every field of ``model``: the same model
    (every field set) with less work, as pydantic's ``model_construct`` also fills in defaults
    and sorts out aliases and extra fields, which a complete set of values does not need. The service's
    answers are made with it, from values the engine computed. Refuses values that miss or add a field.
    """
    names = _field_names(model)
    if names != values.keys():
        raise TypeError(f"{model.__name__} takes exactly the fields {', '.join(model.__pydantic_fields__)}")
    # a set of its own, as model_construct gives: model_copy(update=...) adds to a copy of it
    return unvalidated(model, values, set(names))


def _field_names(model: type[BaseModel]) -> frozenset[str]:
    known = _FIELD_NAMES.get(model)
    if known is None:
        known = _FIELD_NAMES[model] = frozenset(model.__pydantic_fields__)
    return known


_FIELD_NAMES: dict[type[BaseModel], frozenset[str]] = {}
"""Each updated model class's field names, made at its first update (one set lookup per update)."""
_new_instance = object.__new__
"""An instance without running ``__init__`` (what ``cls.__new__(cls)`` does for a model, one lookup less)."""
# The four slots every pydantic model instance has, set through their descriptors, as
# object.__setattr__ (what pydantic itself uses to set up a frozen model) would find them: calling the
# descriptor directly skips that lookup (unvalidated() runs on every applied move).
_set_dict = BaseModel.__dict__["__dict__"].__set__
_set_fields_set = BaseModel.__dict__["__pydantic_fields_set__"].__set__
_set_extra = BaseModel.__dict__["__pydantic_extra__"].__set__
_set_private = BaseModel.__dict__["__pydantic_private__"].__set__


def listed(model: type[ModelT], **fields: object) -> ModelT:
    """The move or event (or any small immutable model) with these fields, made once and then shared.

    Legal-move lists are rebuilt for every request and every playout step, and building the same few
    hundred frozen moves again through validation would be much of a random playout; events are made for
    every applied move. The models are frozen and equal fields make equal models, so a shared instance
    is always the right answer. A model with an unhashable field (a list) is made afresh.
    """
    key = tuple(fields.items())
    try:
        return cast(ModelT, _listed(model, key))
    except TypeError:  # a list among the fields: nothing to share
        return model(**fields)


def event_of(model: type[ModelT], kinds: type[KindT]) -> Callable[Concatenate[KindT, ...], ModelT]:
    """A game's event maker: ``event_of(SevensEvent, SevensEventType)`` makes ``_event(kind, **fields)``,
    the :func:`listed` event of type ``kind`` with these fields."""

    def event(kind: KindT, /, **fields: object) -> ModelT:
        return listed(model, type=kind, **fields)

    return event


@lru_cache(maxsize=16_384)
def _listed(model: type[BaseModel], fields: tuple[tuple[str, Hashable], ...]) -> BaseModel:
    return model(**dict(fields))
