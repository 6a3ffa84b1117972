"""Every GraphQL document is bounded before it is validated or run, and the worker's GraphQL caches by
bytes: each limit refuses with a 400 problem naming its setting, and bad documents are not remembered."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import httpx
import pytest
from graphql import get_introspection_query
from starlette.testclient import TestClient

from sevens_rules.api.app import create_app
from sevens_rules.api.graphql_http import GraphQLEndpoint
from sevens_rules.api.graphql_limits import (
    _LEXICAL_TOKEN,
    ByteBudgetCache,
    DocumentLimits,
    surely_over_tokens,
)
from sevens_rules.api.limits import Settings, SettingsError
from tests.test_api_errors import graphql

Json = Any


def endpoint_of(app: Any) -> GraphQLEndpoint:
    endpoint = next(route.endpoint for route in app.routes if getattr(route, "path", None) == "/graphql")
    assert isinstance(endpoint, GraphQLEndpoint)
    return endpoint


@pytest.fixture
def fresh() -> Iterator[tuple[TestClient, GraphQLEndpoint]]:
    """A client of an app of its own (its caches start empty)."""
    app = create_app(Settings())
    with TestClient(app, raise_server_exceptions=False) as test_client:
        yield test_client, endpoint_of(app)


def refused(response: httpx.Response, setting: str) -> None:
    assert response.status_code == 400, response.text
    body = response.json()
    assert body["code"] == "graphql/too-costly", body
    assert setting in body["detail"], body
    assert body["errors"] == [{"path": "/query", "message": body["detail"]}]


def spreads(count: int) -> str:
    return (
        "{ games { "
        + " ".join(f"...F{i}" for i in range(count))
        + " } } "
        + " ".join(f"fragment F{i} on GameInfo {{ id }}" for i in range(count))
    )


def doubling(levels: int) -> str:
    """Fragments that each spread the next twice: 2**levels fields expanded from a short text."""
    body = " ".join(f"fragment F{i} on GameInfo {{ ...F{i + 1} ...F{i + 1} }}" for i in range(levels))
    return f"{{ games {{ ...F0 }} }} {body} fragment F{levels} on GameInfo {{ id }}"


LIMITS = [
    ("tokens", "{ games { " + "id " * 1_501 + "} }", "RULES_GRAPHQL_MAX_TOKENS"),
    (
        "aliases",
        "{ games { " + " ".join(f"a{i}: id" for i in range(16)) + " } }",
        "RULES_GRAPHQL_MAX_ALIASES",
    ),
    ("directives", "{ games " + "@skip(if: false) " * 21 + "{ id } }", "RULES_GRAPHQL_MAX_DIRECTIVES"),
    ("fragments", spreads(51), "RULES_GRAPHQL_MAX_FRAGMENTS"),
    ("fields through fragments", doubling(12), "RULES_GRAPHQL_MAX_FIELDS"),
    ("depth", "{ games " + "{ options " * 13 + "{ name }" + " }" * 14, "RULES_GRAPHQL_MAX_DEPTH"),
    (
        "variables",
        "query(" + " ".join(f"$v{i}: Int" for i in range(21)) + ") { games { id } }",
        "RULES_GRAPHQL_MAX_VARIABLES",
    ),
    (
        "introspection aliased",
        "{ a: __schema { types { name } } b: __schema { types { name } } }",
        "one operation",
    ),
    (
        "introspection and an operation",
        '{ __type(name: "Query") { name } sjuanNew(players: 3) { __typename } }',
        "one",
    ),
]


@pytest.mark.parametrize(("query", "setting"), [c[1:] for c in LIMITS], ids=[c[0] for c in LIMITS])
def test_a_document_over_a_limit_is_a_400_naming_it(client: TestClient, query: str, setting: str) -> None:
    refused(graphql(client, query), setting)


def test_depth_is_counted_through_fragments() -> None:
    query = (
        "{ sjuanNew(players: 3) { ...R } } fragment R on SjuanNewResponse { state { ...S } } "
        "fragment S on SjuanState { deals { cards_left } }"
    )
    with TestClient(create_app(Settings(graphql_max_depth=2)), raise_server_exceptions=False) as shallow:
        refused(graphql(shallow, query), "RULES_GRAPHQL_MAX_DEPTH")


def test_fragments_are_counted_through_spreads_once_each(client: TestClient) -> None:
    assert graphql(client, spreads(40)).status_code == 200  # 80 fragments and spreads
    assert graphql(client, doubling(8)).status_code == 200  # 256 fields expanded, under the limit


def test_an_answer_past_the_value_budget_is_refused() -> None:
    query = "{ games { id options { name description default choices minimum maximum } } }"
    with TestClient(create_app(Settings(graphql_max_values=100)), raise_server_exceptions=False) as small:
        refused(graphql(small, query), "RULES_GRAPHQL_MAX_VALUES")
        assert "errors" not in graphql(small, "{ games { id } }").json()


def test_an_answer_past_the_byte_limit_is_refused() -> None:
    with TestClient(
        create_app(Settings(graphql_max_answer_bytes=65_536)), raise_server_exceptions=False
    ) as small:
        refused(graphql(small, get_introspection_query()), "RULES_GRAPHQL_MAX_ANSWER_BYTES")


def test_validation_stops_after_twenty_errors(client: TestClient) -> None:
    query = "{ games { " + " ".join(f"unknown{i}" for i in range(300)) + " } }"
    errors = graphql(client, query).json()["errors"]
    assert len(errors) == 21 and "more errors" in errors[-1]["message"]
    # every error carries a code, the summary too
    assert {error["extensions"]["code"] for error in errors} == {"GRAPHQL_VALIDATION_FAILED"}


def test_documents_that_fail_are_not_cached(fresh: tuple[TestClient, GraphQLEndpoint]) -> None:
    client, endpoint = fresh
    cache = endpoint.documents.cache
    for query in ("{ games { id }", "{ games { nope } }", "{ games { " + "id " * 1_501 + "} }", doubling(12)):
        graphql(client, query)
    assert len(cache) == 0 and cache.held == 0
    graphql(client, "{ games { id } }")
    assert len(cache) == 1


def test_the_caches_stay_within_their_byte_budget() -> None:
    budget = 200_000
    app = create_app(Settings(graphql_cache_bytes=budget))
    cache = endpoint_of(app).documents.cache
    with TestClient(app, raise_server_exceptions=False) as client:
        for i in range(60):
            assert "errors" not in graphql(client, f"{{ games {{ id name }} }} # {i} {'x' * 200}").json()
            assert cache.held <= budget
        graphql(client, get_introspection_query(descriptions=False) + "\n{ __typename }".replace("{", "#"))
    assert 0 < len(cache) < 60 and cache.held <= budget


def test_a_cache_keeps_the_recently_used_within_its_budget() -> None:
    cache = ByteBudgetCache(100)
    cache.put("a", 1, 40)
    cache.put("b", 2, 40)
    assert cache.get("a") == 1  # now the most recently used
    cache.put("c", 3, 40)
    assert (cache.get("a"), cache.get("b"), cache.get("c"), cache.held) == (1, None, 3, 80)
    cache.put("d", 4, 101)  # larger than the whole budget: not kept
    assert cache.get("d") is None and cache.held == 80


def test_an_introspection_answer_is_computed_once_per_selection(
    fresh: tuple[TestClient, GraphQLEndpoint], monkeypatch: pytest.MonkeyPatch
) -> None:
    client, endpoint = fresh
    runs = []
    answer = endpoint.schema.answer

    def counted(*args: Any) -> Any:
        runs.append(args[0])
        return answer(*args)

    monkeypatch.setattr(endpoint.schema, "answer", counted)
    selection = "{ __schema { types { name kind } } }"
    bodies = {graphql(client, f"# {n}\n{selection} # {n}\n").content for n in range(5)}
    bodies.add(graphql(client, selection.replace(" ", "  ").replace("name", "name,")).content)
    assert len(bodies) == 1 and len(runs) == 1
    standard = get_introspection_query()
    first = graphql(client, standard + "# 1").json()
    assert graphql(client, standard + "# 2").json() == first and len(runs) == 2
    assert first["data"]["__schema"]["queryType"] == {"name": "Query", "kind": "OBJECT"}


def test_the_standard_introspection_query_is_answered_at_the_defaults(client: TestClient) -> None:
    for descriptions in (True, False):
        body = graphql(client, get_introspection_query(descriptions=descriptions)).json()
        assert "errors" not in body and body["data"]["__schema"]["types"]


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("RULES_GRAPHQL_MAX_DIRECTIVES", "10001"),
        ("RULES_GRAPHQL_MAX_FRAGMENTS", "-1"),
        ("RULES_GRAPHQL_MAX_FIELDS", "0"),
        ("RULES_GRAPHQL_MAX_VARIABLES", "many"),
        ("RULES_GRAPHQL_MAX_VALUES", "99"),
        ("RULES_GRAPHQL_MAX_ANSWER_BYTES", "1024"),
        ("RULES_GRAPHQL_CACHE_BYTES", str((1 << 30) + 1)),
    ],
)
def test_a_graphql_limit_out_of_range_stops_the_service(name: str, value: str) -> None:
    with pytest.raises(SettingsError, match=name):
        Settings.from_env({name: value})


def test_the_graphql_limits_are_read_from_the_environment() -> None:
    read = Settings.from_env({"RULES_GRAPHQL_MAX_VALUES": "5000", "RULES_GRAPHQL_CACHE_BYTES": "0"})
    assert (read.graphql_max_values, read.graphql_cache_bytes) == (5000, 0)
    defaults = Settings()
    assert (defaults.graphql_max_tokens, defaults.graphql_cache_bytes) == (1500, 16 << 20)
    assert defaults.graphql_max_answer_bytes == 1 << 20


def _parser_tokens(query: str) -> int:
    from graphql.language.lexer import Lexer
    from graphql.language.source import Source
    from graphql.language.token_kind import TokenKind

    lexer, count = Lexer(Source(query)), 0
    while lexer.advance().kind is not TokenKind.EOF:
        count += 1
    return count


TOKEN_SAMPLES = [
    get_introspection_query(descriptions=True),
    '{ games { id name } } # a comment with "quotes" and { braces }\n',
    "query Q($s: SjuanStateInput!, $n: Int = -12, $f: Float = 1.5e-3) { sjuanMoves(state: $s) { x } }",
    "{ a: __typename b: __typename } fragment F on GameInfo @skip(if: true) { id ...G }",
    '{ f(text: "a \\" quoted # not a comment", block: """ a block with "quotes" and \\""" inside """) }',
    "{ list(of: [1, 2, 3], obj: {a: null, b: true, c: ENUM}) }",
]


