"""The referee remembers: one successor per version (embedded SQLite and a real Redis), seats that join
with their own entropy, and the attacks a stateless referee allowed, replayed and refused."""

from __future__ import annotations

import asyncio
import concurrent.futures
import itertools
import multiprocessing
import random
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import closing
from pathlib import Path
from typing import Any

import httpx
import orjson
import pytest

from bench.redis_server import REDIS_SERVER, RedisProcess, redis_server
from sevens_rules.api.app import create_app
from sevens_rules.api.limits import Settings, SettingsError
from sevens_rules.api.match_store import (
    KEPT_SUCCESSORS,
    EmbeddedStore,
    MatchStore,
    StaleVersionError,
)
from sevens_rules.api.redis_store import RedisStore
from sevens_rules.api.sealed import sealed_models, sealed_runs
from sevens_rules.api.sealing import open_token
from sevens_rules.api.stores import store_from_setting
from sevens_rules.engine.dealing import Seeding
from sevens_rules.engine.registry import GAMES
from sevens_rules.engine.seven_up_rules import cut_for_dealer
from tests.sealed_helpers import call, dealt, documented, keyring
from tests.seeds import seed_hex

RING = keyring("k1=1")

requires_redis = pytest.mark.skipif(
    not Path(REDIS_SERVER).exists(), reason="redis-server is not installed (.ci/run installs it)"
)


@pytest.fixture(scope="module")
def redis(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisProcess]:
    """One redis-server for the module's tests (each match has its own random id)."""
    if not Path(REDIS_SERVER).exists():
        pytest.skip("redis-server is not installed (.ci/run installs it)")
    with redis_server(tmp_path_factory.mktemp("redis")) as server:
        yield server


