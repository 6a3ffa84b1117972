"""Two checkouts' My Ship Sails answers compared step by step: ``python -m bench.lockstep_mss FIRST COUNT``.

Plays the seeded random My Ship Sails matches numbered ``FIRST`` to ``FIRST + COUNT - 1`` through the wire
API and prints, per match, its number, its steps and a SHA-256 of everything the engine answered on the
way (as :mod:`bench.lockstep` does for Sevens, whose digest helpers it imports). Run it with two
checkouts' venvs and compare the outputs: equal lines mean equal answers. A checkout without this file
runs a copy of it with its own python and its own ``bench`` on the path (a copy outside ``bench/``, whose
``bench.py`` would otherwise be imported as ``bench``)::

    .venv/bin/python -m bench.lockstep_mss 0 200 > mine.txt
    cp bench/lockstep_mss.py /tmp/lockstep_mss.py
    (cd /path/to/other && PYTHONPATH=. .venv/bin/python /tmp/lockstep_mss.py 0 200 > other.txt)
    diff other.txt mine.txt

A match has 4 to 7 seats, a random seed, entropy, first dealer and options (``auto_declare``,
``max_exchanges`` from 1 to unlimited), and sometimes an exact deck, dealt so that some hands are one suit
or one card short of it (random passing alone seldom completes a suit). Steps are capped
(:data:`MOST_STEPS`): a deal without ``max_exchanges`` may last for ever. The moves played are drawn from
every seat's listed moves, a declaration preferred when listed. At every step some states are posted again
(a JSON round trip, some with a hand or the unused cards out of canonical order) and some are posted with
something wrong (the checks' answer goes in), and the digest takes in the seats to act, every seat's moves
(and ``moves`` of seats not at the table), views, the score and outcome, the sealed padding, odd and
illegal moves tried (a seat that has chosen choosing again, cards not held, false declarations, a pass
naming a deck...: their new states or errors, with the legal moves an error lists), the applied move's
state and events and each seat's events, and now and then the REST operations' answers to the posted JSON.
What the matches met (event types, errors, inconsistent states) goes to stderr.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from typing import Any

from bench.lockstep import SEEN, check_answer, dumped, note_answers
from sevens_rules.engine.cards import FULL_DECK
from sevens_rules.engine.dealing import Seeding
from sevens_rules.engine.registry import GAMES
from sevens_rules.schema.my_ship_sails import (
    MyShipSailsMove,
    MyShipSailsMoveType,
    MyShipSailsOptions,
    MyShipSailsState,
)

GAME: Any = GAMES["my-ship-sails"]
MOST_STEPS = 300
"""Steps a match is played for at most."""
PASS = MyShipSailsMoveType("pass")
DECLARE = MyShipSailsMoveType.declare
NEXT_DEAL = MyShipSailsMoveType.next_deal


def suited_deck(rng: random.Random, players: int, dealer: int) -> list[str]:
    """A deck that deals some seats seven cards of one suit, or six and one card of another."""
    suits = rng.sample("CDHS", 4)
    hands: list[list[str]] = []
    free = list(FULL_DECK)
    rng.shuffle(free)
    for seat in range(players):
        kind = rng.random()
        if seat < 4 and kind < 0.5:
            suit = suits[seat]
            same = [card for card in free if card[1] == suit]
            count = 7 if kind < 0.15 else 6
            hand = same[:count]
            hand += [card for card in free if card not in hand][: 7 - len(hand)]
        else:
            hand = free[:7]
        for card in hand:
            free.remove(card)
        hands.append(hand)
    rng.shuffle(free)
    # dealt one at a time from the dealer's left: the k-th card goes to seat dealer + 1 + k
    order = [(dealer + 1 + k) % players for k in range(players)]
    deck = [hands[seat][round_] for round_ in range(7) for seat in order]
    return deck + free


def a_deck(rng: random.Random, players: int, dealer: int) -> list[str] | None:
    """A suited deck (:func:`suited_deck`), a shuffled one, or none (the seeded shuffle)."""
    roll = rng.random()
    if roll < 0.5:
        return suited_deck(rng, players, dealer)
    if roll < 0.65:
        return rng.sample(FULL_DECK, 52)
    return None


def odd_moves(
    rng: random.Random, state: MyShipSailsState, to_act: list[int], moves: list[Any]
) -> list[MyShipSailsMove]:
    """Moves to try besides the listed ones: seats that have chosen, cards not held, declarations of any
    hand, a declaration naming a card, a pass naming no card or a deck, ``next_deal`` with and without a
    deck, a listed move posted again."""
    n = len(state.hands)
    chosen = [seat for seat, choice in enumerate(state.pending) if choice is not None]
    tries = []
    for _ in range(4):
        seat = rng.choice([*range(n), *(chosen or [0]), rng.choice(to_act) if to_act else 0])
        kind = MyShipSailsMoveType(rng.choice(["pass", "pass", "declare", "next_deal"]))
        if kind is PASS:
            card = rng.choice([*state.hands[seat], *rng.sample(FULL_DECK, 2), None])
            deck = list(FULL_DECK) if rng.random() < 0.1 else None
            tries.append(MyShipSailsMove(type=kind, player=seat, card=card, deck=deck))
        elif kind is DECLARE:
            card = rng.choice([None, None, None, state.hands[seat][0]])
            tries.append(MyShipSailsMove(type=kind, player=seat, card=card))
        else:
            deck = rng.choice([None, list(FULL_DECK), rng.sample(FULL_DECK, 52)])
            tries.append(MyShipSailsMove(type=kind, player=seat, deck=deck))
    if rng.random() < 0.1:
        tries.append(MyShipSailsMove(type=PASS, player=rng.choice([n, 6]), card=state.hands[0][0]))
    if moves:
        listed = rng.choice(moves)
        tries.append(MyShipSailsMove.model_validate_json(listed.model_dump_json()))
    return tries


def posted_again(rng: random.Random, state: MyShipSailsState) -> MyShipSailsState:
    """``state``, or sometimes the state a client posts again: a JSON round trip, now and then with a
    hand or the unused cards out of canonical order."""
    roll = rng.random()
    if roll < 0.15:
        return MyShipSailsState.model_validate_json(state.model_dump_json())
    if roll < 0.2:
        data = json.loads(state.model_dump_json())
        if rng.random() < 0.7:
            rng.shuffle(data["hands"][rng.randrange(len(data["hands"]))])
            SEEN["shuffled hand"] += 1
        else:
            rng.shuffle(data["unused"])
            SEEN["shuffled unused"] += 1
        return MyShipSailsState.model_validate_json(json.dumps(data))
    return state


def corrupted(rng: random.Random, state: MyShipSailsState) -> str:
    """The JSON of ``state`` with one or two things wrong (a card moved, repeated or lost, a pending choice
    changed, counters, the dealer, the phase or a deal record changed): what the checks are given."""
    data = json.loads(state.model_dump_json())
    hands, n = data["hands"], len(data["hands"])
    for _ in range(rng.choice([1, 1, 2])):
        kind = rng.randrange(10)
        seat = rng.randrange(n)
        if kind == 0:  # a card from a hand to another
            hands[(seat + 1) % n].append(hands[seat].pop(rng.randrange(len(hands[seat]))))
        elif kind == 1:  # a card twice
            hands[seat][0] = rng.choice(hands[(seat + 1) % n])
        elif kind == 2 and data["unused"]:  # an unused card swapped into a hand
            hands[seat][0], data["unused"][0] = data["unused"][0], hands[seat][0]
        elif kind == 3:  # a pending choice: a card, a declaration, or cleared
            data["pending"][seat] = rng.choice(
                [
                    {"type": "pass", "card": rng.choice(FULL_DECK)},
                    {"type": "pass", "card": hands[seat][0]},
                    {"type": "declare", "card": None},
                    {"type": "declare", "card": hands[seat][0]},
                    None,
                ]
            )
        elif kind == 4:  # every seat chosen
            data["pending"] = [{"type": "pass", "card": hand[0]} for hand in hands]
        elif kind == 5:
            data["exchanges"] = rng.choice([0, 1, 5, 60, 2**31 - 1])
        elif kind == 6:
            data["dealer"] = rng.randrange(n)
        elif kind == 7:
            data["phase"] = rng.choice(["step", "deal_over", "match_over"])
        elif kind == 8 and data["deals"]:
            deal = rng.choice(data["deals"])
            field = rng.choice(["winners", "exchanges", "dealer", "number"])
            deal[field] = [rng.randrange(n)] if field == "winners" else rng.randrange(4)
        else:
            data["deal_number"] = rng.randrange(1, 6)
    return json.dumps(data)


def chosen_move(rng: random.Random, moves: list[MyShipSailsMove]) -> MyShipSailsMove:
    """A listed move: a declaration when one is listed (mostly), else any."""
    declarations = [move for move in moves if move.type is DECLARE]
    if declarations and rng.random() < 0.7:
        return rng.choice(declarations)
    return rng.choice(moves)


def play_match(number: int) -> tuple[int, str]:
    """Match ``number`` played to its end (or :data:`MOST_STEPS`): its steps and the digest of every
    answer."""
    rng = random.Random(number)
    digest = hashlib.sha256()

    def note(*parts: object) -> None:
        digest.update(repr(parts).encode())

    players = rng.randrange(4, 8)
    seeding = Seeding(
        f"{rng.getrandbits(256):064x}", tuple(f"e{rng.randrange(100)}" for _ in range(rng.randrange(3)))
    )
    options = MyShipSailsOptions(
        auto_declare=rng.random() < 0.4, max_exchanges=rng.choice([1, 2, 3, 8, 30, 1000, None])
    )
    dealer = rng.choice([None, *range(players)])
    deck = a_deck(rng, players, dealer or 0)
    state, events = GAME.new_match(players, options, seeding, deck, dealer)
    note("new", dumped(state), [dumped(event) for event in events])
    for steps in range(1, MOST_STEPS + 1):
        if rng.random() < 0.15:
            note("corrupted", check_answer(GAME, corrupted(rng, state)))
        state = posted_again(rng, state)
        GAME.check(state)
        moves = note_answers(note, rng, GAME, state, players, odd_moves, (GAME.hidden_length_slack(state),))
        if not moves:
            return steps, digest.hexdigest()
        move = chosen_move(rng, moves)
        if move.type is NEXT_DEAL and rng.random() < 0.5:
            deck = a_deck(rng, players, (state.dealer + 1) % players)
            move = MyShipSailsMove(type=NEXT_DEAL, player=move.player, deck=deck)
        state, events = GAME.apply(state, move)
        note("applied", dumped(move), dumped(state), [dumped(event) for event in events])
        for seat in range(players):
            shown = [GAME.event_for_seat(event, seat) for event in events]
            note("seat events", seat, [None if event is None else dumped(event) for event in shown])
        for event in events:
            SEEN[str(event.type)] += 1
            SEEN["auto declared"] += bool(event.auto)
    return MOST_STEPS, digest.hexdigest()


def main(argv: list[str]) -> int:
    if len(argv) != 2 or not all(arg.isdigit() for arg in argv):
        print("usage: python -m bench.lockstep_mss FIRST COUNT", file=sys.stderr)
        return 2
    first, count = map(int, argv)
    total = 0
    for number in range(first, first + count):
        steps, hexdigest = play_match(number)
        total += steps
        print(number, steps, hexdigest, flush=True)
    print("steps", total)
    print(sorted(SEEN.items()), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
