"""Stateful fuzzing over HTTP that plays whole matches: a hypothesis state machine against the service's
ASGI application (sealed mode on), through the same requests a client sends.

Each run deals a match of a random game at a random table size and option set, plays moves chosen from
the service's own legal lists (one at a time, or many at once to reach the end of long matches), and
between moves sends what a hostile client would: a move for a seat not to act, a move that is not listed,
a tampered state, a sealed token applied twice; it also asks for samples of a seat's view (each a state
the service accepts, showing that seat the same view) and for a bot's move (one of the listed moves).
After every step it checks that the state is still one a match can reach (the service accepts it; every
card of the deck lies in exactly one place), that the score's outcome agrees with its deals (places by
total, winners once over), that each seat's view shows no card of another hand, that REST and GraphQL
answer ``moves`` alike, that ``outcome`` says over exactly when no seat has a move, and that every
refusal is a 4xx problem with a code.

The test command runs a bounded profile; ``RULES_FUZZ_PROFILE=long`` runs the long one (README,
"Conformance suite", gives its time).
"""

from __future__ import annotations

import os
import re
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from sevens_rules.api.app import create_app
from sevens_rules.api.limits import Settings
from sevens_rules.api.operations import games_response
from sevens_rules.conformance.graphql_documents import (
    GRAPHQL_PATH,
    Documents,
    root_field,
    served_schema,
    unaliased,
)
from sevens_rules.conformance.playthroughs import option_variants
from sevens_rules.conformance.replay import differences
from sevens_rules.conformance.transport import AsgiTransport
from tests.sealed_helpers import keyring

PROFILES = {
    "bounded": {"max_examples": 12, "stateful_step_count": 25},
    "long": {"max_examples": 100, "stateful_step_count": 100},
}
PROFILE = PROFILES[os.environ.get("RULES_FUZZ_PROFILE", "bounded")]
GAMES = games_response().model_dump(mode="json")["games"]
HTTP = AsgiTransport(create_app(Settings(), keyring("fuzz=9")))
DOCUMENTS = Documents(served_schema(HTTP))
CARD = re.compile(r"\b[A2-9TJQK][CDHS]\b")
PLAYED: list[tuple[str, int]] = []
"""The matches dealt and the matches played to their end in this process (reported by the test)."""
FINISHED: list[str] = []
CARDS = [rank + suit for suit in "CDHS" for rank in "A23456789TJQK"]
DECKS = (frozenset(CARDS), frozenset(card for card in CARDS if card[0] in "789TJQKA"))
"""The 52-card deck and the 32-card deck (7 to ace) Sedmice plays with."""
NOT_HELD = frozenset({"deals", "cut", "pending", "options", "seed", "commitment", "entropy", "game"})
"""State fields whose cards are not where a card lies now: finished deals' records, the cut for the deal
(its cards went back into the deck), My Ship Sails' pending choices (cards still in their hands)."""


def cards_in(node: Any) -> list[str]:
    """Every card name in a JSON value, as often as it occurs."""
    if isinstance(node, str):
        return [node] if node in CARDS else []
    if isinstance(node, dict):
        return [card for value in node.values() for card in cards_in(value)]
    if isinstance(node, list):
        return [card for value in node for card in cards_in(value)]
    return []


def cards_lying(state: dict[str, Any]) -> list[str]:
    """The cards of a state where they lie now: hands, table, stock, tricks, discards and the like."""
    return [card for field, value in state.items() if field not in NOT_HELD for card in cards_in(value)]


def refused(status: int, answer: Any) -> None:
    """A refusal is a 4xx problem with a stable code and the status in its body."""
    assert 400 <= status < 500, (status, answer)
    assert isinstance(answer.get("code"), str) and "/" in answer["code"], answer
    assert answer["status"] == status, answer


