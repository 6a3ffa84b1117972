"""GraphQL documents as the service takes them: parsed with the token limit, checked against the other
limits (:mod:`sevens_rules.api.graphql_limits`), validated with graphql-core's rules and the service's own
(one operation field per document, few repeats of one response name), prepared for execution and kept
within the worker's byte budget. :mod:`sevens_rules.api.graphql` builds the schema that answers through
them.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, NamedTuple

from graphql import (
    ASTValidationRule,
    DocumentNode,
    FieldNode,
    FragmentDefinitionNode,
    FragmentSpreadNode,
    GraphQLError,
    GraphQLSchema,
    InlineFragmentNode,
    OperationDefinitionNode,
    SelectionSetNode,
    ValidationContext,
    ValidationRule,
    parse,
    specified_rules,
)

from ..schema.common import MAX_LISTED_ISSUES
from .graphql_execution import Coercers, PreparedOperation
from .graphql_limits import (
    BYTES_PER_CHARACTER,
    ByteBudgetCache,
    DocumentLimits,
    DocumentShape,
    check_document,
    over_tokens,
    surely_over_tokens,
    too_many_tokens,
)
from .library_internals import (
    ValidationAbortedError,
    max_aliases_rule,
    max_depth_rule,
    validate_as_strawberry,
)
from .limits import Settings

ROOT_FIELDS_WITHOUT_OPERATION = frozenset({"games", "__typename", "__schema", "__type"})
"""Root fields that run no operation (static data, introspection); every other root field runs an
operation on its arguments. (The limits checked before validation are stricter:
:data:`~sevens_rules.api.graphql_limits.FREE_ROOT_FIELDS` counts introspection too.)"""


class OneOperationField(ValidationRule):
    """Refuse a document that selects more than one operation field (aliases and fragments included).

    This is the GraphQL cost limit: an operation's cost is bounded by its arguments, which the body limit
    bounds, so one operation per request makes a request cost at most one REST request. Several aliases
    of one field would otherwise multiply a large state variable (README, "Limits").
    """

    def __init__(self, context: ValidationContext) -> None:
        super().__init__(context)
        self.operation_fields = 0

    def enter_field(self, node: FieldNode, *_args: Any) -> None:
        """Count a root field that runs an operation; report the second one."""
        if self.context.get_parent_type() is not self.context.schema.query_type:
            return
        if node.name.value in ROOT_FIELDS_WITHOUT_OPERATION:
            return
        self.operation_fields += 1
        if self.operation_fields == 2:
            self.report_error(
                GraphQLError(
                    "A document may select at most one operation field (aliases and fragments included); "
                    "send one request per operation.",
                    node,
                )
            )


MAX_REPEATS = 8
"""The most times one response name may be selected in one selection set (fragments expanded)."""


class FewRepeatedFields(ValidationRule):
    """Refuse, before any other rule runs, a selection set that selects one response name many times.

    graphql-core's OverlappingFieldsCanBeMerged compares every pair of same-named fields: 500 copies of
    ``id`` took a second. Fragments are expanded with memoised counts, so nested spreads cost nothing.
    """

    def enter_document(self, node: DocumentNode, *_args: Any) -> None:
        """Count the response names of every selection set; abort validation past the limit."""
        fragments = {d.name.value: d for d in node.definitions if isinstance(d, FragmentDefinitionNode)}
        memo: dict[str, Counter[str]] = {}

        def names(selection_set: SelectionSetNode | None, seen: frozenset[str]) -> Counter[str]:
            counts: Counter[str] = Counter()
            for selection in selection_set.selections if selection_set else ():
                if isinstance(selection, FieldNode):
                    counts[(selection.alias or selection.name).value] += 1
                    check(names(selection.selection_set, seen))
                elif isinstance(selection, InlineFragmentNode):
                    counts += names(selection.selection_set, seen)
                elif isinstance(selection, FragmentSpreadNode):
                    name = selection.name.value
                    if name in fragments and name not in seen:  # a cycle is another rule's error
                        if name not in memo:
                            memo[name] = names(fragments[name].selection_set, seen | {name})
                        counts += memo[name]
            return counts

        def check(counts: Counter[str]) -> None:
            name, times = max(counts.items(), key=lambda item: item[1], default=("", 0))
            if times > MAX_REPEATS:
                raise ValidationAbortedError(
                    f"'{name}' is selected {times} times in one selection set; at most {MAX_REPEATS}."
                )

        for definition in node.definitions:
            if isinstance(definition, OperationDefinitionNode | FragmentDefinitionNode):
                check(names(definition.selection_set, frozenset()))


MAX_VALIDATION_ERRORS = MAX_LISTED_ISSUES
"""Validation stops after this many errors (the answer lists no more)."""


def _operation_names(document: DocumentNode) -> frozenset[str | None]:
    """The names a request may run ``document``'s operations by: each named operation's name, and None
    when the document has one operation only."""
    operations = [node for node in document.definitions if isinstance(node, OperationDefinitionNode)]
    names: set[str | None] = {node.name.value for node in operations if node.name is not None}
    if len(operations) == 1:
        names.add(None)
    return frozenset(names)


class _Kept(NamedTuple):
    """A document that parsed, passed the limits and validated, with its prepared operations."""

    document: DocumentNode
    shape: DocumentShape
    prepared: dict[str | None, PreparedOperation]
    operations: frozenset[str | None]
    """The names a request may run its operations by (:func:`_operation_names`)."""
    quick: set[str | None]
    """The names of its operations whose last answer took less than :data:`QUICK_SECONDS` of CPU: the
    endpoint answers them on the event loop (every other document is answered in a worker thread)."""


QUICK_SECONDS = 0.002
"""A document answered within this much CPU time is answered on the event loop next time."""


class Documents:
    """Parses with the token limit, checks the other limits (:mod:`sevens_rules.api.graphql_limits`),
    validates with the service's rules and prepares operations for execution.

    Documents that validate are kept by their text in :attr:`cache`, within the worker's byte budget
    (``RULES_GRAPHQL_CACHE_BYTES``); a document that fails to parse, passes a limit or fails validation
    is not kept, so new bad documents cost their work and no memory. The rules are built once: the stock
    limiter extensions make new rule classes per request (strawberry issue 4635).
    """

    def __init__(self, schema: GraphQLSchema, settings: Settings) -> None:
        self.schema = schema
        self.rules: tuple[type[ASTValidationRule], ...] = (
            *specified_rules,
            FewRepeatedFields,
            max_depth_rule(settings.graphql_max_depth, callback=None, should_ignore=None),
            max_aliases_rule(settings.graphql_max_aliases),
            OneOperationField,
        )
        self.limits = DocumentLimits.from_settings(settings)
        self.cache = ByteBudgetCache(settings.graphql_cache_bytes)
        """Every GraphQL cache of the worker: documents and introspection answers."""
        self.coercers = Coercers(schema)
        self._checked: tuple[str, DocumentNode, DocumentShape] | None = None
        """The last document parsed and checked but not yet validated (validation follows at once)."""

    def parse(self, query: str) -> DocumentNode:
        """The parsed document; raises graphql-core's syntax error, or :class:`DocumentOverLimitError`."""
        return self.checked(query)[0]

    def checked(self, query: str) -> tuple[DocumentNode, DocumentShape]:
        """The parsed document and its shape, after the limits' checks."""
        kept: _Kept | None = self.cache.get(query)
        if kept is not None:
            return kept.document, kept.shape
        checked = self._checked
        if checked is not None and checked[0] == query:
            return checked[1], checked[2]
        if surely_over_tokens(query, self.limits):
            raise too_many_tokens(self.limits)
        try:
            document = parse(query, max_tokens=self.limits.max_tokens)
        except GraphQLError as error:
            over = over_tokens(error, self.limits)
            if over is not None:
                raise over from None
            raise
        shape = check_document(document, self.limits)
        self._checked = (query, document, shape)
        return document, shape

    def validation_errors(self, query: str) -> list[GraphQLError]:
        """graphql-core's and the service's validation errors of the document (at most
        :data:`MAX_VALIDATION_ERRORS`, then one saying validation stopped); a valid document is kept."""
        if self.cache.get(query) is not None:
            return []
        document, shape = self.checked(query)
        errors = validate_as_strawberry(self.schema, document, self.rules, MAX_VALIDATION_ERRORS)
        self._checked = None
        if not errors:
            kept = _Kept(document, shape, {}, _operation_names(document), set())
            self.cache.put(query, kept, len(query) * BYTES_PER_CHARACTER)
        return errors

    def is_quick(self, query: str, operation_name: str | None) -> bool:
        """Whether this operation of the document was answered quickly last time (see :class:`_Kept`)."""
        kept: _Kept | None = self.cache.get(query)
        return kept is not None and operation_name in kept.quick

    def answered_in(self, query: str, operation_name: str | None, seconds: float) -> None:
        """Note the CPU time the operation's answer took, if the document is kept and the name is one of
        its operations' (a request may send any name: each unknown one kept would grow the set, outside
        the cache's byte budget)."""
        kept: _Kept | None = self.cache.get(query)
        if kept is None or operation_name not in kept.operations:
            return
        if seconds < QUICK_SECONDS:
            kept.quick.add(operation_name)
        else:
            kept.quick.discard(operation_name)

    def prepared(self, query: str, operation_name: str | None) -> PreparedOperation | None:
        """The operation prepared for execution (kept with its document), or None to let graphql-core
        set up the request."""
        kept: _Kept | None = self.cache.get(query)
        if kept is not None and operation_name in kept.prepared:
            return kept.prepared[operation_name]
        prepared = self.coercers.prepare(self.parse(query), operation_name)
        if kept is not None and prepared is not None:  # operation names of the document only
            kept.prepared[operation_name] = prepared
        return prepared