@pytest.fixture(params=["embedded", "redis"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> MatchStore:
    """Each store that remembers: SQLite in a fresh data directory, and the real Redis."""
    if request.param == "embedded":
        return EmbeddedStore(tmp_path)
    server: RedisProcess = request.getfixturevalue("redis")
    return RedisStore(server.url)


def _state(game_id: str, token: str) -> Any:
    return GAMES[game_id].models.state.model_validate_json(open_token(RING, game_id, token).state_json)


def _body(token: str, seat: int, key: str, **extra: Any) -> dict[str, Any]:
    return {"token": token, "seat": seat, "seat_key": key, **extra}


def _move_json(move: Any) -> dict[str, Any]:
    loaded: dict[str, Any] = orjson.loads(move.model_dump_json())
    return loaded


def _played_until(
    game_id: str, players: int, store: MatchStore | None, wanted: Callable[[Any], bool], seed: str
) -> tuple[dict[str, Any], str]:
    """A dealt match played at random (through the store) until ``wanted(state)``: the match and token."""
    game, rng = GAMES[game_id], random.Random(seed)
    match = dealt(RING, game_id, players, store)
    token = match["token"]
    for _ in range(400):
        state = _state(game_id, token)
        if wanted(state):
            return match, token
        seat = game.to_act(state)[0]
        move = rng.choice(game.legal_moves(state, seat))
        status, applied = call(
            RING, game_id, "apply", _body(token, seat, match["seat_keys"][seat], move=_move_json(move)), store
        )
        assert status == 200, applied
        token = applied["token"]
    raise AssertionError(f"no such position of {game_id} in 400 moves")


def _types(game_id: str, state: Any, seat: int) -> set[str]:
    return {move.type for move in GAMES[game_id].legal_moves(state, seat)}


# ---- the fork oracle, the rollback, retries ------------------------------------------------------------


def _refuses_a_second_move(
    game_id: str, match: dict[str, Any], token: str, seat: int, store: MatchStore
) -> None:
    """Seat ``seat`` plays one legal move; a different one on the same token is refused, revealing nothing
    of it, and naming the latest version with its token; the first move again answers the same."""
    state = _state(game_id, token)
    first, second = GAMES[game_id].legal_moves(state, seat)[:2]
    key = match["seat_keys"][seat]
    status, played = call(RING, game_id, "apply", _body(token, seat, key, move=_move_json(first)), store)
    assert status == 200, played
    status, probed = call(RING, game_id, "apply", _body(token, seat, key, move=_move_json(second)), store)
    assert status == 409 and probed["code"] == "match/stale", probed
    assert probed["latest_version"] == played["version"] and probed["latest_token"] == played["token"]
    assert "events" not in probed and "token" not in probed
    status, again = call(RING, game_id, "apply", _body(token, seat, key, move=_move_json(first)), store)
    assert (status, again) == (200, played)  # a retry is safe: the same successor and events


def test_a_move_refused_on_a_token_older_than_the_latest_is_stale(store: MatchStore) -> None:
    """A move sent on a consumed version is 409 match/stale with the latest token whether or not it is
    legal in that version's state: the next seat's move (not its turn there) and a card the seat that
    moved may not play there. On the latest token a card the seat may not play is illegal."""
    game = GAMES["sjuan"]
    match = dealt(RING, "sjuan", 3, store)
    token, keys = match["token"], match["seat_keys"]

    def sent(on: str, seat: int, move: dict[str, Any]) -> tuple[int, Any]:
        return call(RING, "sjuan", "apply", _body(on, seat, keys[seat], move=move), store)

    def unplayable(state: Any, seat: int) -> dict[str, Any]:
        listed = {move.card for move in game.legal_moves(state, seat) if move.type == "play"}
        card = next(card for card in state.hands[seat] if card not in listed)
        return {"type": "play", "player": seat, "card": card}

    state = _state("sjuan", token)
    seat = game.to_act(state)[0]
    status, played = sent(token, seat, _move_json(game.legal_moves(state, seat)[0]))
    assert status == 200, played
    after = _state("sjuan", played["token"])
    following = game.to_act(after)[0]
    assert following != seat
    for refused_seat, move in (
        (following, _move_json(game.legal_moves(after, following)[0])),
        (seat, unplayable(state, seat)),
    ):
        status, refused = sent(token, refused_seat, move)
        assert status == 409 and refused["code"] == "match/stale", refused
        assert refused["latest_version"] == played["version"] and refused["latest_token"] == played["token"]
    status, refused = sent(played["token"], following, unplayable(after, following))
    assert status == 409 and refused["code"] == "move/illegal", refused


def test_a_move_refused_on_a_token_the_store_does_not_hold_is_unknown(store: MatchStore) -> None:
    """A refused move (not the seat's turn, or a card it may not play) on a match the store does not hold
    is 410 match/unknown, as a legal one is; and on a token newer than the store's latest (the store lost
    claims) the store forgets the match, whichever move came first."""
    game = GAMES["sjuan"]

    def refused_moves(state: Any) -> list[tuple[int, dict[str, Any]]]:
        seat = game.to_act(state)[0]
        other = (seat + 1) % 3
        listed = {move.card for move in game.legal_moves(state, seat) if move.type == "play"}
        card = next(card for card in state.hands[seat] if card not in listed)
        return [
            (other, {"type": "pass", "player": other}),
            (seat, {"type": "play", "player": seat, "card": card}),
        ]

    stateless = dealt(RING, "sjuan", 3, None)  # dealt by a referee without memory
    state = _state("sjuan", stateless["token"])
    for seat, move in refused_moves(state):
        body = _body(stateless["token"], seat, stateless["seat_keys"][seat], move=move)
        status, refused = call(RING, "sjuan", "apply", body, store)
        assert status == 410 and refused["code"] == "match/unknown", refused
    match = dealt(RING, "sjuan", 3, store)
    keys = match["seat_keys"]
    state = _state("sjuan", match["token"])
    seat = game.to_act(state)[0]
    legal = _move_json(game.legal_moves(state, seat)[0])
    status, ahead = call(
        RING, "sjuan", "apply", _body(match["token"], seat, keys[seat], move=legal)
    )  # no store
    assert status == 200, ahead
    refused_seat, refused_move = refused_moves(_state("sjuan", ahead["token"]))[0]
    body = _body(ahead["token"], refused_seat, keys[refused_seat], move=refused_move)
    status, refused = call(RING, "sjuan", "apply", body, store)
    assert status == 410 and refused["code"] == "match/unknown", refused
    status, forgotten = call(
        RING, "sjuan", "apply", _body(match["token"], seat, keys[seat], move=legal), store
    )
    assert status == 410 and forgotten["code"] == "match/unknown", forgotten


def test_a_retry_is_answered_alike_by_the_worker_that_applied_it_and_by_another(store: MatchStore) -> None:
    """A worker answers a request the store accepted from its own memory when it comes again; that
    answer is the one another worker gets from the store, and a different move is still refused."""
    game = GAMES["sedmice"]
    match = dealt(RING, "sedmice", 4, store)
    token = match["token"]
    state = _state("sedmice", token)
    seat = game.to_act(state)[0]
    first_move, other_move = game.legal_moves(state, seat)[:2]  # a Sedmice seat opens with any card
    request = sealed_models("sedmice").apply_request
    key = match["seat_keys"][seat]

    def applied(worker: Any, move: Any) -> Any:
        body = _body(token, seat, key, move=_move_json(move))
        answer = worker["apply"](request.model_validate_json(orjson.dumps(body)))
        return asyncio.run(answer) if asyncio.iscoroutine(answer) else answer

    one, another = sealed_runs(game, RING, store=store), sealed_runs(game, RING, store=store)
    played = applied(one, first_move)
    assert applied(one, first_move) == played  # from the worker's memory
    assert applied(another, first_move) == played  # from the store
    for worker in (one, another):
        with pytest.raises(StaleVersionError) as refused:
            applied(worker, other_move)
        assert refused.value.problem_fields["latest_token"] == played.token


def test_claims_settled_together_decide_as_they_would_alone(store: MatchStore) -> None:
    """Claims made while one worker answers many requests at once are settled in one batch: of several
    different moves on one version exactly one wins, the same move twice answers one successor, and
    moves in other matches all go through."""
    game = GAMES["sedmice"]
    request = sealed_models("sedmice").apply_request
    worker = sealed_runs(game, RING, store=store)
    contested = dealt(RING, "sedmice", 4, store)
    others = [dealt(RING, "sedmice", 4, store) for _ in range(3)]

    def body(match: dict[str, Any], pick: int) -> Any:
        state = _state("sedmice", match["token"])
        seat = game.to_act(state)[0]
        move = game.legal_moves(state, seat)[pick]
        data = _body(match["token"], seat, match["seat_keys"][seat], move=_move_json(move))
        return request.model_validate_json(orjson.dumps(data))

    # a Sedmice seat opens with any of its four cards: three different moves, and the first one twice
    bodies = [body(contested, pick) for pick in (0, 1, 2, 0)] + [body(match, 0) for match in others]

    async def everyone() -> list[Any]:
        return await asyncio.gather(*(worker["apply"](b) for b in bodies), return_exceptions=True)

    answers = asyncio.run(everyone())
    contested_answers, other_answers = answers[:4], answers[4:]
    won = [a for a in contested_answers if not isinstance(a, BaseException)]
    assert {a.token for a in won} == {won[0].token}  # one successor: the same move again is a replay
    winning_body = bodies[contested_answers.index(won[0])]
    for b, a in zip(bodies[:4], contested_answers, strict=True):
        if b.move == winning_body.move:
            assert not isinstance(a, BaseException) and a.token == won[0].token
        else:
            assert isinstance(a, StaleVersionError), a
    assert all(not isinstance(a, BaseException) for a in other_answers), other_answers


def test_seven_up_dealer_cannot_try_run_then_give_on_the_same_token(store: MatchStore) -> None:
    match, token = _played_until(
        "seven-up", 2, store, lambda s: {"give", "run"} <= _types("seven-up", s, s.dealer), "beg"
    )
    state = _state("seven-up", token)
    key = match["seat_keys"][state.dealer]
    run = next(m for m in GAMES["seven-up"].legal_moves(state, state.dealer) if m.type == "run")
    give = next(m for m in GAMES["seven-up"].legal_moves(state, state.dealer) if m.type == "give")
    status, ran = call(
        RING, "seven-up", "apply", _body(token, state.dealer, key, move=_move_json(run)), store
    )
    assert status == 200
    status, gave = call(
        RING, "seven-up", "apply", _body(token, state.dealer, key, move=_move_json(give)), store
    )
    assert status == 409 and gave["code"] == "match/stale" and gave["latest_version"] == ran["version"]


def test_california_jack_second_player_cannot_probe_the_trick(store: MatchStore) -> None:
    def second_to_play(state: Any) -> bool:
        return (
            state.phase == "play"
            and len(state.trick) == 1
            and len(GAMES["california-jack"].legal_moves(state, GAMES["california-jack"].to_act(state)[0]))
            >= 2
        )

    match, token = _played_until("california-jack", 2, store, second_to_play, "cj")
    seat = GAMES["california-jack"].to_act(_state("california-jack", token))[0]
    _refuses_a_second_move("california-jack", match, token, seat, store)


def test_my_ship_sails_last_seat_cannot_probe_the_exchange(store: MatchStore) -> None:
    game = GAMES["my-ship-sails"]
    match = dealt(RING, "my-ship-sails", 4, store)
    token = match["token"]
    for seat in range(3):
        move = _move_json(game.legal_moves(_state("my-ship-sails", token), seat)[0])
        status, applied = call(
            RING, "my-ship-sails", "apply", _body(token, seat, match["seat_keys"][seat], move=move), store
        )
        assert status == 200
        token = applied["token"]
    _refuses_a_second_move("my-ship-sails", match, token, 3, store)


def _first_move_applied(match: dict[str, Any], token: str, store: MatchStore) -> tuple[int, Any]:
    """The Sjuan seat to act on ``token`` plays its first legal move: the answer's status and body."""
    game = GAMES["sjuan"]
    state = _state("sjuan", token)
    seat = game.to_act(state)[0]
    move = _move_json(game.legal_moves(state, seat)[0])
    return call(RING, "sjuan", "apply", _body(token, seat, match["seat_keys"][seat], move=move), store)


def test_an_older_token_is_refused_naming_the_latest_version(store: MatchStore) -> None:
    game = GAMES["sjuan"]
    match = dealt(RING, "sjuan", 3, store)
    tokens = [match["token"]]
    for _ in range(3):
        status, applied = _first_move_applied(match, tokens[-1], store)
        assert status == 200
        tokens.append(applied["token"])
    state = _state("sjuan", tokens[1])  # a rollback: back to a token that was played on
    seat = game.to_act(state)[0]
    for move in game.legal_moves(state, seat):
        body = _body(tokens[1], seat, match["seat_keys"][seat], move=_move_json(move))
        status, refused = call(RING, "sjuan", "apply", body, store)
        if status == 200:  # the move that was played there: its successor again, never a new one
            assert refused["token"] == tokens[2]
            continue
        assert refused["code"] == "match/stale" and refused["latest_version"] == match["version"] + 3
        assert refused["latest_token"] == tokens[-1]


def _store_forgets_newer_claims(store: MatchStore, token: str) -> None:
    """The store rolled back to ``token`` (its version and token the match's latest again), as a restored
    backup or a Redis replica promoted before it had the newest claims would be."""
    opened = open_token(RING, "sjuan", token)
    if isinstance(store, EmbeddedStore):
        with closing(sqlite3.connect(store.path)) as db, db:
            db.execute(
                "UPDATE matches SET version = ?, token = ? WHERE match_id = ?",
                (opened.version, token, opened.match_id),
            )
        return
    assert isinstance(store, RedisStore)

    async def roll_back() -> None:
        client = store._client()[0]
        await client.hset(store._key(opened.match_id), mapping={"v": opened.version, "t": token})
        await client.aclose()

    asyncio.run(roll_back())


def test_a_store_that_lost_a_matchs_newest_moves_forgets_the_match(store: MatchStore) -> None:
    """A token newer than the store's latest version means the store lost claims: which branch is the
    match cannot be told, so neither goes on (no fork from the old token, no play on the newer one)."""
    game = GAMES["sjuan"]

    def choice(state: Any) -> bool:  # (a seat with two moves or more: one played, another to fork with)
        return len(game.legal_moves(state, game.to_act(state)[0])) > 1

    match, start = _played_until("sjuan", 3, store, choice, "lost claims")
    tokens = [start]
    for _ in range(3):
        status, applied = _first_move_applied(match, tokens[-1], store)
        assert status == 200, applied
        tokens.append(applied["token"])
    _store_forgets_newer_claims(store, start)
    status, refused = _first_move_applied(match, tokens[-1], store)
    assert (status, refused["code"]) == (410, "match/unknown"), refused
    assert "lost" in refused["detail"]
    state = _state("sjuan", start)  # the version the store now holds as the latest: forgotten too
    seat = game.to_act(state)[0]
    # (the first move was played there: a retry of it is answered as it was, from the worker's memory,
    # making nothing new)
    for legal in game.legal_moves(state, seat)[1:]:
        body = _body(start, seat, match["seat_keys"][seat], move=_move_json(legal))
        status, refused = call(RING, "sjuan", "apply", body, store)
        assert (status, refused["code"]) == (410, "match/unknown"), refused


def test_my_ship_sails_simultaneous_choices_retry_on_the_latest_token(store: MatchStore) -> None:
    # every seat chooses on the token it has; whoever was overtaken retries on the token its refusal hands
    game = GAMES["my-ship-sails"]
    match = dealt(RING, "my-ship-sails", 5, store)
    dealt_token = match["token"]
    state = _state("my-ship-sails", dealt_token)
    latest = dealt_token
    for seat in range(5):
        move = _move_json(game.legal_moves(state, seat)[0])  # chosen from what it saw at the deal
        body = _body(dealt_token, seat, match["seat_keys"][seat], move=move)
        status, answer = call(RING, "my-ship-sails", "apply", body, store)
        if seat > 0:
            assert status == 409 and answer["code"] == "match/stale" and answer["latest_token"] == latest
            status, answer = call(
                RING, "my-ship-sails", "apply", {**body, "token": answer["latest_token"]}, store
            )
        assert status == 200, answer
        latest = answer["token"]
    assert _state("my-ship-sails", latest).exchanges == 1  # the step resolved with every choice


def test_the_store_keeps_a_bounded_number_of_successors_per_match(tmp_path: Path) -> None:
    store = EmbeddedStore(tmp_path)
    moves = itertools.count()
    match, _ = _played_until("sjuan", 3, store, lambda s: next(moves) == 3 * KEPT_SUCCESSORS, "bounded")
    with closing(sqlite3.connect(tmp_path / "matches.sqlite3")) as db:
        (rows,) = db.execute("SELECT count(*) FROM successors").fetchone()
        (version,) = db.execute("SELECT version FROM matches").fetchone()
    assert version == match["version"] + 3 * KEPT_SUCCESSORS  # played well past the bound
    assert rows == KEPT_SUCCESSORS


@requires_redis
def test_redis_keeps_a_bounded_number_of_successors_and_an_idle_expiry(redis: RedisProcess) -> None:
    import redis as redis_client

    store = RedisStore(redis.url, idle_seconds=3600)
    moves = itertools.count()
    match, _ = _played_until("sevens", 4, store, lambda s: next(moves) == 3 * KEPT_SUCCESSORS, "redis")
    key = f"sevens-rules:match:{match['match_id']}"
    with redis_client.Redis.from_url(redis.url) as client:
        fields = client.hkeys(key)
        ttl = client.ttl(key)
    assert len([f for f in fields if f.startswith(b"s")]) <= KEPT_SUCCESSORS
    assert 0 < ttl <= 3600


def test_a_match_left_idle_past_the_idle_time_is_forgotten(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = EmbeddedStore(tmp_path, idle_seconds=60)
    match = dealt(RING, "sevens", 4, store)
    state = _state("sevens", match["token"])
    seat = GAMES["sevens"].to_act(state)[0]
    body = _body(
        match["token"],
        seat,
        match["seat_keys"][seat],
        move=_move_json(GAMES["sevens"].legal_moves(state, seat)[0]),
    )
    later = time.time() + 61
    monkeypatch.setattr("sevens_rules.api.match_store.time.time", lambda: later)
    status, refused = call(RING, "sevens", "apply", body, store)
    assert status == 410 and refused["code"] == "match/unknown"


@pytest.fixture(params=["embedded", "redis"])
def store_of_two(request: pytest.FixtureRequest, tmp_path: Path) -> MatchStore:
    """Each store that remembers, holding at most two matches, forgotten after a minute alone (Redis: a
    database of its own, emptied first, whose set of held matches no other test fills)."""
    if request.param == "embedded":
        return EmbeddedStore(tmp_path, idle_seconds=60, limit=2)
    server: RedisProcess = request.getfixturevalue("redis")
    import redis as redis_client

    url = server.url.removesuffix("/0") + "/5"
    with closing(redis_client.Redis.from_url(url)) as own:
        own.flushdb()
    return RedisStore(url, idle_seconds=60, limit=2)


def test_a_full_store_refuses_new_tables_until_matches_are_forgotten(
    store_of_two: MatchStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """RULES_MATCH_LIMIT: a new table past the limit is 503 store/full, the matches already held go on,
    and a match moved in stays held while one left alone is forgotten and makes room."""
    clock = [time.time()]
    monkeypatch.setattr("sevens_rules.api.match_store.time.time", lambda: clock[0])
    tables = []
    for _ in range(2):
        status, table = call(RING, "sevens", "new", {"players": 4}, store_of_two)
        assert status == 200, table
        tables.append(table)
    status, refused = call(RING, "sevens", "new", {"players": 4}, store_of_two)
    assert status == 503 and refused["code"] == "store/full" and "token" not in refused
    assert documented("/v1/games/sevens/sealed/new", 503)
    clock[0] += 40  # the first table is dealt (a claim: it is touched), the second left alone
    fill = {"token": tables[0]["token"], "host_key": tables[0]["host_key"]}
    status, filled = call(RING, "sevens", "fill", fill, store_of_two)
    assert status == 200, filled
    clock[0] += 21  # the second table's minute is over, the first's is not
    status, table = call(RING, "sevens", "new", {"players": 4}, store_of_two)
    assert status == 200, table
    status, refused = call(RING, "sevens", "new", {"players": 4}, store_of_two)
    assert status == 503 and refused["code"] == "store/full"
    state = _state("sevens", filled["token"])
    seat = GAMES["sevens"].to_act(state)[0]
    move = _move_json(GAMES["sevens"].legal_moves(state, seat)[0])
    body = _body(filled["token"], seat, filled["seat_keys"][seat], move=move)
    status, applied = call(RING, "sevens", "apply", body, store_of_two)
    assert status == 200, applied


def test_a_forgotten_match_is_unknown_and_frees_its_room(store_of_two: MatchStore) -> None:
    """MatchStore.forget (the service's own tables that served nobody): every token of the match is then
    410 match/unknown, and a full store has room for a new table again."""
    matches = [dealt(RING, "sjuan", 3, store_of_two) for _ in range(2)]
    status, refused = call(RING, "sjuan", "new", {"players": 3}, store_of_two)
    assert status == 503 and refused["code"] == "store/full"
    token, keys = matches[0]["token"], matches[0]["seat_keys"]
    asyncio.run(store_of_two.forget(open_token(RING, "sjuan", token).match_id))
    state = _state("sjuan", token)
    seat = GAMES["sjuan"].to_act(state)[0]
    move = _move_json(GAMES["sjuan"].legal_moves(state, seat)[0])
    status, refused = call(RING, "sjuan", "apply", _body(token, seat, keys[seat], move=move), store_of_two)
    assert status == 410 and refused["code"] == "match/unknown", refused
    status, table = call(RING, "sjuan", "new", {"players": 3}, store_of_two)
    assert status == 200, table


def test_a_redis_at_its_maxmemory_refuses_new_tables_and_the_matches_held_go_on(tmp_path: Path) -> None:
    """README: size Redis's maxmemory with the limit; past it, sealed new is 503 store/full and the matches
    already held go on (a flood of tables cannot stop the matches in play)."""
    import redis as redis_client

    with redis_server(tmp_path) as server, closing(redis_client.Redis.from_url(server.url)) as admin:
        store = RedisStore(server.url, idle_seconds=60, limit=1000)
        held = dealt(RING, "sevens", 4, store)
        admin.config_set("maxmemory-policy", "noeviction")
        admin.config_set("maxmemory", 1)  # any use is past it
        status, refused = call(RING, "sevens", "new", {"players": 4}, store)
        assert status == 503 and refused["code"] == "store/full", refused
        assert "memory limit (maxmemory)" in refused["detail"]
        token = held["token"]
        for _ in range(3):  # claims past maxmemory, each a new successor
            state = _state("sevens", token)
            seat = GAMES["sevens"].to_act(state)[0]
            move = _move_json(GAMES["sevens"].legal_moves(state, seat)[0])
            status, applied = call(
                RING, "sevens", "apply", _body(token, seat, held["seat_keys"][seat], move=move), store
            )
            assert status == 200, applied
            token = applied["token"]
        admin.config_set("maxmemory", 0)
        status, table = call(RING, "sevens", "new", {"players": 4}, store)
        assert status == 200, table


def test_a_token_the_store_never_saw_is_refused(store: MatchStore) -> None:
    stateless = dealt(RING, "sevens", 4, None)  # dealt by a referee without memory
    state = _state("sevens", stateless["token"])
    seat = GAMES["sevens"].to_act(state)[0]
    move = _move_json(GAMES["sevens"].legal_moves(state, seat)[0])
    status, refused = call(
        RING,
        "sevens",
        "apply",
        _body(stateless["token"], seat, stateless["seat_keys"][seat], move=move),
        store,
    )
    assert status == 410 and refused["code"] == "match/unknown" and refused["errors"][0]["path"] == "/token"
    assert documented("/v1/games/sevens/sealed/apply", 410)


# ---- seats join with their own entropy ---------------------------------------------------------------


def test_nobody_sees_a_card_before_every_seat_has_joined(store: MatchStore) -> None:
    status, table = call(RING, "sjuan", "new", {"players": 3}, store)
    assert status == 200 and "seat_keys" not in table and table["open_seats"] == [0, 1, 2]
    status, joined = call(
        RING, "sjuan", "join", {"token": table["token"], "seat": 1, "entropy": "bob: 51e0"}, store
    )
    assert status == 200 and joined["open_seats"] == [0, 2]
    body = _body(joined["token"], 1, joined["seat_key"])
    for name, extra in (("moves", {}), ("view", {}), ("sample", {}), ("bot", {"level": "random"})):
        status, refused = call(RING, "sjuan", name, {**body, **extra}, store)
        assert status == 409 and refused["code"] == "match/not-dealt"
    status, refused = call(RING, "sjuan", "score", {"token": joined["token"]}, store)
    assert status == 409 and refused["code"] == "match/not-dealt"
    status, taken = call(
        RING, "sjuan", "join", {"token": joined["token"], "seat": 1, "entropy": "mallory"}, store
    )
    assert status == 409 and taken["code"] == "seat/taken"
    status, joined = call(
        RING, "sjuan", "join", {"token": joined["token"], "seat": 0, "entropy": "alice"}, store
    )
    status, last = call(
        RING, "sjuan", "join", {"token": joined["token"], "seat": 2, "entropy": "carol"}, store
    )
    assert status == 200 and last["open_seats"] == [] and last["version"] == 4
    status, view = call(RING, "sjuan", "view", _body(last["token"], 2, last["seat_key"]), store)
    assert status == 200 and view["view"]["entropy"] == ["alice", "bob: 51e0", "carol"]
    assert view["view"]["commitment"] == table["commitment"]
    status, late = call(RING, "sjuan", "join", {"token": last["token"], "seat": 0, "entropy": "x"}, store)
    assert status == 409 and late["code"] == "table/dealt"


def test_the_last_seat_cannot_shop_for_a_deal(store: MatchStore) -> None:
    # the last joiner sees its hand, then tries to join again on the table token with other entropy
    status, table = call(RING, "sevens", "new", {"players": 4}, store)
    status, filled = call(
        RING,
        "sevens",
        "fill",
        {"token": table["token"], "host_key": table["host_key"], "seats": [0, 1, 3]},
        store,
    )
    assert status == 200 and filled["open_seats"] == [2] and filled["seat_keys"][2] is None
    status, last = call(
        RING, "sevens", "join", {"token": filled["token"], "seat": 2, "entropy": "first try"}, store
    )
    assert status == 200 and last["open_seats"] == []
    for entropy in ("second try", "first try"):  # a join is never answered twice: its key is in it
        status, again = call(
            RING, "sevens", "join", {"token": filled["token"], "seat": 2, "entropy": entropy}, store
        )
        assert status == 409 and again["code"] == "match/stale" and again["latest_token"] == last["token"]
        assert "seat_key" not in again


def test_the_host_cannot_fill_a_seat_twice_or_with_a_wrong_key(store: MatchStore) -> None:
    status, table = call(RING, "sjuan", "new", {"players": 4}, store)
    status, other = call(RING, "sjuan", "new", {"players": 4}, store)
    status, refused = call(
        RING, "sjuan", "fill", {"token": table["token"], "host_key": other["host_key"]}, store
    )
    assert (
        status == 403 and refused["code"] == "host/forbidden" and refused["errors"][0]["path"] == "/host_key"
    )
    body = {"token": table["token"], "host_key": table["host_key"], "seats": [2, 9]}
    status, refused = call(RING, "sjuan", "fill", body, store)
    assert status == 422 and refused["errors"][0]["path"] == "/seats/1"
    status, filled = call(RING, "sjuan", "fill", {**body, "seats": [2, 3]}, store)
    assert status == 200 and filled["version"] == 3 and filled["open_seats"] == [0, 1]
    status, again = call(RING, "sjuan", "fill", {**body, "seats": [2, 3]}, store)
    assert (status, again) == (200, filled)  # the host's retry (its key proves it) answers the same keys
    status, again = call(RING, "sjuan", "fill", {**body, "seats": [3, 2]}, store)
    assert (status, again) == (200, filled)  # the same seats in another order are the same request
    status, taken = call(RING, "sjuan", "fill", {**body, "token": filled["token"], "seats": [3]}, store)
    assert status == 409 and taken["code"] == "seat/taken" and taken["errors"][0]["path"] == "/seats/0"


def test_a_forked_join_without_a_store_gives_a_key_that_opens_only_its_fork() -> None:
    # without a store a table token can be joined twice; each join's key is salted, so the second
    # joiner's key never opens the seat of the match as the first joiner took it
    status, table = call(RING, "sevens", "new", {"players": 4})
    first = call(RING, "sevens", "join", {"token": table["token"], "seat": 0, "entropy": "me"})[1]
    forked = call(RING, "sevens", "join", {"token": table["token"], "seat": 0, "entropy": "me"})[1]
    assert first["seat_key"] != forked["seat_key"]
    filled = call(RING, "sevens", "fill", {"token": first["token"], "host_key": table["host_key"]})[1]
    status, refused = call(RING, "sevens", "moves", _body(filled["token"], 0, forked["seat_key"]))
    assert status == 403 and refused["code"] == "seat/forbidden"
    assert call(RING, "sevens", "moves", _body(filled["token"], 0, first["seat_key"]))[0] == 200


def test_a_table_token_has_one_length_whatever_entropy_joined() -> None:
    _, table = call(RING, "sevens", "new", {"players": 4})
    lengths = {
        len(call(RING, "sevens", "join", {"token": table["token"], "seat": 0, "entropy": text})[1]["token"])
        for text in ("a", "b" * 256, '"' * 256, "\\" * 100 + " x")
    }
    assert len(lengths) == 1  # (how many seats are taken is public: every answer lists the open ones)


# ---- no length channel: every hidden alternative of a position seals to one length -------------------


@pytest.mark.parametrize("game_id", list(GAMES))
def test_a_token_length_depends_only_on_what_every_seat_may_know(game_id: str) -> None:
    """At positions of random matches, the moves of a seat to act that some other seat cannot tell apart
    (its view and the events it is shown are the same after either) seal to tokens of one length."""
    from sevens_rules.api.sealed import sealed_models, sealed_runs

    game, rng = GAMES[game_id], random.Random(f"lengths {game_id}")
    runs, models = sealed_runs(game, RING), sealed_models(game_id)
    players = max(game.table_sizes()) if game_id == "my-ship-sails" else min(game.table_sizes())
    match = dealt(RING, game_id, players)
    token, keys = match["token"], match["seat_keys"]
    compared = 0
    for _ in range(40):
        state = _state(game_id, token)
        to_act = game.to_act(state)
        if not to_act:
            break
        for seat in to_act:
            alternatives: dict[tuple[int, bytes], set[int]] = {}
            for move in game.legal_moves(state, seat):
                request = models.apply_request(token=token, seat=seat, seat_key=keys[seat], move=move)
                answer = runs["apply"](request)
                after = _state(game_id, answer.token)
                for other in range(players):
                    if other == seat:
                        continue
                    shown = [game.event_for_seat(e, other) for e in game.apply(state, move)[1]]
                    seen = game.view(after, other).model_dump_json().encode() + orjson.dumps(
                        [e.model_dump(mode="json") for e in shown if e is not None]
                    )
                    alternatives.setdefault((other, seen), set()).add(len(answer.token))
            for (other, _), lengths in alternatives.items():
                assert len(lengths) == 1, (
                    f"seat {other} tells moves of seat {seat} apart by length: {lengths}"
                )
                compared += 1
        seat = to_act[0]
        move = rng.choice(game.legal_moves(state, seat))
        answer = runs["apply"](models.apply_request(token=token, seat=seat, seat_key=keys[seat], move=move))
        token = answer.token
    assert compared > 0


def _joined(game_id: str, players: int, **extra: Any) -> str:
    """A sealed match dealt once every seat has joined with entropy of its own (fixed strings)."""
    status, table = call(RING, game_id, "new", {"players": players, **extra})
    assert status == 200, table
    token = table["token"]
    for seat in range(players):
        joining = {"token": token, "seat": seat, "entropy": f"seat {seat}"}
        status, joined = call(RING, game_id, "join", joining)
        assert status == 200, joined
        token = joined["token"]
    return str(token)


@pytest.mark.parametrize("game_id", ["seven-up", "four-handed-seven-up", "california-jack"])
def test_a_token_does_not_tell_how_the_first_dealer_was_cut(
    game_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The Seven-Up family's cut (a round more per tie) is in no view: a match whose cut took several
    rounds seals to a token as long as the same deal with that dealer named (no cut at all)."""
    players = min(GAMES[game_id].table_sizes())
    entropy = tuple(f"seat {seat}" for seat in range(players))
    number = next(
        n for n in range(1000) if len(cut_for_dealer(Seeding(seed_hex(n), entropy), game_id, players)[0]) > 1
    )
    dealer = cut_for_dealer(Seeding(seed_hex(number), entropy), game_id, players)[1]
    monkeypatch.setattr("sevens_rules.api.sealed.draw_seed", lambda: seed_hex(number))
    cut = _joined(game_id, players)
    named = _joined(game_id, players, dealer=dealer)
    assert _state(game_id, cut).hands == _state(game_id, named).hands  # the same deal
    assert len(cut) == len(named)


# ---- several service instances, several workers ----------------------------------------------------


async def _race(apps: list[Any], game_id: str, bodies: list[dict[str, Any]]) -> list[httpx.Response]:
    clients = [
        httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://rules") for app in apps
    ]
    try:
        calls = [
            clients[index % len(clients)].post(f"/v1/games/{game_id}/sealed/apply", json=body)
            for index, body in enumerate(bodies)
        ]
        return list(await asyncio.gather(*calls))
    finally:
        for client in clients:
            await client.aclose()


def _contested(game_id: str, players: int, store: MatchStore) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A dealt match and one apply body per legal move of the seat to act (at least two)."""

    def several(state: Any) -> bool:
        return len(GAMES[game_id].legal_moves(state, GAMES[game_id].to_act(state)[0])) >= 2

    match, token = _played_until(game_id, players, store, several, "race")
    state = _state(game_id, token)
    seat = GAMES[game_id].to_act(state)[0]
    moves = GAMES[game_id].legal_moves(state, seat)
    return match, [_body(token, seat, match["seat_keys"][seat], move=_move_json(m)) for m in moves]


@requires_redis
def test_two_instances_sharing_one_redis_let_exactly_one_of_racing_moves_through(redis: RedisProcess) -> None:
    apps = [create_app(Settings(), RING, store=RedisStore(redis.url)) for _ in range(2)]
    _, bodies = _contested("sevens", 4, RedisStore(redis.url))
    for _ in range(3):
        answers = asyncio.run(_race(apps, "sevens", bodies * 2))
        ok = [a for a in answers if a.status_code == 200]
        refused = [a.json() for a in answers if a.status_code != 200]
        # one move went through (its retries answer the same successor); every other one is stale
        assert len({a.json()["token"] for a in ok}) == 1 and len(ok) == 2
        assert {r["code"] for r in refused} == {"match/stale"} and len(refused) == len(bodies) * 2 - 2
        winner = ok[0].json()
        assert all(r["latest_token"] == winner["token"] for r in refused)
        _, bodies = _contested("sevens", 4, RedisStore(redis.url))


def _apply_in_worker(args: tuple[str, str, list[dict[str, Any]], Any]) -> list[tuple[int, str]]:
    """In another process with its own connection to the embedded store: wait for the others, then
    apply each body; the statuses and codes (or tokens)."""
    directory, game_id, bodies, barrier = args
    store = EmbeddedStore(Path(directory))
    barrier.wait()
    results = []
    for body in bodies:
        status, answer = call(RING, game_id, "apply", body, store)
        results.append((status, answer.get("token") or answer["code"]))
    return results


def test_two_workers_on_the_embedded_store_let_exactly_one_of_racing_moves_through(tmp_path: Path) -> None:
    _, bodies = _contested("sjuan", 4, EmbeddedStore(tmp_path))
    halves = [bodies[0::2], bodies[1::2]]
    context = multiprocessing.get_context("spawn")
    with context.Manager() as manager:
        barrier = manager.Barrier(2)
        with context.Pool(2) as pool:
            results = pool.map(_apply_in_worker, [(str(tmp_path), "sjuan", half, barrier) for half in halves])
    flat = [item for result in results for item in result]
    assert len(flat) == len(bodies)
    assert [status for status, _ in flat].count(200) == 1
    assert {code for status, code in flat if status != 200} == {"match/stale"}


# ---- the store down: fail closed -----------------------------------------------------------------------


def _against_own_redis(tmp_path: Path, scenario: Callable[[httpx.AsyncClient, RedisProcess], Any]) -> None:
    """``scenario(client, server)`` run against a service whose store is a Redis of its own, which the
    scenario may stop and start again."""
    server = RedisProcess(tmp_path)
    server.start()
    app = create_app(Settings(), RING, store=RedisStore(server.url))

    async def run() -> None:
        async with httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app), base_url="http://rules"
        ) as client:
            await scenario(client, server)

    try:
        asyncio.run(run())
    finally:
        server.stop()


@requires_redis
def test_with_redis_stopped_mid_match_apply_is_a_503_and_readyz_says_so(tmp_path: Path) -> None:
    async def scenario(client: httpx.AsyncClient, server: RedisProcess) -> None:
        assert (await client.get("/readyz")).status_code == 200
        table = (await client.post("/v1/games/sevens/sealed/new", json={"players": 4})).json()
        filled = (
            await client.post(
                "/v1/games/sevens/sealed/fill",
                json={"token": table["token"], "host_key": table["host_key"]},
            )
        ).json()
        state = _state("sevens", filled["token"])
        seat = GAMES["sevens"].to_act(state)[0]
        move = _move_json(GAMES["sevens"].legal_moves(state, seat)[0])
        body = _body(filled["token"], seat, filled["seat_keys"][seat], move=move)
        server.stop()
        refused = await client.post("/v1/games/sevens/sealed/apply", json=body)
        assert refused.status_code == 503 and refused.json()["code"] == "store/unavailable"
        assert "token" not in refused.json()
        assert str(server.port) not in refused.text  # the store's address goes to the log only
        ready = await client.get("/readyz")
        assert ready.status_code == 503 and ready.json()["code"] == "service/not-ready"
        assert str(server.port) not in ready.text
        query = """query($b: SevensMoveInput!, $t: String!, $k: String!, $s: Int!) {
          sevensSealedApply(token: $t, seat: $s, seat_key: $k, move: $b) {
            ... on SevensProblem { status code } } }"""
        variables = {"b": move, "t": body["token"], "k": body["seat_key"], "s": seat}
        answer = (await client.post("/graphql", json={"query": query, "variables": variables})).json()
        assert answer["data"]["sevensSealedApply"] == {"status": 503, "code": "store/unavailable"}
        # reads need no store: a seat still sees its hand
        moves = await client.post(
            "/v1/games/sevens/sealed/moves", json=_body(filled["token"], seat, body["seat_key"])
        )
        assert moves.status_code == 200

    _against_own_redis(tmp_path, scenario)


def test_an_embedded_store_that_cannot_be_opened_is_a_503(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A 503 whose answer names nothing of the store (its file); the cause is in the log."""
    blocked = tmp_path / "not-a-directory"
    blocked.write_text("a file where the data directory should be")
    status, refused = call(RING, "sevens", "new", {"players": 4}, EmbeddedStore(blocked))
    assert status == 503 and refused["code"] == "store/unavailable"
    assert documented("/v1/games/sevens/sealed/new", 503)
    assert str(tmp_path) not in orjson.dumps(refused).decode()
    assert str(blocked) in caplog.text


def test_the_embedded_store_waits_for_a_lock_without_holding_up_other_requests(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While another process holds the database's write lock, a sealed ``new`` waits for it in a thread:
    the worker answers other requests meanwhile, and the ``new`` goes through once the lock is let go."""
    store = EmbeddedStore(tmp_path)
    assert call(RING, "sevens", "new", {"players": 4}, store)[0] == 200  # the file is set up
    app = create_app(Settings(), RING, store=store)
    holder = sqlite3.connect(store.path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    begun = threading.Event()
    transaction = store._transaction

    def begin(work: Any, deadline: float) -> Any:  # the store's own transaction, saying it has begun
        begun.set()
        return transaction(work, deadline)

    monkeypatch.setattr(store, "_transaction", begin)

    async def scenario() -> None:
        async with httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app), base_url="http://rules"
        ) as client:
            waiting = asyncio.create_task(client.post("/v1/games/sevens/sealed/new", json={"players": 4}))
            await asyncio.to_thread(begun.wait, 30)  # the new table's transaction waits for the lock
            assert (await client.get("/healthz")).status_code == 200
            assert not waiting.done()  # still waiting for the lock, and the worker answered meanwhile
            holder.execute("ROLLBACK")
            assert (await waiting).status_code == 200

    try:
        asyncio.run(scenario())
    finally:
        holder.close()


def test_a_store_call_waiting_behind_another_is_refused_at_its_own_deadline(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A call to the embedded store while an earlier call of the same worker holds it (waiting for a lock
    another process holds) is a 503 once its own time is up: the waits do not pile up one after another
    (five ``new`` behind a lock were answered after 5, 10, 15, 20 and 25 s)."""
    store = EmbeddedStore(tmp_path)
    assert call(RING, "sevens", "new", {"players": 4}, store)[0] == 200  # the file is set up
    monkeypatch.setattr("sevens_rules.api.match_store.CLAIM_TIMEOUT_SECONDS", 0.2)
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        store._lock.acquire()  # an earlier call of this worker, still waiting for the database
        try:
            waiting = pool.submit(call, RING, "sevens", "new", {"players": 4}, store)
            status, refused = waiting.result(timeout=60)
        finally:
            store._lock.release()
    assert status == 503 and refused["code"] == "store/unavailable", refused
    assert call(RING, "sevens", "new", {"players": 4}, store)[0] == 200  # and the store goes on


class LosingProxy:
    """A TCP proxy in front of Redis that, once armed, passes the next claim (an ``EVALSHA``) on to Redis
    and drops the connection instead of passing Redis's answer back: a claim recorded whose answer was
    lost on the way (a network fault, a proxy restarting)."""

    def __init__(self, redis_port: int) -> None:
        self.redis_port = redis_port
        self.armed = False
        self.dropped = 0
        self.port = 0

    async def start(self) -> None:
        server = await asyncio.start_server(self._relay, "127.0.0.1", 0)
        self.port = server.sockets[0].getsockname()[1]

    async def _relay(self, client_in: asyncio.StreamReader, client_out: asyncio.StreamWriter) -> None:
        redis_in, redis_out = await asyncio.open_connection("127.0.0.1", self.redis_port)
        losing = asyncio.Event()

        async def up() -> None:
            while data := await client_in.read(65536):
                if self.armed and b"EVALSHA" in data:
                    self.armed = False
                    losing.set()
                redis_out.write(data)
                await redis_out.drain()

        async def down() -> None:
            while data := await redis_in.read(65536):
                if losing.is_set():  # the claim's answer: dropped with the connection
                    self.dropped += 1
                    break
                client_out.write(data)
                await client_out.drain()
            client_out.close()
            redis_out.close()

        await asyncio.gather(up(), down(), return_exceptions=True)


@requires_redis
def test_a_join_whose_answer_was_lost_on_the_way_from_redis_is_answered(redis: RedisProcess) -> None:
    """Redis recorded a join's claim but its answer never came back: the claim is sent once more on a
    fresh connection and answers the successor it made, so the seat gets its key (a join is never
    answered twice to the client, so a 503 there would have lost the seat for good)."""

    async def scenario() -> None:
        proxy = LosingProxy(redis.port)
        await proxy.start()
        store = RedisStore(f"redis://127.0.0.1:{proxy.port}/0")
        app = create_app(Settings(), RING, store=store)
        async with httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app), base_url="http://rules"
        ) as client:
            table = (await client.post("/v1/games/sevens/sealed/new", json={"players": 4})).json()
            proxy.armed = True
            join = {"token": table["token"], "seat": 0, "entropy": "mine"}
            joined = await client.post("/v1/games/sevens/sealed/join", json=join)
            assert proxy.dropped == 1
            assert joined.status_code == 200, joined.json()
            filled = (
                await client.post(
                    "/v1/games/sevens/sealed/fill",
                    json={"token": joined.json()["token"], "host_key": table["host_key"]},
                )
            ).json()
            seat_key = joined.json()["seat_key"]
            view = await client.post("/v1/games/sevens/sealed/view", json=_body(filled["token"], 0, seat_key))
            assert view.status_code == 200, view.json()

    asyncio.run(scenario())


@requires_redis
def test_after_redis_restarts_the_first_requests_go_through(tmp_path: Path) -> None:
    """Redis restarted (its matches gone: no persistence here) closes every pooled connection: the first
    requests after it, several at once, are answered as before, not 503 on a connection Redis closed."""

    async def scenario(client: httpx.AsyncClient, server: RedisProcess) -> None:
        async def table() -> int:
            response = await client.post("/v1/games/sevens/sealed/new", json={"players": 4})
            return response.status_code

        assert await asyncio.gather(*(table() for _ in range(6))) == [200] * 6  # a pool of connections
        server.stop()
        server.start()
        assert (await client.get("/readyz")).status_code == 200
        assert await asyncio.gather(*(table() for _ in range(6))) == [200] * 6

    _against_own_redis(tmp_path, scenario)


# ---- the setting -----------------------------------------------------------------------------------


def test_one_setting_chooses_the_store() -> None:
    assert isinstance(store_from_setting("embedded", "/tmp/x", 60), EmbeddedStore)
    assert isinstance(store_from_setting("redis://127.0.0.1:6379/0", "", 60), RedisStore)
    assert store_from_setting("none", "", 60) is None
    assert Settings.from_env({}).match_store == "embedded"
    assert (
        Settings.from_env({"RULES_MATCH_STORE": "rediss://cache:6380/1"}).match_store
        == "rediss://cache:6380/1"
    )
    with pytest.raises(SettingsError, match="RULES_MATCH_STORE"):
        Settings.from_env({"RULES_MATCH_STORE": "memcached://x"})
    with pytest.raises(SettingsError, match="RULES_MATCH_IDLE_SECONDS"):
        Settings.from_env({"RULES_MATCH_IDLE_SECONDS": "5"})
    assert Settings.from_env({"RULES_MATCH_LIMIT": "2"}).match_limit == 2
    with pytest.raises(SettingsError, match="RULES_MATCH_LIMIT"):
        Settings.from_env({"RULES_MATCH_LIMIT": "0"})


# ---- plain mode: verify against the agreed entropy -------------------------------------------------


def test_verify_refuses_entropy_that_is_not_exactly_the_agreed_list(client: Any) -> None:
    seed = "00" * 32
    commitment = client.post(
        "/v1/games/sjuan/verify", json={"seed": seed, "commitment": "0" * 64, "players": 3}
    ).json()["commitment"]
    agreed = ["alice: 7f3a", "bob: 5512", "carol: d00d"]
    base = {"seed": seed, "commitment": commitment, "players": 3, "agreed_entropy": agreed}
    assert client.post("/v1/games/sjuan/verify", json={**base, "entropy": agreed}).status_code == 200
    extra = client.post("/v1/games/sjuan/verify", json={**base, "entropy": [*agreed, "dealer: grind 1187"]})
    assert extra.status_code == 422 and extra.json()["code"] == "entropy/not-agreed"
    assert extra.json()["errors"][0]["path"] == "/entropy/3"
    missing = client.post("/v1/games/sjuan/verify", json={**base, "entropy": agreed[:2]}).json()
    assert missing["code"] == "entropy/not-agreed" and "index 2" in missing["errors"][0]["message"]
    swapped = client.post("/v1/games/sjuan/verify", json={**base, "entropy": agreed[::-1]}).json()
    assert swapped["code"] == "entropy/not-agreed" and "order" in swapped["errors"][0]["message"]
    # an agreed string shown twice is an extra string at its second place, not a change of order
    shown = [*agreed[:2], agreed[0], agreed[2]]
    twice = client.post("/v1/games/sjuan/verify", json={**base, "entropy": shown})
    assert [(e["path"], "extra" in e["message"]) for e in twice.json()["errors"]] == [("/entropy/2", True)]
    # a changed order is named beside an extra string and beside a missing one
    for shown in ([agreed[1], agreed[0], agreed[2], "dealer: grind 1187"], [agreed[1], agreed[0]]):
        both = client.post("/v1/games/sjuan/verify", json={**base, "entropy": shown}).json()
        assert both["code"] == "entropy/not-agreed" and len(both["errors"]) == 2, both
        assert "order" in both["errors"][1]["message"], both


def test_a_my_ship_sails_declaration_and_a_pass_seal_to_one_length() -> None:
    # the position the length channel was seen in: seat 0 may declare (a one-suit hand) or pass
    from sevens_rules.api.sealing import seal

    game = GAMES["my-ship-sails"]
    match = dealt(RING, "my-ship-sails", 4)
    opened = open_token(RING, "my-ship-sails", match["token"])
    state = _state("my-ship-sails", match["token"])
    cards = [card for hand in state.hands for card in hand] + list(state.unused)
    hearts = [card for card in cards if card.endswith("H")][:7]
    rest = [card for card in cards if card not in hearts]
    hands = [hearts, rest[0:7], rest[7:14], rest[14:21]]
    one_suit = state.model_copy(update={"hands": hands, "unused": rest[21:]})
    token = seal(RING, "my-ship-sails", opened._replace(state_json=one_suit.model_dump_json().encode()))
    lengths: dict[str, set[int]] = {}
    for move in game.legal_moves(one_suit, 0):
        body = _body(token, 0, match["seat_keys"][0], move=_move_json(move))
        status, applied = call(RING, "my-ship-sails", "apply", body)
        assert status == 200, applied
        lengths.setdefault(move.type, set()).add(len(applied["token"]))
    assert set(lengths) == {"declare", "pass"}
    assert len(set().union(*lengths.values())) == 1, lengths