class MatchMachine(RuleBasedStateMachine):
    """One match, played through REST, probed by a hostile client after each move."""

    def __init__(self) -> None:
        super().__init__()
        self.game: dict[str, Any] = {}
        self.state: Any = None
        self.moves: dict[str, Any] = {}
        self.sealed: dict[str, Any] = {}

    def post(self, op: str, body: dict[str, Any]) -> tuple[int, Any]:
        status, answer = HTTP.post(f"/v1/games/{self.game['id']}/{op}", body)
        assert status < 500, (op, status, answer)
        return status, answer

    @initialize(data=st.data())
    def deal(self, data: st.DataObject) -> None:
        self.game = data.draw(st.sampled_from(GAMES), label="game")
        players = data.draw(st.sampled_from(self.game["player_counts"]), label="players")
        options = data.draw(st.sampled_from(option_variants(self.game)), label="options")
        seed = f"{data.draw(st.integers(0, 2**256 - 1), label='seed'):064x}"
        status, answer = self.post("new", {"players": players, "seed": seed, "options": options})
        assert status == 200, answer
        self.state = answer["state"]
        self.refresh()
        PLAYED.append((self.game["id"], players))
        status, table = self.post("sealed/new", {"players": players, "options": options})
        assert status == 200, table
        status, sealed = self.post("sealed/fill", {"token": table["token"], "host_key": table["host_key"]})
        assert status == 200, sealed
        self.sealed = sealed

    def refresh(self) -> None:
        status, self.moves = self.post("moves", {"state": self.state})
        assert status == 200, self.moves

    @precondition(lambda self: bool(self.moves.get("moves")))
    @rule(data=st.data(), count=st.sampled_from([1, 1, 1, 10, 100, 1000]))
    def play(self, data: st.DataObject, count: int) -> None:
        for _ in range(count):
            move = (
                data.draw(st.sampled_from(self.moves["moves"]), label="move")
                if count == 1
                else (self.moves["moves"][data.draw(st.integers(0, 10**6)) % len(self.moves["moves"])])
            )
            status, answer = self.post("apply", {"state": self.state, "move": move})
            assert status == 200, (move, answer)
            self.state = answer["state"]
            self.refresh()
            if not self.moves["moves"]:
                FINISHED.append(self.game["id"])
                break

    @precondition(lambda self: bool(self.moves.get("moves")))
    @rule(data=st.data())
    def move_for_a_seat_not_to_act(self, data: st.DataObject) -> None:
        others = [seat for seat in range(len(self.state["hands"])) if seat not in self.moves["to_act"]]
        if not others:
            return
        move = self.moves["moves"][0] | {"player": data.draw(st.sampled_from(others))}
        status, answer = self.post("apply", {"state": self.state, "move": move})
        refused(status, answer)
        assert answer["code"] == "move/not-your-turn", answer
        assert answer["legal_moves"] == self.moves["moves"]

    @precondition(lambda self: bool(self.moves.get("moves")))
    @rule(card=st.sampled_from(CARDS))
    def move_not_listed(self, card: str) -> None:
        move = self.moves["moves"][0] | {"card": card}
        if move in self.moves["moves"]:
            return
        status, answer = self.post("apply", {"state": self.state, "move": move})
        refused(status, answer)

    @rule(data=st.data())
    def tampered_state(self, data: st.DataObject) -> None:
        hands = self.state.get("hands")
        if not hands or sum(1 for hand in hands if hand) < 2:
            return
        full = [i for i, hand in enumerate(hands) if hand]
        giver, taker = data.draw(st.permutations(full))[:2]
        copied = [list(hand) for hand in hands]
        copied[taker][0] = hands[giver][0]  # one card in two hands
        status, answer = self.post("moves", {"state": self.state | {"hands": copied}})
        refused(status, answer)
        assert status == 422 and answer["errors"][0]["path"].startswith("/state"), answer

    @rule()
    def sealed_token_applied_twice(self) -> None:
        token, keys = self.sealed["token"], self.sealed["seat_keys"]
        for seat, key in enumerate(keys):
            status, moves = self.post("sealed/moves", {"token": token, "seat": seat, "seat_key": key})
            assert status == 200, moves
            if moves["moves"]:
                body = {"token": token, "seat": seat, "seat_key": key, "move": moves["moves"][0]}
                first_status, first = self.post("sealed/apply", body)
                assert first_status == 200, first
                again_status, again = self.post("sealed/apply", body)
                if again_status == 200:  # a retry: the same successor (the store keeps it), the same events
                    assert (again["version"], again["events"]) == (first["version"], first["events"])
                else:  # a match store refuses a fork with a stable code
                    refused(again_status, again)
                self.sealed = self.sealed | {"token": first["token"]}
                return

    @precondition(lambda self: self.state is not None)
    @rule(data=st.data(), sample_seed=st.sampled_from(["a", "b", "c"]))
    def sample_for_a_seat(self, data: st.DataObject, sample_seed: str) -> None:
        """States drawn for a seat are states the service accepts, and show that seat what it sees; once
        the match is over (every view shows the seed) a sample is refused."""
        seat = data.draw(st.integers(0, len(self.state["hands"]) - 1), label="seat")
        body = {"state": self.state, "player": seat, "count": 2, "sample_seed": sample_seed}
        status, answer = self.post("sample", body)
        if not self.post("moves", {"state": self.state})[1]["to_act"]:
            assert (status, answer["code"]) == (409, "match/over"), answer
            return
        assert status == 200, answer
        status, seen = self.post("view", {"state": self.state, "player": seat})
        assert status == 200, seen
        for sample in answer["states"]:
            status, moves = self.post("moves", {"state": sample})
            assert status == 200, moves
            status, view = self.post("view", {"state": sample, "player": seat})
            assert status == 200, view
            redrawn = {"commitment", "seed", "cut"}  # a fresh seed; Seven-Up's cut is left empty
            assert {k: v for k, v in view.items() if k not in redrawn} == {
                k: v for k, v in seen.items() if k not in redrawn
            }

    @precondition(lambda self: bool(self.moves.get("moves")))
    @rule(data=st.data(), level=st.sampled_from(["random", "rules", "search"]))
    def bot_for_a_seat_to_act(self, data: st.DataObject, level: str) -> None:
        """A bot answers one of the moves listed for its seat."""
        seat = data.draw(st.sampled_from(self.moves["to_act"]), label="seat")
        body = {"state": self.state, "player": seat, "level": level, "budget_ms": 20, "bot_seed": "fuzz"}
        status, answer = self.post("bot", body)
        assert status == 200, answer
        assert answer["move"] in self.moves["moves"], (answer["move"], self.moves["moves"])

    @invariant()
    def the_state_is_one_a_match_reaches(self) -> None:
        """The service accepts the state, no card is in two hands, and outcome says over exactly when no
        seat has a move left."""
        if self.state is None:
            return
        hands = self.state.get("hands") or []
        held = [card for hand in hands for card in hand if isinstance(card, str)]
        assert len(held) == len(set(held)), "a card in two hands"
        status, answer = self.post("score", {"state": self.state})
        assert status == 200, answer
        assert answer["outcome"]["over"] == (not self.moves["moves"]), (answer["outcome"], self.moves)
        assert self.moves["to_act"] == [] or self.moves["moves"], self.moves

    @invariant()
    def every_card_accounted_for(self) -> None:
        """Every card of the game's deck lies in exactly one place of the state, at every step."""
        if self.state is None:
            return
        lying = cards_lying(self.state)
        assert len(lying) == len(set(lying)), sorted(card for card in set(lying) if lying.count(card) > 1)
        assert frozenset(lying) in DECKS, sorted(set(CARDS) - set(lying))

    @invariant()
    def outcome_agrees_with_the_deals(self) -> None:
        """The score lists every finished deal of the state, in order (a game may add the deal in
        progress after them), and its outcome ranks the seats by their totals: places by total until the
        match is over, then the winners first."""
        if self.state is None:
            return
        status, score = self.post("score", {"state": self.state})
        assert status == 200, score
        finished = len(self.state["deals"])
        assert len(score["deals"]) in (finished, finished + 1), (score["deals"], self.state["deals"])
        assert [deal["number"] for deal in score["deals"][:finished]] == list(range(1, finished + 1))
        outcome = score["outcome"]
        seats = outcome["seats"]
        assert [entry["seat"] for entry in seats] == list(range(len(self.state["hands"])))
        sign = 1 if outcome["lowest_total_wins"] else -1
        if not outcome["over"]:
            assert outcome["winners"] == [], outcome
            for entry in seats:
                better = sum(1 for other in seats if sign * other["total"] < sign * entry["total"])
                assert entry["place"] == 1 + better, outcome
            return
        assert outcome["winners"], outcome
        assert [e["seat"] for e in seats if e["place"] == 1] == outcome["winners"], outcome
        others = [entry for entry in seats if entry["seat"] not in outcome["winners"]]
        for entry in others:
            better = sum(1 for other in others if sign * other["total"] < sign * entry["total"])
            assert entry["place"] == 1 + len(outcome["winners"]) + better, outcome

    @invariant()
    def views_show_no_other_hand(self) -> None:
        if self.state is None or "hands" not in self.state:
            return
        hands = self.state["hands"]
        for seat in range(len(hands)):
            status, view = self.post("view", {"state": self.state, "player": seat})
            assert status == 200, view
            shown = set(CARD.findall(str(view)))
            for other, hand in enumerate(hands):
                if other != seat:
                    assert not shown & set(hand), (seat, other, shown & set(hand))

    @invariant()
    def graphql_answers_moves_as_rest_does(self) -> None:
        if self.state is None:
            return
        field = root_field(self.game["id"], "moves")
        document, aliases = DOCUMENTS.document(field, ("state",))
        status, answer = HTTP.post(GRAPHQL_PATH, {"query": document, "variables": {"state": self.state}})
        assert status == 200, answer
        found = list(differences(self.moves, unaliased(answer["data"][field], aliases), null_is_absent=True))
        assert found == []


MatchMachine.TestCase.settings = settings(
    max_examples=PROFILE["max_examples"],
    stateful_step_count=PROFILE["stateful_step_count"],
    deadline=None,
    derandomize=os.environ.get("RULES_FUZZ_PROFILE", "bounded") == "bounded",
    database=None,
    suppress_health_check=list(HealthCheck),
)


def test_matches_played_by_a_hostile_client() -> None:
    MatchMachine.TestCase().runTest()
    # the fuzzing reached the ends of matches, not only their first moves
    assert len({game for game, _ in PLAYED}) > 1 and FINISHED, (PLAYED, FINISHED)
    print(f"{len(PLAYED)} matches dealt, {len(FINISHED)} played to the end: {sorted(set(FINISHED))}")