@pytest.mark.parametrize("query", TOKEN_SAMPLES)
def test_the_fast_token_count_is_the_parsers_count(query: str) -> None:
    tokens = _parser_tokens(query)
    defaults = DocumentLimits.from_settings(Settings())
    assert not surely_over_tokens(query, replace(defaults, max_tokens=tokens))
    assert surely_over_tokens(query, replace(defaults, max_tokens=tokens - 1))


@pytest.mark.parametrize("unclosed", ['"' + '\\"' * 20, '"""' + '"a' * 20, '{ f(s: "' + '\\"' * 20 + "\n) }"])
def test_a_string_never_closed_is_one_token_to_where_it_stops(unclosed: str) -> None:
    """The token count scans an unclosed string once: as a match up to where its scan stops (the end of
    the text or the line), not a failed match tried again from every quote inside it, which makes a
    scan to the end per quote (a 64 KB document of escaped quotes took the worker about 40 s)."""
    strings = [match.span() for match in _LEXICAL_TOKEN.finditer(unclosed) if match.group()[0] == '"']
    start = unclosed.index('"')
    stop = unclosed.index("\n") if "\n" in unclosed else len(unclosed)
    assert strings == [(start, stop)]


def test_a_large_document_with_a_string_never_closed_is_a_syntax_error(client: TestClient) -> None:
    body = {"query": '"' + '\\"' * 15_000}  # 60 KB of JSON, within the default 64 KiB body
    answer = client.post("/graphql", json=body)
    assert answer.json()["errors"][0]["extensions"]["code"] == "GRAPHQL_PARSE_FAILED", answer.text


