"""What one GraphQL document may cost: the limits checked on the parsed document before validation,
the value budget of its execution, and the byte budget of the worker's GraphQL caches.

Every limit is a ``RULES_GRAPHQL_MAX_*`` setting (README, "Limits"); a document over one is refused with
a 400 problem ``graphql/too-costly`` naming the setting, before graphql-core validates or runs it. The
checks are one walk over the parsed document, with every fragment's counts computed once, so a document
whose fragments spread each other many times costs its size to check, not its expansion.
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any

from graphql import (
    DocumentNode,
    FieldNode,
    FragmentDefinitionNode,
    FragmentSpreadNode,
    GraphQLError,
    InlineFragmentNode,
    OperationDefinitionNode,
    SelectionSetNode,
)

from .limits import Settings

FREE_ROOT_FIELDS = frozenset({"__typename", "games"})
"""Root fields that are not operation fields: ``__typename`` and the static game list. Every other root
field counts, introspection's ``__schema`` and ``__type`` included: a document selects one of them at
most, so introspection cannot be multiplied by aliases."""
MAX_OPERATION_FIELDS = 1
"""Operation fields one document may select (aliases and fragments included)."""


class DocumentOverLimitError(Exception):
    """A document over one of the limits; ``setting`` names the limit's environment variable."""

    def __init__(self, setting: str, detail: str) -> None:
        super().__init__(detail)
        self.setting = setting
        self.detail = detail


class AnswerOverBudgetError(BaseException):
    """Raised inside execution once an answer has completed more values than its budget.

    A ``BaseException`` on purpose: graphql-core turns every ``Exception`` raised while completing a
    field into a field error and goes on with the siblings, so an ``Exception`` would not stop the
    work; this one unwinds the whole execution, which :func:`sevens_rules.api.graphql_execution.execute`
    catches.
    """


@dataclass(frozen=True)
class DocumentLimits:
    """The limits of one document, from the settings."""

    max_tokens: int
    max_depth: int
    max_aliases: int
    max_directives: int
    max_fragments: int
    max_fields: int
    max_variables: int
    max_values: int
    max_answer_bytes: int

    @classmethod
    def from_settings(cls, settings: Settings) -> DocumentLimits:
        """The limits the settings give."""
        return cls(
            max_tokens=settings.graphql_max_tokens,
            max_depth=settings.graphql_max_depth,
            max_aliases=settings.graphql_max_aliases,
            max_directives=settings.graphql_max_directives,
            max_fragments=settings.graphql_max_fragments,
            max_fields=settings.graphql_max_fields,
            max_variables=settings.graphql_max_variables,
            max_values=settings.graphql_max_values,
            max_answer_bytes=settings.graphql_max_answer_bytes,
        )


@dataclass
class _Expanded:
    """What a selection set costs with every fragment spread expanded."""

    fields: int = 0
    depth: int = 0
    operation_fields: int = 0
    root_names: set[str] = field(default_factory=set)
    """The names of the root fields (when the selection set is the operation's)."""


@dataclass
class DocumentShape:
    """What :func:`check_document` found: whether the document's operations select only introspection
    and ``__typename``, and whether it declares variables."""

    schema_only: bool
    has_variables: bool


def check_document(document: DocumentNode, limits: DocumentLimits) -> DocumentShape:
    """Count what the document holds and raise :class:`DocumentOverLimitError` for the first limit it
    passes; otherwise return its shape."""
    fragments: dict[str, FragmentDefinitionNode] = {}
    operations: list[OperationDefinitionNode] = []
    for definition in document.definitions:
        if isinstance(definition, FragmentDefinitionNode):
            fragments[definition.name.value] = definition
        elif isinstance(definition, OperationDefinitionNode):
            operations.append(definition)
    walk = _Walk(fragments)
    walk.fragments_seen = len(fragments)
    schema_only = bool(operations)
    expanded_operations = []
    for operation in operations:
        walk.directives += len(operation.directives or ())
        for variable in operation.variable_definitions or ():
            walk.variables += 1
            walk.directives += len(variable.directives or ())
        expanded = walk.selection_set(operation.selection_set, frozenset(), root=True)
        expanded_operations.append(expanded)
        schema_only = schema_only and expanded.root_names <= {"__typename", "__schema", "__type"}
    for name, fragment in fragments.items():  # unused ones too: validation refuses them, after work
        if name not in walk.walked:
            walk.selection_set(fragment.selection_set, frozenset({name}), root=False)
    walk.check(limits)
    for expanded in expanded_operations:
        _check_expanded(expanded, limits)
    return DocumentShape(schema_only, walk.variables > 0)


