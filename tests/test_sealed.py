"""Referee mode: sealed tokens, seat keys, key rotation, per-seat events, and no leak in any answer."""

from __future__ import annotations

import base64
import os
import random
import re
import struct
import warnings
import zlib
from typing import Any

import orjson
import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import TypeAdapter

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette asks for httpx2, which its test client does not need yet
    from starlette.testclient import TestClient

from sevens_rules.api.app import create_app
from sevens_rules.api.limits import Settings
from sevens_rules.api.problems import dump
from sevens_rules.api.sealed import (
    LOG_VERSIONS,
    OPERATIONS,
    sealed_models,
    sealed_runs,
)
from sevens_rules.api.sealed_memory import TAIL_CHARACTERS, OpenedTokens
from sevens_rules.api.sealing import (
    COMPRESSED_FORMAT,
    FORMAT,
    SIZED_FORMAT,
    Keyring,
    Sealed,
    SealedModeDisabledError,
    SealKeysError,
    _b64url,
    open_token,
    seal,
    seat_key,
)
from sevens_rules.engine.dealing import Seeding
from sevens_rules.engine.models import updated
from sevens_rules.engine.registry import GAMES
from sevens_rules.schema.common import model_json
from sevens_rules.schema.my_ship_sails import MyShipSailsEvent
from sevens_rules.schema.operations import wire_model
from sevens_rules.schema.sealed import MAX_TOKEN_LENGTH, TOKEN_PATTERN, Token, TokenFirst
from sevens_rules.schema.sedmice import SedmiceEvent
from sevens_rules.schema.sjuan import SjuanEvent, SjuanEventType
from tests.sealed_helpers import call, cards_in, dealt, event_leaks, hidden_from, keyring

RING = keyring("k1=1")


@pytest.fixture(autouse=True)
def _seeds(monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest) -> None:
    """Sealed matches dealt from seeds that follow from the test's name, so every run deals the same."""
    rng = random.Random(request.node.nodeid)
    monkeypatch.setattr("sevens_rules.api.sealed.draw_seed", lambda: f"{rng.getrandbits(256):064x}")


TOKEN_CODES = {"token/malformed", "token/invalid", "token/wrong-game", "token/unknown-key"}


def _new(game_id: str = "sjuan", players: int = 3, ring: Keyring = RING, **extra: Any) -> dict[str, Any]:
    return dealt(ring, game_id, players, **extra)


def _state(game_id: str, token: str, ring: Keyring = RING) -> Any:
    return GAMES[game_id].models.state.model_validate_json(open_token(ring, game_id, token).state_json)


def _seat_body(match: dict[str, Any], seat: int, **extra: Any) -> dict[str, Any]:
    return {"token": match["token"], "seat": seat, "seat_key": match["seat_keys"][seat], **extra}


def _first_move(game_id: str, match: dict[str, Any], ring: Keyring = RING) -> tuple[int, dict[str, Any]]:
    """The first seat to act and its first legal move."""
    status, moves = call(ring, game_id, "moves", _seat_body(match, 0))
    assert status == 200
    seat = moves["to_act"][0]
    status, moves = call(ring, game_id, "moves", _seat_body(match, seat))
    return seat, moves["moves"][0]


# ---- keys --------------------------------------------------------------------------------------------


def test_keys_are_read_as_id_colon_base64_the_first_one_sealing() -> None:
    key = base64.b64encode(os.urandom(32)).decode()
    urlsafe = base64.urlsafe_b64encode(os.urandom(32)).decode().rstrip("=")
    ring = Keyring.parse(f" new.2026:{key} , old_1:{urlsafe}")
    assert ring is not None
    assert [k.id for k in ring.keys] == ["new.2026", "old_1"]
    assert ring.current.id == "new.2026"
    assert Keyring.parse("") is None and Keyring.parse(" , ") is None
    assert Keyring.from_env({}) is None


@pytest.mark.parametrize(
    ("value", "says"),
    [
        ("nocolon", "entry 1 must be 'id:base64key'"),
        (f"bad id:{'A' * 43}=", "entry 1 must be 'id:base64key'"),
        ("k1:not base64!", "key 'k1' is not base64"),
        (f"k1:{base64.b64encode(b'short').decode()}", "key 'k1' must be 32 bytes, not 5"),
        (f"k1:{'A' * 43}=,k1:{'B' * 43}=", "key id 'k1' is listed twice"),
        (f"k1:{'A' * 43}=,k2:{'A' * 43}=", "key 'k2' is the key 'k1' again"),
    ],
)
def test_a_malformed_key_list_is_refused_with_one_line(value: str, says: str) -> None:
    with pytest.raises(SealKeysError, match=says):
        Keyring.parse(value)


def test_the_service_does_not_start_with_malformed_keys_and_says_why_in_one_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("RULES_SEAL_KEYS", "k1:tooshort")
    with pytest.raises(SystemExit) as stopped:
        create_app(Settings())
    assert stopped.value.code == "sevens-rules: RULES_SEAL_KEYS: key 'k1' must be 32 bytes, not 6"