def test_a_document_far_over_the_token_limit_is_refused_before_it_is_parsed(
    fresh: tuple[TestClient, GraphQLEndpoint], monkeypatch: pytest.MonkeyPatch
) -> None:
    client, _ = fresh
    import sevens_rules.api.graphql_documents as documents_module

    def no_parsing(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("parsed a document the token count refuses")

    monkeypatch.setattr(documents_module, "parse", no_parsing)
    query = "{ " + " ".join(f"f{i}" for i in range(6000)) + " }"
    refused(graphql(client, query), "RULES_GRAPHQL_MAX_TOKENS")


def test_a_document_answered_quickly_is_answered_on_the_event_loop_next_time(
    fresh: tuple[TestClient, GraphQLEndpoint],
) -> None:
    client, endpoint = fresh
    query = "{ games { id } }"
    assert not endpoint.documents.is_quick(query, None)  # never answered: a worker thread answers it
    first = graphql(client, query)
    assert first.status_code == 200 and first.json()["data"]["games"]
    endpoint.documents.answered_in(query, None, 0.0)  # as an answer within the quick time records it
    assert endpoint.documents.is_quick(query, None)
    assert graphql(client, query).json() == first.json()  # answered on the event loop, the same
    endpoint.documents.answered_in(query, None, 1.0)  # a slow answer: to a worker thread again
    assert not endpoint.documents.is_quick(query, None)
    assert graphql(client, query).json() == first.json()
    assert not endpoint.documents.is_quick("{ games { name } }", None)  # another document: not kept yet


def test_a_kept_introspection_answer_counts_as_what_it_took_to_make(
    fresh: tuple[TestClient, GraphQLEndpoint],
) -> None:
    """A kept answer is a lookup, but the cache may forget it by the next request (another client can
    make it do so, with one large document): the document is as quick as making its answer was, so one
    whose answer was slow to make is made again in a worker thread, never on the event loop."""
    client, endpoint = fresh
    query = "{ __schema { queryType { name } } }"
    first = graphql(client, query)
    assert first.status_code == 200 and first.json()["data"]["__schema"]["queryType"]["name"] == "Query"
    cache = endpoint.documents.cache
    [key] = [key for key in list(cache._entries) if isinstance(key, tuple)]  # the kept answer's
    payload, _ = cache.get(key)
    cache.put(key, (payload, 1.0), len(payload) + len(key[0]))  # as if making it had been slow
    assert graphql(client, query).json() == first.json()  # the kept answer
    assert not endpoint.documents.is_quick(query, None)
    cache.put(key, (payload, 0.0), len(payload) + len(key[0]))  # made quickly
    assert graphql(client, query).json() == first.json()
    assert endpoint.documents.is_quick(query, None)


def test_an_answer_refused_past_the_value_budget_is_timed_like_any_other(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A refusal costs the work done until it: a document whose last answer was quick is no longer kept as
    quick once an answer of it was refused over the value budget (else its next costly answers would be
    worked out on the event loop)."""
    import sevens_rules.api.graphql_documents as documents_module

    query = "query($all: Boolean!) { games { id options @include(if: $all) { name description default } } }"
    app = create_app(Settings(graphql_max_values=100))
    endpoint = endpoint_of(app)
    with TestClient(app, raise_server_exceptions=False) as small:
        assert (
            "errors" not in small.post("/graphql", json={"query": query, "variables": {"all": False}}).json()
        )
        endpoint.documents.answered_in(query, None, 0.0)  # its answers so far: quick
        assert endpoint.documents.is_quick(query, None)
        monkeypatch.setattr(documents_module, "QUICK_SECONDS", 0.0)  # any time at all counts as slow now
        refused(
            small.post("/graphql", json={"query": query, "variables": {"all": True}}),
            "RULES_GRAPHQL_MAX_VALUES",
        )
        assert not endpoint.documents.is_quick(query, None)


def test_several_operations_without_an_operation_name_are_refused(
    fresh: tuple[TestClient, GraphQLEndpoint],
) -> None:
    # the GraphQL spec's GetOperation: with several operations, operationName says which one to run
    client, _ = fresh
    query = "query A { games { id } } query B { games { name } }"
    answer = client.post("/graphql", json={"query": query}).json()
    assert answer["data"] is None and "operation name" in answer["errors"][0]["message"]
    named = client.post("/graphql", json={"query": query, "operationName": "B"}).json()
    assert "errors" not in named and set(named["data"]["games"][0]) == {"name"}
    assert "errors" not in client.post("/graphql", json={"query": "query A { games { id } }"}).json()


def test_unknown_operation_names_keep_nothing_and_answer_briefly(
    fresh: tuple[TestClient, GraphQLEndpoint],
) -> None:
    """A kept document asked for operations it does not have: each is refused with its name cut in the
    answer, and nothing of the names is kept (each name kept grew the worker's memory outside the cache
    budget)."""
    client, endpoint = fresh
    query = "query A { games { id } }"
    assert "errors" not in client.post("/graphql", json={"query": query}).json()
    for number in range(30):
        name = "x" * 20_000 + str(number)
        answer = client.post("/graphql", json={"query": query, "operationName": name})
        assert answer.status_code == 400 and answer.json()["code"] == "graphql/bad-request", answer.text
        assert len(answer.content) < 2_000
    assert "errors" not in client.post("/graphql", json={"query": query, "operationName": "A"}).json()
    kept = endpoint.documents.cache.get(query)
    assert kept is not None and kept.quick <= {None, "A"}