def _check_expanded(expanded: _Expanded, limits: DocumentLimits) -> None:
    if expanded.fields > limits.max_fields:
        raise DocumentOverLimitError(
            "RULES_GRAPHQL_MAX_FIELDS",
            f"The operation selects {expanded.fields} fields with its fragments expanded; "
            f"RULES_GRAPHQL_MAX_FIELDS allows {limits.max_fields}.",
        )
    depth = expanded.depth - 1  # as strawberry's depth limiter counts: a root field is depth 0
    if depth > limits.max_depth:
        raise DocumentOverLimitError(
            "RULES_GRAPHQL_MAX_DEPTH",
            f"The operation is {depth} fields deep below its root field; RULES_GRAPHQL_MAX_DEPTH "
            f"allows {limits.max_depth}.",
        )
    if expanded.operation_fields > MAX_OPERATION_FIELDS:
        raise DocumentOverLimitError(
            "operation fields",
            f"The operation selects {expanded.operation_fields} operation fields (introspection, "
            "aliases and fragments included); a document may select at most one operation field: "
            "send one request per operation.",
        )


class _Walk:
    """One walk over a document's selections: aliases, directives, fragments and variable definitions
    as written (each fragment definition counted once), and per selection set its fields, depth and
    operation fields with fragment spreads expanded, each fragment's expansion computed once (a spread
    of a fragment already being expanded is a cycle, which validation refuses: it counts nothing)."""

    def __init__(self, fragments: dict[str, FragmentDefinitionNode]) -> None:
        self.fragments = fragments
        self.memo: dict[tuple[str, bool], _Expanded] = {}
        self.walked: set[str] = set()
        self.aliases = self.directives = self.fragments_seen = self.variables = 0

    def selection_set(
        self, selection_set: SelectionSetNode | None, seen: frozenset[str], root: bool
    ) -> _Expanded:
        total = _Expanded()
        for selection in selection_set.selections if selection_set else ():
            self.directives += len(selection.directives or ())
            if isinstance(selection, FieldNode):
                if selection.alias is not None:
                    self.aliases += 1
                inner = self.selection_set(selection.selection_set, seen, root=False)
                total.fields = _add(total.fields, 1 + inner.fields)
                name = selection.name.value
                # introspection's own nesting (a type reference nine levels deep in the standard query)
                # is graphql-core's introspection depth rule's to bound, as strawberry's limiter leaves it
                below = 0 if name.startswith("__") else inner.depth
                total.depth = max(total.depth, 1 + below)
                if root:
                    total.root_names.add(name)
                    if name not in FREE_ROOT_FIELDS:
                        total.operation_fields += 1
                continue
            self.fragments_seen += 1
            if isinstance(selection, InlineFragmentNode):
                inner = self.selection_set(selection.selection_set, seen, root)
            elif isinstance(selection, FragmentSpreadNode):
                inner = self.spread(selection.name.value, seen, root)
            else:  # pragma: no cover -- the three kinds of selection
                continue
            total.fields = _add(total.fields, inner.fields)
            total.depth = max(total.depth, inner.depth)
            total.operation_fields = _add(total.operation_fields, inner.operation_fields)
            total.root_names |= inner.root_names
        return total

    def spread(self, name: str, seen: frozenset[str], root: bool) -> _Expanded:
        fragment = self.fragments.get(name)
        if fragment is None or name in seen:
            return _Expanded()
        key = (name, root)
        if key not in self.memo:
            counting = name not in self.walked
            self.walked.add(name)
            before = (self.aliases, self.directives, self.fragments_seen)
            self.directives += len(fragment.directives or ())
            self.memo[key] = self.selection_set(fragment.selection_set, seen | {name}, root)
            if not counting:  # its written counts are in already
                self.aliases, self.directives, self.fragments_seen = before
        return self.memo[key]

    def check(self, limits: DocumentLimits) -> None:
        for count, limit, setting, what in (
            (self.aliases, limits.max_aliases, "RULES_GRAPHQL_MAX_ALIASES", "aliases"),
            (self.directives, limits.max_directives, "RULES_GRAPHQL_MAX_DIRECTIVES", "directives"),
            (
                self.fragments_seen,
                limits.max_fragments,
                "RULES_GRAPHQL_MAX_FRAGMENTS",
                "fragments and spreads",
            ),
            (self.variables, limits.max_variables, "RULES_GRAPHQL_MAX_VARIABLES", "variable definitions"),
        ):
            if count > limit:
                raise DocumentOverLimitError(
                    setting, f"The document has {count} {what}; {setting} allows {limit}."
                )