def test_without_keys_every_sealed_operation_says_how_to_enable_them(client: TestClient) -> None:
    assert not os.environ.get("RULES_SEAL_KEYS")  # the shared client is configured from the environment
    response = client.post("/v1/games/sjuan/sealed/new", json={"players": 3})
    assert response.status_code == 404
    assert response.json()["code"] == "sealed/disabled"
    assert "RULES_SEAL_KEYS" in response.json()["detail"]
    status, body = call(None, "sevens", "score", {"token": "AQ"})
    assert (status, body["code"]) == (404, "sealed/disabled")
    query = 'query { sevensSealedScore(token: "AQ") { ... on SevensProblem { status code } } }'
    answer = client.post("/graphql", json={"query": query}).json()
    assert answer["data"]["sevensSealedScore"] == {"status": 404, "code": "sealed/disabled"}
    # refused before the request is read: whatever the body holds, the operation does not exist here
    for body in ({}, {"token": 5}, {"players": "many", "extra": True}):
        response = client.post("/v1/games/sjuan/sealed/apply", json=body)
        assert (response.status_code, response.json()["code"]) == (404, "sealed/disabled"), body


# ---- a match over REST and GraphQL -------------------------------------------------------------------


def test_a_sealed_match_over_rest_and_graphql() -> None:
    client = TestClient(create_app(Settings(), RING, store=None), raise_server_exceptions=False)
    table = client.post("/v1/games/sevens/sealed/new", json={"players": 4}).json()
    assert table["version"] == 1 and table["open_seats"] == [0, 1, 2, 3] and len(table["match_id"]) == 32
    assert "seed" not in table and "state" not in table and "seat_keys" not in table
    assert len(table["commitment"]) == 64  # the seed's commitment, published before anyone joins
    keys: list[str | None] = [None] * 4
    token = table["token"]
    for seat in (2, 0):  # two players join with their own entropy, in any order
        joined = client.post(
            "/v1/games/sevens/sealed/join", json={"token": token, "seat": seat, "entropy": f"player {seat}"}
        ).json()
        assert (joined["match_id"], joined["commitment"]) == (table["match_id"], table["commitment"])
        token, keys[seat] = joined["token"], joined["seat_key"]
    assert joined["version"] == 3 and joined["open_seats"] == [1, 3]
    filled = client.post(
        "/v1/games/sevens/sealed/fill", json={"token": token, "host_key": table["host_key"]}
    ).json()  # the host seats bots in the rest: the cards are dealt
    assert filled["version"] == 5 and filled["open_seats"] == []
    assert filled["seat_keys"][0] is None and filled["seat_keys"][2] is None
    match = {
        "token": filled["token"],
        "seat_keys": [k or f for k, f in zip(keys, filled["seat_keys"], strict=True)],
    }
    status, view = call(RING, "sevens", "view", _seat_body(match, 0))
    assert (
        status == 200
        and view["view"]["entropy"][0] == "player 0"
        and view["view"]["entropy"][2] == "player 2"
    )
    seat, move = _first_move("sevens", match)
    applied = client.post("/v1/games/sevens/sealed/apply", json=_seat_body(match, seat, move=move)).json()
    # the deal is the service's own draw: the first seat to act may have no card to play and pass
    assert (
        applied["version"] == 6
        and applied["events"][0]["type"] == {"play": "played", "pass": "passed"}[move["type"]]
    )
    query = """query($t: String!, $s: Int!, $k: String!) { sevensSealedView(token: $t, seat: $s, seat_key: $k,
      since: 5) { ... on SevensSealedViewResponse { version complete view { hand table { run } }
      events { version events { type player card } } } } }"""
    variables = {"t": applied["token"], "s": 0, "k": match["seat_keys"][0]}
    view = client.post("/graphql", json={"query": query, "variables": variables}).json()["data"]
    assert view["sevensSealedView"]["version"] == 6
    # the service's own deal decides whether the first seat to act plays or passes
    made = {"play": "played", "pass": "passed"}[move["type"]]
    shown = {"type": made, "player": seat, "card": move.get("card")}
    assert view["sevensSealedView"]["events"] == [{"version": 6, "events": [shown]}]
    score = client.post("/v1/games/sevens/sealed/score", json={"token": applied["token"]}).json()
    assert score == {
        "version": 6,
        "score": {
            "totals": [0, 0, 0, 0],
            "deals": [],
            "outcome": {
                "over": False,
                "winners": [],
                "lowest_total_wins": False,
                "seats": [{"seat": seat, "total": 0, "place": 1} for seat in range(4)],
            },
            "seed": None,
        },
    }


def test_view_since_a_version_returns_the_later_events_and_says_when_older_ones_are_gone() -> None:
    match = _new("sjuan", 3)
    token = match["token"]
    for _ in range(LOG_VERSIONS + 3):
        state = _state("sjuan", token)
        (seat,) = GAMES["sjuan"].to_act(state)
        move = GAMES["sjuan"].legal_moves(state, seat)[0]
        status, applied = call(
            RING,
            "sjuan",
            "apply",
            _seat_body({**match, "token": token}, seat, move=orjson.loads(move.model_dump_json())),
        )
        assert status == 200, applied
        token = applied["token"]
    last = match["version"] + LOG_VERSIONS + 3
    status, view = call(RING, "sjuan", "view", _seat_body({**match, "token": token}, 1, since=last - 2))
    assert status == 200
    assert (view["version"], view["complete"]) == (last, True)
    assert [entry["version"] for entry in view["events"]] == [last - 1, last]
    status, view = call(RING, "sjuan", "view", _seat_body({**match, "token": token}, 1, since=0))
    assert view["complete"] is False
    assert [entry["version"] for entry in view["events"]] == list(range(last - LOG_VERSIONS + 1, last + 1))


# ---- tokens --------------------------------------------------------------------------------------------


def _score(token: str, game_id: str = "sjuan", ring: Keyring = RING) -> tuple[int, Any]:
    return call(ring, game_id, "score", {"token": token})


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def _raw(token: str) -> bytes:
    """A token's bytes, read with the standard library (not the decoder under test)."""
    return base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))


def test_every_byte_of_a_token_flipped_is_refused() -> None:
    token = _new("domino-fan-tan", 2)["token"]
    assert _score(token, "domino-fan-tan")[0] == 200
    raw = _raw(token)
    for index in range(len(raw)):
        for flip in (0x01, 0x80):
            changed = bytearray(raw)
            changed[index] ^= flip
            status, problem = _score(_b64(bytes(changed)), "domino-fan-tan")
            assert 400 <= status < 500 and problem["code"] in TOKEN_CODES, (index, flip, problem)


def test_truncated_extended_and_respelled_tokens_are_refused() -> None:
    token = _new("sjuan", 4)["token"]
    for length in range(len(token)):
        status, problem = _score(token[:length] or "A")
        assert 400 <= status < 500 and problem["code"] in TOKEN_CODES | {"request/invalid"}, length
    for changed in (
        token + "A",
        token + "AA",
        token + "AAAA",
        token[:-1] + ("B" if token[-1] == "A" else "A"),
    ):
        status, problem = _score(changed)
        assert problem["code"] in TOKEN_CODES, changed
    raw = _raw(token)
    if len(raw) % 3:  # the last character carries unused bits: another spelling of the same bytes is refused
        last = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".index(token[-1])
        respelled = token[:-1] + "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"[last ^ 1]
        assert _raw(respelled) == raw
        assert _score(respelled)[1]["code"] == "token/malformed"


def test_a_token_of_the_earlier_compressed_format_still_opens() -> None:
    # format 2 tokens carried format 3's payload zlib-compressed: a match sealed before that goes on
    match = _new("sjuan", 4)
    raw = _raw(match["token"])
    assert raw[0] == FORMAT
    current = open_token(RING, "sjuan", match["token"])
    payload = _sized_payload(current.seat_key_id, current.state_json, list(current.log))
    old_token = _resealed(match["token"], COMPRESSED_FORMAT, zlib.compress(payload, 1))
    assert open_token(RING, "sjuan", old_token) == current._replace(seat_salts=())
    old = _unsalted("sjuan", old_token)
    seat, move = _first_move("sjuan", old)
    status, applied = call(RING, "sjuan", "apply", _seat_body(old, seat, move=move))
    assert status == 200, applied
    assert applied["version"] == match["version"] + 1
    assert applied["token"].startswith(match["token"][:2])  # sealed again in the current format
    assert _state("sjuan", applied["token"]).hands != _state("sjuan", match["token"]).hands


def test_a_token_reveals_by_its_length_only_what_every_seat_knows() -> None:
    # uncompressed: two deals of the same table size and progress seal to tokens of the same length
    lengths = {len(_new("sjuan", 4)["token"]) for _ in range(6)}
    assert len(lengths) == 1


def test_a_token_of_another_game_or_another_key_is_refused_with_its_own_code() -> None:
    token = _new("fan-tan", 4)["token"]
    assert _score(token, "sjuan")[1]["code"] == "token/wrong-game"
    assert _score(token, "fan-tan", keyring("k2=2"))[1]["code"] == "token/unknown-key"
    assert _score(token, "fan-tan", keyring("k1=2"))[1]["code"] == "token/invalid"


def test_key_rotation_keeps_matches_and_seat_keys_while_the_old_key_is_listed() -> None:
    old, rotated, new_only = keyring("k1=1"), keyring("k2=2,k1=1"), keyring("k2=2")
    match = _new("sevens", 4, ring=old)
    seat, move = _first_move("sevens", match, rotated)
    status, applied = call(rotated, "sevens", "apply", _seat_body(match, seat, move=move))
    assert status == 200
    resealed = _raw(applied["token"])
    assert resealed[1:4] == b"\x02k2"  # sealed again with the first key
    assert call(old, "sevens", "score", {"token": applied["token"]})[1]["code"] == "token/unknown-key"
    after = {**match, "token": applied["token"]}
    assert call(rotated, "sevens", "moves", _seat_body(after, seat))[0] == 200  # the seat keys still open
    # the seat keys derive from the key the match started with: once it is gone, the match ends, for every
    # operation alike, a token sealed again with the new key included
    for name, body in (("moves", _seat_body(after, seat)), ("score", {"token": applied["token"]})):
        assert call(new_only, "sevens", name, body)[1]["code"] == "token/unknown-key"
    assert call(new_only, "sevens", "score", {"token": match["token"]})[1]["code"] == "token/unknown-key"


# ---- seat keys -----------------------------------------------------------------------------------------


def test_swapped_and_foreign_seat_keys_are_refused_with_the_same_answer() -> None:
    match, other = _new("sjuan", 3), _new("sjuan", 3)
    answers = []
    for seat, key in [
        (0, match["seat_keys"][1]),
        (1, match["seat_keys"][0]),
        (0, other["seat_keys"][0]),
        (2, "A" * 43),
    ]:
        for operation, extra in [
            ("moves", {}),
            ("view", {}),
            ("apply", {"move": {"type": "pass", "player": seat}}),
        ]:
            status, problem = call(
                RING, "sjuan", operation, {"token": match["token"], "seat": seat, "seat_key": key, **extra}
            )
            assert (status, problem["code"]) == (403, "seat/forbidden")
            answers.append({k: v for k, v in problem.items()})
    assert all(answer == answers[0] for answer in answers)
    assert cards_in(answers[0]) == set()