_CEILING = 1 << 62
"""Expanded counts grow exponentially with nested spreads; they are capped here (any limit is lower)."""


def _add(a: int, b: int) -> int:
    return min(a + b, _CEILING)


def over_tokens(error: GraphQLError, limits: DocumentLimits) -> DocumentOverLimitError | None:
    """The limit a parse error reports, when it is graphql-core's token limit (its message is the only
    sign of it)."""
    if error.message.startswith("Syntax Error: Document contains more than") and "tokens" in error.message:
        return too_many_tokens(limits)
    return None


def too_many_tokens(limits: DocumentLimits) -> DocumentOverLimitError:
    """The refusal of a document with more tokens than ``RULES_GRAPHQL_MAX_TOKENS`` allows."""
    return DocumentOverLimitError(
        "RULES_GRAPHQL_MAX_TOKENS",
        f"The document has more than {limits.max_tokens} tokens; RULES_GRAPHQL_MAX_TOKENS allows "
        f"{limits.max_tokens}. Send states as variables, not inline.",
    )


_LEXICAL_TOKEN = re.compile(
    # A string not closed is one match up to where its scan stopped, not no match: a failed match would
    # be tried again from every quote inside it, a scan to the end each time (quadratic).
    r'"""(?:[^"\\]|\\.|"(?!""))*(?:""")?'  # a block string
    r'|"(?:[^"\\\n\r]|\\.)*"?'  # a string
    r"|#[^\n\r]*"  # a comment (not a token)
    r"|\.\.\.|-?[0-9][_0-9A-Za-z.+-]*|[_A-Za-z][_0-9A-Za-z]*|[!$&():=@\[\]{|}]"
)
"""The lexical tokens of a GraphQL document (the spec's punctuators, names, numbers, strings), and its
comments, as one regular expression: counting a document's tokens this way is a single pass in C."""


def surely_over_tokens(query: str, limits: DocumentLimits) -> bool:
    """Whether ``query`` certainly holds more tokens than the limit, told without parsing it.

    graphql-core's parser stops at the limit, but only after building a syntax tree of that many tokens,
    the largest cost a refused document has. Counting the regular expression's matches first refuses
    a larger document at a fraction of that. Every token the parser counts is one match here (a string
    or a number is one match, as it is one token), so the count is never above the parser's for a
    document that parses; a document whose count passes the limit is refused as the parser would."""
    if len(query) <= limits.max_tokens:  # every token is at least one character
        return False
    matches = _LEXICAL_TOKEN.findall(query)
    return len(matches) - sum(1 for match in matches if match[0] == "#") > limits.max_tokens


BYTES_PER_CHARACTER = 300
"""Estimated resident bytes of a parsed and validated document per character of its text, nodes,
locations and tokens included (bench/README.md, "GraphQL caches", says how it was measured)."""


class ByteBudgetCache:
    """A least-recently-used cache of values with an estimated size in bytes, holding at most
    ``budget`` bytes in all (a value larger than the whole budget is not kept)."""

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.held = 0
        self._entries: OrderedDict[Hashable, tuple[Any, int]] = OrderedDict()
        self._lock = threading.Lock()
        """Documents are parsed and answered in worker threads too (GraphQLEndpoint)."""

    def get(self, key: Hashable) -> Any:
        """The value kept for ``key`` (now the most recently used), or None."""
        with self._lock:
            entry = self._entries.get(key)
            if entry is None:
                return None
            self._entries.move_to_end(key)
        return entry[0]

    def put(self, key: Hashable, value: Any, size: int) -> None:
        """Keep ``value``, dropping the least recently used entries until the budget holds."""
        if size > self.budget:
            return
        with self._lock:
            old = self._entries.pop(key, None)
            if old is not None:
                self.held -= old[1]
            self._entries[key] = (value, size)
            self.held += size
            while self.held > self.budget:
                _, (_, dropped) = self._entries.popitem(last=False)
                self.held -= dropped

    def __len__(self) -> int:
        return len(self._entries)