def test_a_seat_moves_only_for_itself_and_never_chooses_the_deck() -> None:
    match = _new("sjuan", 3)
    seat, move = _first_move("sjuan", match)
    other = (seat + 1) % 3
    status, problem = call(RING, "sjuan", "apply", _seat_body(match, other, move=move))
    assert (status, problem["code"], problem["errors"][0]["path"]) == (
        403,
        "move/not-your-seat",
        "/move/player",
    )
    deck = list(GAMES["sjuan"].deck)
    status, problem = call(RING, "sjuan", "apply", _seat_body(match, seat, move={**move, "deck": deck}))
    assert (status, problem["errors"][0]["path"]) == (422, "/move/deck")


def test_a_refused_move_lists_only_the_callers_own_legal_moves() -> None:
    match = _new("sjuan", 3)
    seat, move = _first_move("sjuan", match)
    other = (seat + 1) % 3
    status, problem = call(RING, "sjuan", "apply", _seat_body(match, other, move={**move, "player": other}))
    assert (status, problem["code"], problem["legal_moves"]) == (409, "move/not-your-turn", [])
    state = _state("sjuan", match["token"])
    stranger = sorted(state.hands[other])[0]
    status, problem = call(
        RING,
        "sjuan",
        "apply",
        _seat_body(match, seat, move={"type": "play", "player": seat, "card": stranger}),
    )
    assert (status, problem["code"]) == (409, "move/illegal")
    assert {m["player"] for m in problem["legal_moves"]} == {seat}
    assert stranger not in orjson.dumps(problem).decode()


def test_my_ship_sails_pending_choices_and_passes_reach_only_their_seats() -> None:
    match = _new("my-ship-sails", 5)
    state = _state("my-ship-sails", match["token"])
    token = match["token"]
    for seat in range(5):
        card = state.hands[seat][0]
        status, applied = call(
            RING,
            "my-ship-sails",
            "apply",
            _seat_body({**match, "token": token}, seat, move={"type": "pass", "player": seat, "card": card}),
        )
        assert status == 200, applied
        token = applied["token"]
        if seat < 4:
            assert applied["events"] == [
                {"type": "chosen", "player": seat, **_nulls(MyShipSailsEvent, "type", "player")}
            ]
            for other in range(5):
                _, seen = call(RING, "my-ship-sails", "view", _seat_body({**match, "token": token}, other))
                assert seen["view"]["choice"] is None or other == seat or other < seat
    received = [e for e in applied["events"] if e["type"] == "received"]
    assert {(e["player"], e["from_player"]) for e in received} == {(0, 4), (4, 3)}
    for seat in range(5):
        since = match["version"] + 4  # the fifth choice's events are the last entry
        _, seen = call(
            RING, "my-ship-sails", "view", _seat_body({**match, "token": token}, seat, since=since)
        )
        pairs = {
            (e["player"], e["from_player"]) for e in seen["events"][0]["events"] if e["type"] == "received"
        }
        assert pairs == {(seat, (seat - 1) % 5), ((seat + 1) % 5, seat)}


def _nulls(model: Any, *keep: str) -> dict[str, None]:
    return {name: None for name in model.model_fields if name not in keep}


def test_a_drawn_card_is_shown_to_its_drawer_only() -> None:
    sjuan = GAMES["domino-fan-tan"]
    drew = SjuanEvent.model_validate_json(b'{"type": "drew", "player": 1, "card": "7H"}')
    assert sjuan.event_for_seat(drew, 1) == drew
    assert sjuan.event_for_seat(drew, 0) == updated(drew, card=None)
    sedmice = GAMES["sedmice"]
    refill = SedmiceEvent.model_validate_json(b'{"type": "drew", "player": 0, "card": "7H"}')
    assert sedmice.event_for_seat(refill, 0) == refill
    assert sedmice.event_for_seat(refill, 1) == updated(refill, card=None)
    passed = MyShipSailsEvent.model_validate_json(
        b'{"type": "received", "player": 2, "card": "7H", "from_player": 1}'
    )
    assert [GAMES["my-ship-sails"].event_for_seat(passed, s) for s in range(4)] == [
        None,
        passed,
        passed,
        None,
    ]


# ---- no leak in random matches -------------------------------------------------------------------------

STEPS = 90
OPTIONS: dict[str, dict[str, Any]] = {"my-ship-sails": {"max_exchanges": 3}}


def _check(answer: Any, forbidden: set[str], where: str) -> None:
    leaked = cards_in(answer) & forbidden
    assert not leaked, f"{where}: {sorted(leaked)} in {answer}"
    dumped = orjson.dumps(answer)
    # the seed (null until then) is revealed only once the match is over
    assert b'"seed":"' not in dumped or b"match_over" in dumped or b'"over":true' in dumped, where


@pytest.mark.parametrize("game_id", list(GAMES))
def test_random_sealed_matches_never_show_a_seat_what_it_may_not_see(game_id: str) -> None:
    game = GAMES[game_id]
    rng = random.Random(f"sealed {game_id}")
    for players in sorted({min(game.table_sizes()), max(game.table_sizes())}):
        match = _new(game_id, players, options=OPTIONS.get(game_id, {}))
        token = match["token"]
        version = match["version"]
        history: dict[int, tuple[Any, str | None, Any]] = {version: (None, None, _state(game_id, token))}
        seen = [0] * players
        for _ in range(STEPS):
            state = history[version][2]
            current = {**match, "token": token}
            # a random seat reads its moves, its view and the events since it last looked
            seat = rng.randrange(players)
            hidden = hidden_from(game, state, seat)
            status, moves = call(RING, game_id, "moves", _seat_body(current, seat))
            assert status == 200
            _check(moves, hidden, f"moves of seat {seat}")
            status, view = call(RING, game_id, "view", _seat_body(current, seat, since=seen[seat]))
            _check(view["view"], hidden, f"view of seat {seat}")
            for entry in view["events"]:
                before, moved, after = history[entry["version"]]
                forbidden = hidden_from(game, after, seat) if before is None else set()
                if before is not None:
                    forbidden = event_leaks(game, before, after, moved, seat, entry["events"])
                _check(entry["events"], forbidden, f"events {entry['version']} seen by {seat}")
            seen[seat] = version
            status, score = call(RING, game_id, "score", {"token": token})
            _check(score, set().union(*(hidden_from(game, state, s) for s in range(players))), "score")
            if not moves["to_act"]:
                break
            # the seat tries a move it may not make: another seat's legal move in its own name
            others = [s for s in moves["to_act"] if s != seat]
            if others:
                foreign = rng.choice(game.legal_moves(state, rng.choice(others)))
                attempt = orjson.loads(updated(foreign, player=seat).model_dump_json())
                status, problem = call(RING, game_id, "apply", _seat_body(current, seat, move=attempt))
                if status != 200:
                    _check({k: v for k, v in problem.items()}, hidden, f"refusal to seat {seat}")
                    assert all(m["player"] == seat for m in problem.get("legal_moves") or [])
            # then a seat to act makes one of its legal moves
            actor = rng.choice(moves["to_act"])
            status, own = call(RING, game_id, "moves", _seat_body(current, actor))
            move = rng.choice(own["moves"])
            status, applied = call(RING, game_id, "apply", _seat_body(current, actor, move=move))
            assert status == 200, applied
            token, version = applied["token"], applied["version"]
            after = _state(game_id, token)
            history[version] = (state, move.get("card"), after)
            _check(
                applied["events"],
                event_leaks(game, state, after, move.get("card"), actor, applied["events"]),
                "apply",
            )


# ---- opened tokens -----------------------------------------------------------------------------------


def test_without_keys_the_sealed_operations_are_the_same_five_each_refusing() -> None:
    disabled, enabled = sealed_runs(GAMES["sjuan"], None), sealed_runs(GAMES["sjuan"], RING)
    assert tuple(disabled) == tuple(enabled) == OPERATIONS
    for run in disabled.values():
        with pytest.raises(SealedModeDisabledError):
            run(None)


def test_remembered_tokens_are_bounded_and_the_least_recent_is_forgotten_first() -> None:
    tokens = OpenedTokens(2)
    contents = [Sealed.of(bytes(16), version, "k1", b"{}", ()) for version in range(3)]
    tokens.put("a", contents[0], "state a")
    tokens.put("b", contents[1], "state b")
    assert tokens.get("a") == (contents[0], "state a")  # "a" is now the most recent
    tokens.put("c", contents[2], "state c")
    assert tokens.get("b") is None
    assert tokens.get("a") == (contents[0], "state a")
    assert tokens.get("c") == (contents[2], "state c")
    nothing = OpenedTokens(0)
    nothing.put("a", contents[0], "state a")
    assert nothing.get("a") is None


def test_one_token_is_remembered_per_match_and_version_the_last_one() -> None:
    tokens = OpenedTokens(8)
    first, second = (Sealed.of(bytes(16), 5, "k1", b"{}", [events]) for events in (b"[1]", b"[2]"))
    other_match = Sealed.of(b"\1" * 16, 5, "k1", b"{}", [b"[3]"])
    next_version = Sealed.of(bytes(16), 6, "k1", b"{}", [b"[4]"])
    tokens.put("first", first, "state 1")
    tokens.put("other match", other_match, "state 3")
    tokens.put("next version", next_version, "state 4")
    tokens.put("second", second, "state 2")  # another successor of the same version: it replaces the first
    assert tokens.get("first") is None
    assert tokens.get("second") == (second, "state 2")
    assert tokens.get("other match") == (other_match, "state 3")
    assert tokens.get("next version") == (next_version, "state 4")
    assert len(tokens) == 3
    tokens.put("second", second, "state 2")  # the same token again: still one entry
    assert len(tokens) == 3


def test_remembered_tokens_stay_bounded_whatever_is_put() -> None:
    rng = random.Random(11)
    tokens = OpenedTokens(4)
    for number in range(300):
        contents = Sealed.of(bytes((rng.randrange(3),)) * 16, rng.randrange(4), "k1", b"{}", [])
        token = f"token {number}"
        tokens.put(token, contents, number)
        assert tokens.get(token) == (contents, number)
        assert len(tokens) <= 4


def test_a_token_sharing_a_remembered_tokens_tail_is_not_that_token() -> None:
    tokens = OpenedTokens(4)
    contents = Sealed.of(bytes(16), 1, "k1", b"{}", ())
    tail = "T" * TAIL_CHARACTERS
    tokens.put("A" * 100 + tail, contents, "state")
    assert tokens.get("A" * 100 + tail) == (contents, "state")
    assert tokens.get("B" + "A" * 99 + tail) is None  # same tail, another text
    assert tokens.get("A" * 99 + tail) is None  # a prefix cut off
    assert tokens.get(tail) is None


@pytest.mark.parametrize("game_id", list(GAMES))
def test_answers_from_remembered_tokens_equal_answers_from_tokens_opened_afresh(game_id: str) -> None:
    """Every answer of a random sealed match, asked through the remembered tokens (the state the engine
    made when it sealed them), equals the answer from the same token opened and parsed again."""
    game = GAMES[game_id]
    models = sealed_models(game_id)
    remembering, afresh = sealed_runs(game, RING), sealed_runs(game, RING, opened_tokens=0)
    rng = random.Random(f"remembered {game_id}")
    players = min(game.table_sizes())
    new = _request(models.new_request, {"players": players, "options": OPTIONS.get(game_id, {})})
    started = remembering["new"](new)
    fill = _request(models.fill_request, {"token": started.token, "host_key": started.host_key})
    filled = remembering["fill"](fill)
    token, keys = filled.token, filled.seat_keys
    for _ in range(60):
        legal = []
        for seat in range(players):
            asked = {"token": token, "seat": seat, "seat_key": keys[seat]}
            for name, request in (("moves", models.moves_request), ("view", models.view_request)):
                req = _request(request, asked)
                assert dump(remembering[name](req)) == dump(afresh[name](req)), (name, seat)
            legal += remembering["moves"](_request(models.moves_request, asked)).moves
        req = _request(models.score_request, {"token": token})
        assert dump(remembering["score"](req)) == dump(afresh["score"](req))
        if not legal:
            break
        move = rng.choice(legal)
        seat = move.player
        asked = {"token": token, "seat": seat, "seat_key": keys[seat], "move": orjson.loads(dump(move))}
        req = _request(models.apply_request, asked)
        applied, again = remembering["apply"](req), afresh["apply"](req)
        assert (applied.version, dump_all(applied.events)) == (again.version, dump_all(again.events))
        token = applied.token


def _request(model: Any, data: dict[str, Any]) -> Any:
    """The request model as the service validates a body."""
    return model.model_validate_json(orjson.dumps(data))


def dump_all(models: list[Any]) -> list[bytes]:
    """Each model's JSON."""
    return [dump(model) for model in models]


def test_seat_keys_are_the_documented_hmac_of_game_match_and_seat() -> None:
    # The module docstring's formula, computed here from the server key directly: the remembered seat
    # keys (a bounded memo of a pure function) answer exactly it, for every seat, twice.
    import hashlib
    import hmac

    match = _new("sjuan", 4)
    secret = RING.current.secret
    root = hmac.new(secret, b"sevens-rules seat v1", hashlib.sha256).digest()
    salts = open_token(RING, "sjuan", match["token"]).seat_salts  # drawn as each seat was taken
    assert len(set(salts)) == 4 and all(re.fullmatch("[0-9a-f]{32}", salt) for salt in salts)
    for _ in range(2):
        for seat in range(4):
            parts = (b"sjuan", match["match_id"].encode(), str(seat).encode(), salts[seat].encode())
            message = b"\0".join(parts)
            expected = base64.urlsafe_b64encode(hmac.digest(root, message, "sha256")).rstrip(b"=").decode()
            assert match["seat_keys"][seat] == expected
            body = _seat_body(match, seat)
            assert call(RING, "sjuan", "moves", body)[0] == 200


def test_bytes_are_spelled_as_the_standard_librarys_url_safe_base64_without_padding() -> None:
    rng = random.Random(3)
    for length in [*range(70), 1454, 1455, 1456]:
        data = rng.randbytes(length)
        assert _b64url(data) == base64.urlsafe_b64encode(data).rstrip(b"=").decode()


# ---- the payload as the token format states it -------------------------------------------------------


def _documented_payload(seat_key_id: str, state_json: bytes, log: list[bytes]) -> bytes:
    """Format 4's plaintext as the module docstring of api/sealing.py states it: the key id, the state,
    each logged version's events, separated by newlines."""
    return b"\n".join([seat_key_id.encode(), state_json, *log])


def _sized_payload(seat_key_id: str, state_json: bytes, log: list[tuple[int, bytes]]) -> bytes:
    """Format 3's plaintext as the module docstring of api/sealing.py states it, entry by entry."""
    parts = [bytes((len(seat_key_id),)), seat_key_id.encode(), struct.pack(">IH", len(state_json), len(log))]
    parts += [struct.pack(">II", version, len(events)) for version, events in log]
    return b"".join([*parts, state_json, *(events for _, events in log)])


def _nonce_at(raw: bytes) -> int:
    at = 1
    at += 1 + raw[at]  # key id
    at += 1 + raw[at]  # game id
    return at + 16 + 4  # match id, version


def _plaintext(token: str, ring: Keyring = RING) -> bytes:
    raw = _raw(token)
    at = _nonce_at(raw)
    plaintext: bytes = ring.current.aead.decrypt(raw[at : at + 12], raw[at + 12 :], raw[:at])
    return plaintext


def _unsalted(game_id: str, token: str) -> dict[str, Any]:
    """A token of a format made before seats joined, with its seat keys (derived without a join salt)."""
    opened = open_token(RING, game_id, token)
    players = GAMES[game_id].players(_state(game_id, token))
    return {"token": token, "seat_keys": [seat_key(RING, game_id, opened, seat) for seat in range(players)]}


def _resealed(token: str, token_format: int, payload: bytes, ring: Keyring = RING) -> str:
    """``token`` with another format byte and payload, sealed with the same key (as an older service
    sealed it)."""
    raw = _raw(token)
    header = bytes((token_format,)) + raw[1 : _nonce_at(raw)]
    nonce = os.urandom(12)
    return _b64(header + nonce + ring.current.aead.encrypt(nonce, payload, header))


def _json_events(rng: random.Random) -> bytes:
    """Events JSON of a random length, as compact as the service writes it (no raw newline)."""
    return orjson.dumps([{"type": "played", "note": "x" * rng.choice((0, 1, 7, 40, 300)) + "\n"}])


def test_a_log_made_move_by_move_is_the_log_of_its_last_entries_sealed_as_documented() -> None:
    rng = random.Random(5)
    kept = 4
    log = [(1, b'[{"type":"dealt"}]')]
    contents = Sealed.of(bytes(16), 1, "k1", b'{"v":1}', [log[0][1]])
    for version in range(2, 40):
        events = _json_events(rng)
        state_json = b'{"v":%d}' % version
        log = [*log, (version, events)][-kept:]
        contents = contents.followed_by(state_json, events, kept)
        assert contents == Sealed.of(bytes(16), version, "k1", state_json, [events for _, events in log])
        assert contents.version == version
        assert contents.log == tuple(log)
        token = seal(RING, "sjuan", contents)
        assert _plaintext(token) == _documented_payload("k1", state_json, [events for _, events in log])
        assert open_token(RING, "sjuan", token) == contents
    # a log longer than it keeps (a smaller keep than the token's) drops every entry beyond it at once
    assert contents.followed_by(b"{}", b"[]", 2).log == (log[-1], (40, b"[]"))
    assert contents.followed_by(b"{}", b"[]", 1).log == ((40, b"[]"),)
    # a log shorter than it keeps grows by one
    assert contents.followed_by(b"{}", b"[]", 9).log == (*log, (40, b"[]"))
    # the entry count a log carries is the number of its entries, whatever it keeps
    for keep in (1, 2, kept, 9):
        following = contents.followed_by(b"{}", b"[]", keep)
        assert following.log_entries == len(following.log) == min(keep, kept + 1)


@pytest.mark.parametrize("game_id", list(GAMES))
def test_answers_handing_out_a_new_token_are_written_as_pydantic_writes_them(game_id: str) -> None:
    game, models, runs = GAMES[game_id], sealed_models(game_id), sealed_runs(GAMES[game_id], RING)
    new = runs["new"](models.new_request(players=game.table_sizes()[0]))
    joined = runs["join"](models.join_request(token=new.token, seat=0, entropy='a "quoted" \\ string'))
    filled = runs["fill"](models.fill_request(token=joined.token, host_key=new.host_key))
    keys = [joined.seat_key, *filled.seat_keys[1:]]
    seat = runs["moves"](models.moves_request(token=filled.token, seat=0, seat_key=keys[0])).to_act[0]
    keyed = {"token": filled.token, "seat": seat, "seat_key": keys[seat]}
    move = runs["moves"](models.moves_request(**keyed)).moves[0]
    applied = runs["apply"](models.apply_request(**keyed, move=move))
    for answer in (new, joined, filled, applied):
        assert isinstance(answer, TokenFirst)
        assert dump(answer) == answer.__pydantic_serializer__.to_json(answer)
        assert orjson.loads(dump(answer))["token"] == answer.token
    only_a_token: Any = wire_model("OnlyAToken", "A token alone.", base=TokenFirst)
    alone = only_a_token(token=new.token)
    written = b'{"token":"%s"}' % new.token.encode()
    assert dump(alone) == alone.__pydantic_serializer__.to_json(alone) == written


def test_the_same_contents_seal_to_different_tokens() -> None:
    contents = Sealed.of(bytes(16), 3, "k1", b'{"v":3}', [b"[]"])
    tokens = {seal(RING, "sjuan", contents) for _ in range(50)}
    assert len(tokens) == 50
    assert {open_token(RING, "sjuan", token) for token in tokens} == {contents}


def test_a_token_with_an_empty_log_opens_to_an_empty_log() -> None:
    contents = Sealed.of(bytes(16), 7, "k1", b'{"v":7}', [])
    token = seal(RING, "sjuan", contents)
    assert _plaintext(token) == b'k1\n{"v":7}'
    assert open_token(RING, "sjuan", token) == contents
    assert open_token(RING, "sjuan", token).log == ()
    assert contents.followed_by(b"{}", b"[]", 3).log == ((8, b"[]"),)


def test_the_json_a_token_holds_never_has_a_raw_newline() -> None:
    # the payload's separator: JSON writes a newline inside a string as an escape, and the service's
    # dumps are compact (no whitespace between tokens)
    event = SjuanEvent(type=SjuanEventType.passed, player=1, chips=1, reason="line\nbreak")
    dumped = TypeAdapter(list[SjuanEvent]).dump_json([event], exclude_defaults=True)
    assert b"\n" not in dumped and b"\\n" in dumped
    state = GAMES["sjuan"].new_match(4, GAMES["sjuan"].models.options(), Seeding("00" * 32), None, None)[0]
    assert b"\n" not in model_json(state)


def test_a_token_of_the_earlier_sized_format_still_opens_and_is_sealed_again_in_the_current_one() -> None:
    # format 3 gave each log entry's version and length instead of newlines: a match sealed by the
    # previous release goes on
    match = _new("sjuan", 4)
    seat, move = _first_move("sjuan", match)
    status, applied = call(RING, "sjuan", "apply", _seat_body(match, seat, move=move))
    assert status == 200, applied
    current = open_token(RING, "sjuan", applied["token"])
    old_payload = _sized_payload(current.seat_key_id, current.state_json, list(current.log))
    old_token = _resealed(applied["token"], SIZED_FORMAT, old_payload)
    assert open_token(RING, "sjuan", old_token) == current._replace(seat_salts=())
    old = _unsalted("sjuan", old_token)
    dealt_at = match["version"]
    status, view = call(RING, "sjuan", "view", _seat_body(old, seat, since=0))
    assert status == 200, view
    assert [entry["version"] for entry in view["events"]] == [dealt_at, dealt_at + 1]
    seat, move = _first_move("sjuan", old)
    status, again = call(RING, "sjuan", "apply", _seat_body(old, seat, move=move))
    assert status == 200, again
    assert again["version"] == dealt_at + 2
    assert _raw(again["token"])[0] == FORMAT  # sealed again in the current format
    logged = [version for version, _ in open_token(RING, "sjuan", again["token"]).log]
    assert logged == [dealt_at, dealt_at + 1, dealt_at + 2]


# ---- a token's text: read where it is opened -------------------------------------------------------


_OUTSIDE_THE_ALPHABET = "=+/ .~\n\x00\u00e9\u2603\U0001f0a1"
_TOKEN_ALPHABET = re.compile(r"[A-Za-z0-9_-]+")  # TOKEN_PATTERN without its anchors, for fullmatch


@pytest.mark.parametrize("name", ["score", "moves", "apply", "view"])
@given(st.sampled_from(_OUTSIDE_THE_ALPHABET), st.integers(0, 4000))
def test_a_token_with_a_character_outside_the_url_safe_alphabet_is_refused_as_malformed_at_token(
    name: str, outside: str, at: int
) -> None:
    # the request models check a token's length only: every operation must refuse the rest when it opens
    # the token (the genuine token is remembered: one spoiled in front shares its tail)
    token = _SPOILED_MATCH["token"]
    at %= len(token) + 1
    spoiled = token[:at] + outside + token[at:]
    seat, move = _first_move("sjuan", _SPOILED_MATCH)
    body = {"token": spoiled} if name == "score" else _seat_body({**_SPOILED_MATCH, "token": spoiled}, seat)
    if name == "apply":
        body["move"] = move
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the decoder's deprecation warning for "+" "/" is not an answer
        status, problem = call(RING, "sjuan", name, body)
    assert (status, problem["code"]) == (422, "token/malformed"), problem
    assert [issue["path"] for issue in problem["errors"]] == ["/token"]


_SPOILED_MATCH = _new("sjuan", 4)


@given(st.text(max_size=60) | st.from_regex(r"[A-Za-z0-9_-]{1,60}", fullmatch=True))
def test_any_text_as_a_token_is_refused_with_a_token_code_at_token(text: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        status, problem = _score(text)
    assert status == 422
    assert problem["code"] in (TOKEN_CODES if text else {"request/invalid"}), problem
    assert [issue["path"] for issue in problem["errors"]] == ["/token"]
    if problem["code"] in TOKEN_CODES - {"token/malformed"}:  # read as far as its header: in the alphabet
        assert _TOKEN_ALPHABET.fullmatch(text)


_LONGEST = "A" * MAX_TOKEN_LENGTH


@pytest.mark.parametrize(
    ("value", "code"),
    [
        ("", "request/invalid"),
        ("A", "token/malformed"),
        ("AB==", "token/malformed"),
        ("AB=", "token/malformed"),
        ("A+B/", "token/malformed"),
        ("A\x00", "token/malformed"),
        (_LONGEST, "token/malformed"),
        (_LONGEST + "A", "request/invalid"),
        (None, "request/invalid"),
        (12, "request/invalid"),
        (["AB"], "request/invalid"),
    ],
)
def test_token_edge_cases_are_refused_at_token(value: Any, code: str) -> None:
    status, problem = _score(value)
    assert (status, problem["code"]) == (422, code), problem
    assert [issue["path"] for issue in problem["errors"]] == ["/token"]


def test_the_schema_documents_the_token_alphabet_and_length() -> None:
    schema = TypeAdapter(Token).json_schema()
    assert schema["type"] == "string"
    assert schema["pattern"] == TOKEN_PATTERN == f"^{_TOKEN_ALPHABET.pattern}$"
    assert (schema["minLength"], schema["maxLength"]) == (1, MAX_TOKEN_LENGTH)
    for name in ("score", "moves", "apply", "view"):
        request = sealed_models("sjuan").__dict__[f"{name}_request"].model_json_schema()
        assert request["properties"]["token"]["pattern"] == TOKEN_PATTERN
