"""The ``rules`` level: one heuristic per game, written from the rules texts (RULINGS.md). Each reads the
seat's own hand and the public cards only, scores the legal moves and plays the best (ties: the engine's
order of the moves).

- **Layout games** (Sjuan, Fan Tan, free fan tan, Domino fan tan, Sevens): a card opens the way to the
  cards beyond it in its row. Play the card that opens the way to most of one's own cards and to fewest
  of the others' (hold the 7s and the row ends that block the other seats); dump cards that block
  nothing. Free fan tan's first card sets every suit's start rank: open with the lowest rank one holds,
  so that none of one's cards is left below it. In Sevens, where a pass is allowed holding a playable
  card, pass (while two passes remain) rather than open a row for the others only.
- **Seven-Up family**: stand (or give, as dealer) with two trumps or a trump honour (A, K, Q, J), else
  beg (or run); discard the lowest plain cards, keeping tens (Game) and trumps. Lead trumps when holding
  a trump honour and two trumps, and always when one's side is ahead in the match; otherwise lead the
  lowest plain card. Follow by taking the trick with the cheapest winning card when it holds points
  (a ten, an honour, the trump Jack) or when nobody on one's side is winning; give a ten to a partner
  who is winning; otherwise throw the lowest card, keeping tens and trumps.
- **Sedmice**: lead a plain card (not an ace, ten or 7) of the rank one holds most of; answer to take a
  trick holding points when the other side is winning it, spending a 7 only for 20 points or more; give
  points to one's own side's winning trick; otherwise play a plain card that does not answer. As leader
  after a full round, extend when the other side is winning points and one can answer; else end it.
- **My Ship Sails**: declare when the hand is one suit; otherwise collect the suit one holds most of and
  pass the lowest card of the suit one holds fewest of. Once a deal has run four exchanges per seat
  without a declaration, a seat passes a card drawn by lot (:func:`mss_lot`) one exchange in ten: the
  text lets a player change the suit they collect at any time, and seats that keep collecting suits none
  of them can complete (fewer than seven of the suit were dealt, or two seats share it) would otherwise
  pass the same cards round for ever (30% of four-seat deals between `rules` seats did).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from typing import Any

from ...schema.scalars import MAX_SEATS
from ..card_sets import CARD_INDEX, RANK_ROW, SUIT_SIZE, SUITS, card_set
from ..cards import FULL_DECK
from ..my_ship_sails_position import DECLARE as MSS_DECLARE
from ..my_ship_sails_position import HAND_SIZE as MSS_HAND_SIZE
from ..my_ship_sails_position import SEAT_SHIFT as MSS_SEAT_SHIFT
from ..my_ship_sails_position import one_suit
from ..sedmice_position import END_TRICK, EXTEND, POINT_CARDS, SEVENS, points_of
from ..sedmice_position import RANK_ROW as PIQUET_RANK_ROW
from ..sedmice_position import SUIT_SIZE as PIQUET_SUIT_SIZE
from ..sedmice_tricks import trick_winner
from ..seven_up_position import DISCARD as SEVEN_UP_DISCARD
from ..seven_up_position import GIVE, STAND, STRENGTH
from ..seven_up_rules import trick_winner_index as seven_up_winner_index
from ..simulate import position_rules
from ..sjuan_position import PASS
from ..tricks import trick_winner_index
from . import position
from .position import AnyGame

LOW_ACE = "A23456789TJQK"
"""Rank order of the layout games: Ace low, King high."""
ACE_LOW = LOW_ACE
"""The ranks of a suit in the 52-card deck's order (a card's index within its suit)."""
ACE_HIGH = "23456789TJQKA"
"""Rank order of the trick games."""
HONOURS = frozenset("AKQJ")


def rules_move(game: AnyGame, state: Any, seat: int, moves: list[Any], rng: random.Random) -> Any:
    """The heuristic's move among ``moves`` (the seat's legal moves)."""
    return rules_chooser(game)(state, seat, moves)


Chooser = Callable[[Any, int, list[Any]], Any]
"""The heuristic of one game: the move it plays among a seat's legal moves in a state."""


def rules_chooser(game: AnyGame) -> Chooser:
    """The heuristic of ``game`` as one function, looked up once (a playout asks it at every move)."""
    score = _SCORERS.get(game.id)
    if score is None:
        return _first_move
    if score is _layout:
        return _layout_chooser(game)

    def choose(state: Any, seat: int, moves: list[Any]) -> Any:
        scorer = score(game, state, seat)
        best, best_value = moves[0], scorer(moves[0])
        for move in moves[1:]:  # the first of the best-scored moves
            value = scorer(move)
            if value > best_value:
                best, best_value = move, value
        return best

    return choose


def _first_move(state: Any, seat: int, moves: list[Any]) -> Any:
    return moves[0]


Scorer = Callable[[Any], float]


# ---- layout games ---------------------------------------------------------------------------------


def _layout(game: AnyGame, state: Any, seat: int) -> Scorer:
    hand = frozenset(state.hands[seat])
    free = game.id == "free-fan-tan"
    start = LOW_ACE.index(state.table[0][0]) if free and state.table else SEVEN
    passes_left = 3 - state.passes[seat] if game.id == "sevens" else 0
    beyond = _BEYOND[free][start]
    opening = free and not state.table

    def score(move: Any) -> float:
        kind = move.type
        if kind == "play":
            card = move.card
            if opening:
                # free fan tan's first card sets the start rank: cards below it can never be played
                start_rank = LOW_ACE.index(card[0])
                return _opening_value(sum(LOW_ACE.index(held[0]) < start_rank for held in hand), start_rank)
            return _play_value(hand, beyond[card])
        if kind == "pass":
            return _pass_value(passes_left)
        return 0.0  # draw: the only move when it is legal

    return score


def _play_value(hand: frozenset[str], opened: frozenset[str]) -> float:
    """A play's value: the cards of its row it opens the way to (:func:`_opened_value`)."""
    own = len(hand & opened)
    return _opened_value(own, len(opened) - own)


def _opened_value(own: int, others: int) -> float:
    """The value of opening the way to ``own`` cards of the player's hand and ``others`` cards held by
    the others: its own counted for, the others' (a third as much) against."""
    return own - 0.3 * others


def _opening_value(below: int, start_rank: int) -> float:
    """The value of opening free fan tan at ``start_rank`` holding ``below`` cards of lower ranks, which
    can then never be played (the lower start rank breaks a tie)."""
    return -below - 0.01 * start_rank


def _pass_value(passes_left: int) -> float:
    """A pass's value. Moves are scored in the engine's order, plays before the pass: pass only when
    every play opens a row for the others alone and passes are to spare."""
    return -2.5 if passes_left >= 2 else -100.0


SEVEN = LOW_ACE.index("7")


def _layout_chooser(game: AnyGame) -> Chooser:
    """:func:`_layout`'s choice without building a scorer per move: the same values
    (:func:`_play_value`, :func:`_pass_value`), the first best.
    Only the free fan tan opening (its first card) goes through the scorer."""
    free = game.id == "free-fan-tan"
    sevens = game.id == "sevens"
    by_start = _BEYOND[free]

    def choose(state: Any, seat: int, moves: list[Any]) -> Any:
        table = state.table
        if free and not table:
            scorer = _layout(game, state, seat)
            return max(moves, key=scorer)  # max keeps the first of equal scores, as rules_move does
        hand = frozenset(state.hands[seat])
        beyond = by_start[LOW_ACE.index(table[0][0]) if free else SEVEN]
        best, best_value = moves[0], -1000.0
        for move in moves:
            kind = move.type
            if kind == "play":
                value = _play_value(hand, beyond[move.card])
            elif kind == "pass":
                value = _pass_value(3 - state.passes[seat] if sevens else 0)
            else:
                value = 0.0
            if value > best_value:
                best, best_value = move, value
        return best

    return choose


def _beyond_cards(card: str, start: int, free: bool) -> frozenset[str]:
    """The cards a card opens the way to in its row: from the start rank (7) both ways, beyond it
    outward; in free fan tan, whose rows run up from the start rank, every higher card of the suit (below
    the start rank, every lower one)."""
    rank, suit = LOW_ACE.index(card[0]), card[1]
    if rank == start and not free:
        ranks = [r for r in range(len(LOW_ACE)) if r != rank]
    elif rank >= start:
        ranks = list(range(rank + 1, len(LOW_ACE)))
    else:
        ranks = list(range(rank))
    return frozenset(LOW_ACE[r] + suit for r in ranks)


_BEYOND: dict[bool, list[dict[str, frozenset[str]]]] = {
    free: [
        {rank + suit: _beyond_cards(rank + suit, start, free) for rank in LOW_ACE for suit in "CDHS"}
        for start in range(len(LOW_ACE))
    ]
    for free in (False, True)
}
"""Every card's :func:`_beyond_cards` by start rank, computed once: each playout move asks it."""


def position_chooser(game: AnyGame) -> Chooser:
    """:func:`rules_chooser` of a game on its positions: Sedmice's (:func:`_sedmice_position_chooser`), the
    Seven-Up family's (:func:`_seven_up_position_chooser`), My Ship Sails'
    (:func:`_my_ship_sails_position_chooser`), or
    a layout game's (the Sjuan family's :mod:`~sevens_rules.engine.sjuan_position`, Sevens'
    :mod:`~sevens_rules.engine.sevens_position`: hands as sets of card bits, moves as codes): the same
    values of the same moves, so the same choice (the first best in the engine's order)."""
    if game.id == "sedmice":
        return _sedmice_position_chooser()
    if _SCORERS.get(game.id) is _seven_up:
        return _seven_up_position_chooser(game)
    if game.id == "my-ship-sails":
        return _my_ship_sails_position_chooser
    free = game.id == "free-fan-tan"
    sevens = game.id == "sevens"
    by_start = _BEYOND_BITS[free]
    pass_value = _pass_value(0)  # no passes to spare outside Sevens

    def choose(position: Any, seat: int, moves: list[int]) -> int:
        table = position.table
        hand = position.hands[seat]
        if free and not table:
            # free fan tan's first card sets the start rank: cards below it can never be played
            return max(
                moves,
                key=lambda card: _opening_value(
                    (hand & _BELOW_RANK[card % SUIT_SIZE]).bit_count(), card % SUIT_SIZE
                ),
            )
        beyond = by_start[CARD_INDEX[table[0]] % SUIT_SIZE if free else SEVEN]
        best, best_value = moves[0], -1000.0
        for move in moves:
            if move < PASS:
                opened = beyond[move]
                own = (hand & opened).bit_count()
                value = _opened_value(own, opened.bit_count() - own)
            elif move == PASS:
                value = _pass_value(3 - position.passes[seat]) if sevens else pass_value
            else:
                value = 0.0
            if value > best_value:
                best, best_value = move, value
        return best

    return choose


Heuristic = Callable[[Any, int], Any]
"""The heuristic of one game as a playout asks it: the move it plays for a seat to act in a bots' state."""


def playout_heuristic(game: AnyGame, steps: position.PlayoutSteps) -> Heuristic:
    """The heuristic a playout of ``game`` asks at each move, on the bots' states ``steps`` plays: it lists
    the seat's legal moves and picks among them (:func:`position_chooser` on positions,
    :func:`rules_chooser` on wire states; a lone move is played as it is), but in My Ship Sails, whose
    choice is read from the hand alone (:func:`_my_ship_sails_position_move`): a seat may pass any card
    it holds, so the list would tell the choice nothing the hand does not, at more cost than the choice."""
    if steps.on_positions and game.id == "my-ship-sails":
        return _my_ship_sails_position_move
    listed = steps.moves
    choose = position_chooser(game) if steps.on_positions else rules_chooser(game)

    def heuristic(state: Any, seat: int) -> Any:
        moves = listed(state, seat)
        return moves[0] if len(moves) == 1 else choose(state, seat, moves)

    return heuristic


_BEYOND_BITS: dict[bool, list[list[int]]] = {
    free: [[card_set(tuple(by_card[card])) for card in FULL_DECK] for by_card in by_start]
    for free, by_start in _BEYOND.items()
}
""":data:`_BEYOND` as sets of card bits, by start rank and card code."""
_BELOW_RANK = [sum(RANK_ROW[:rank]) for rank in range(SUIT_SIZE)]
"""The cards of every rank below each rank."""


# ---- Seven-Up family ------------------------------------------------------------------------------


def _seven_up(game: AnyGame, state: Any, seat: int) -> Scorer:
    hand = list(state.hands[seat])
    n = len(state.hands)
    trump = state.trump or (state.turned[1] if state.turned else None)
    trumps = [c for c in hand if c[1] == trump]
    strong = len(trumps) >= 2 or any(c[0] in HONOURS for c in trumps)
    totals = position.totals(game, state)
    ahead = totals[seat] >= max(totals)
    partner = (seat + 2) % n if n == 4 else None
    trick = list(state.trick)
    leader = state.leader

    def value(card: str) -> float:
        """What a card is worth keeping: trumps and tens (Game) and honours most."""
        worth = ACE_HIGH.index(card[0])
        if card[0] == "T":
            worth += 10
        if card[1] == trump:
            worth += 20
        return worth

    def winner_after(card: str) -> int:
        cards = [*trick, card]
        winner: int = (leader + trick_winner_index(cards, trump)) % n
        return winner

    def score(move: Any) -> float:
        kind = move.type
        if kind in ("stand", "give"):
            return 1.0 if strong else -1.0
        if kind in ("beg", "run"):
            return 0.0
        card = move.card if move.card is not None else (move.cards or [""])[0]
        if kind == "discard":
            return -value(card)
        if kind != "play":
            return 0.0
        if not trick:  # leading
            if card[1] == trump and (ahead or (len(trumps) >= 2 and any(c[0] in HONOURS for c in trumps))):
                return 50 + ACE_HIGH.index(card[0])
            return -value(card)
        points_on_table = any(c[0] == "T" or (c[1] == trump and c[0] in HONOURS) for c in trick)
        current = (leader + trick_winner_index(trick, trump)) % n
        if partner is not None and current == partner:
            return 30 if card[0] == "T" and card[1] != trump else -value(card)
        if winner_after(card) == seat and (points_on_table or card[0] == "T" or current != partner):
            return 40 - value(card)
        return -value(card)

    return score


_TENS = sum(1 << (suit * SUIT_SIZE + ACE_LOW.index("T")) for suit in range(4))
"""The four tens (Game's ten points each)."""
_HONOUR_CARDS = sum(1 << (suit * SUIT_SIZE + ACE_LOW.index(rank)) for suit in range(4) for rank in HONOURS)
"""The Aces, Kings, Queens and Jacks."""
_KEEP_VALUE = tuple(STRENGTH[card] + (10 if _TENS >> card & 1 else 0) for card in range(52))
""":func:`_seven_up`'s ``value`` of each card but the trump bonus."""


def _seven_up_position_chooser(game: AnyGame) -> Chooser:
    """:func:`_seven_up`'s choice on the Seven-Up family's positions
    (:mod:`~sevens_rules.engine.seven_up_position`: hands as sets of card bits, moves as codes): the same
    values of the same moves, the first best."""
    rules = position_rules(game)
    assert rules is not None

    def choose(place: Any, seat: int, moves: list[int]) -> int:
        hand = place.hands[seat]
        trump = place.trump
        trump_cards = SUITS[trump] if trump >= 0 else 0
        trumps = hand & trump_cards
        count = trumps.bit_count()
        strong = count >= 2 or bool(trumps & _HONOUR_CARDS)

        def value(card: int) -> int:
            return _KEEP_VALUE[card] + (20 if trump_cards >> card & 1 else 0)

        trick = place.trick
        n = place.match.players
        partner = (seat + 2) % n if n == 4 else None
        leader = place.leader
        leads_trumps = points_on_table = False
        current = None
        if not trick:
            totals = rules.position_totals(place)
            leads_trumps = totals[seat] >= max(totals) or (count >= 2 and bool(trumps & _HONOUR_CARDS))
        else:
            points_on_table = any(_TENS >> c & 1 or (trump_cards & _HONOUR_CARDS) >> c & 1 for c in trick)
            current = (leader + seven_up_winner_index(trick, trump)) % n
        best, best_value = moves[0], -1e9
        for move in moves:
            if move >= SEVEN_UP_DISCARD:
                if move >= STAND:
                    worth = (1.0 if strong else -1.0) if move in (STAND, GIVE) else 0.0
                else:
                    worth = -value(move - SEVEN_UP_DISCARD)
            elif not trick:  # leading: a trump when strong in trumps or ahead, else the card least worth
                worth = 50 + STRENGTH[move] if trump_cards >> move & 1 and leads_trumps else -value(move)
            elif partner is not None and current == partner:
                worth = 30 if _TENS >> move & 1 and not trump_cards >> move & 1 else -value(move)
            elif (leader + seven_up_winner_index((*trick, move), trump)) % n == seat and (
                points_on_table or _TENS >> move & 1 or current != partner
            ):
                worth = 40 - value(move)
            else:
                worth = -value(move)
            if worth > best_value:
                best, best_value = move, worth
        return best

    return choose


# ---- Sedmice --------------------------------------------------------------------------------------


def _sedmice(game: AnyGame, state: Any, seat: int) -> Scorer:
    hand = list(state.hands[seat])
    n = len(state.hands)
    trick = [list(r) for r in state.trick]
    cards_on_table = [c for r in trick for c in r]
    led_rank = trick[0][0][0] if trick else None
    winning = trick_winner(trick, state.leader, n) if trick else None
    ours = winning is not None and winning % 2 == seat % 2
    points = 10 * sum(c[0] in "AT" for c in cards_on_table)
    ranks = Counter(c[0] for c in hand)

    def plain(card: str) -> bool:
        return card[0] not in "AT7"

    def score(move: Any) -> float:
        kind = move.type
        if kind == "end_trick":
            return 1.0
        card = move.card
        if kind == "extend":
            return 2.0 if not ours and points else 0.0
        if kind != "play" or card is None:
            return 0.0
        if led_rank is None:  # leading
            return (10 if plain(card) else 0) + ranks[card[0]]
        answers = card[0] == led_rank or card[0] == "7"
        if ours:
            return (20 if card[0] in "AT" and not answers else 0) - (5 if card[0] == "7" else 0)
        if answers and (points or card[0] in "AT"):
            return 30 - (15 if card[0] == "7" and points < 20 else 0)
        return (10 if plain(card) and not answers else 0) - (5 if card[0] == "7" else 0)

    return score


_PLAIN = ((1 << 32) - 1) & ~(SEVENS | POINT_CARDS)
"""Sedmice's plain cards: neither a 7, a ten nor an Ace."""
_SAME_RANK = [PIQUET_RANK_ROW[card % PIQUET_SUIT_SIZE] for card in range(32)]
"""``_SAME_RANK[card]``: the four cards of a Sedmice card's rank."""


def _sedmice_position_chooser() -> Chooser:
    """:func:`_sedmice`'s choice on Sedmice's positions (:mod:`~sevens_rules.engine.sedmice_position`:
    hands as sets of card bits, moves as codes): the same values of the same moves, the first best."""

    def choose(position: Any, seat: int, moves: list[int]) -> int:
        hand = position.hands[seat]
        played = position.played
        if not played:  # leading: a plain card, of the rank held most
            values = [
                (10 if _PLAIN >> move & 1 else 0)
                + (hand & PIQUET_RANK_ROW[move % PIQUET_SUIT_SIZE]).bit_count()
                for move in moves
            ]
            return moves[values.index(max(values))]
        ours = position.winner % 2 == seat % 2
        points = points_of(played)
        answering = position.answering
        best, best_value = moves[0], -1000.0
        for move in moves:
            if move == END_TRICK:
                value = 1.0
            elif move >= EXTEND:
                value = 2.0 if not ours and points else 0.0
            else:
                seven = SEVENS >> move & 1
                answers = answering >> move & 1
                if ours:
                    value = (20 if POINT_CARDS >> move & 1 and not answers else 0) - (5 if seven else 0)
                elif answers and (points or POINT_CARDS >> move & 1):
                    value = 30 - (15 if seven and points < 20 else 0)
                else:
                    value = (10 if _PLAIN >> move & 1 and not answers else 0) - (5 if seven else 0)
            if value > best_value:
                best, best_value = move, value
        return best

    return choose


# ---- My Ship Sails --------------------------------------------------------------------------------


MSS_LOT_ONE_IN = 10
"""My Ship Sails: once the lot may fall, one exchange in this many a seat passes a card drawn by lot
(:func:`mss_lot`)."""

MSS_LOT_AFTER_ROUNDS = 4
"""My Ship Sails: the lot may fall once a deal has run this many exchanges per seat with no declaration.
Most deals between `rules` seats end by then (a median of 9 exchanges at four seats, 7 at six); a lot
from the first round on lengthened the search's playouts by a fifth and a `rules` seat's median deal
against `random` seats from 16 exchanges to 25 (150 seeded deals at four seats, each way)."""

_MSS_MIX = 0x9E3779B1
"""Knuth's multiplicative hash constant (2^32 over the golden ratio): mixes an exchange and a seat into
32 bits whose high bits serve as the lot."""


def mss_lot(seat: int, exchanges: int, players: int) -> int | None:
    """My Ship Sails: the place (0 to 6, in canonical order) in ``seat``'s hand of the card it passes by lot
    at the exchange after ``exchanges`` completed ones, or None to pass by the heuristic. No lot before a
    deal has run :data:`MSS_LOT_AFTER_ROUNDS` exchanges per seat; then one exchange in
    :data:`MSS_LOT_ONE_IN` per seat.

    The lot is a fixed function of the exchange and the seat, both public: the move still depends on the
    seat's own hand only, the same state always gets the same move, and because the exchange count only
    grows, no sequence of hands can repeat for ever with the same choices."""
    if exchanges < MSS_LOT_AFTER_ROUNDS * players:
        return None
    mixed = (exchanges * MAX_SEATS + seat) * _MSS_MIX & 0xFFFFFFFF
    if (mixed >> 20) % MSS_LOT_ONE_IN:
        return None
    return (mixed >> 8 & 0xFFF) % MSS_HAND_SIZE


def drawn_by_lot(game: AnyGame, state: Any, seat: int) -> bool:
    """Whether the heuristic's move for ``seat`` in ``state`` is drawn by lot (My Ship Sails, :func:`mss_lot`;
    a declaration still comes first). The search plays it rather than search: its draws of the other hands
    cannot tell a deal where the seat's suit is blocked from one where it is open (a state keeps no record
    of the cards that passed), so they would keep the collection the lot exists to break."""
    return game.id == "my-ship-sails" and mss_lot(seat, state.exchanges, len(state.hands)) is not None


def _my_ship_sails(game: AnyGame, state: Any, seat: int) -> Scorer:
    hand = list(state.hands[seat])
    suits = Counter(c[1] for c in hand)
    lot = mss_lot(seat, state.exchanges, len(state.hands))
    # the lot's place is in canonical order, as on positions: a posted hand may list its cards in any order
    drawn = None if lot is None else sorted(hand, key=CARD_INDEX.__getitem__)[lot]

    def score(move: Any) -> float:
        if move.type == "declare":
            return 1000.0
        if move.type != "pass":
            return 0.0
        if move.card == drawn:
            return 100.0
        return -suits[move.card[1]] * 20 - LOW_ACE.index(move.card[0])

    return score


def _my_ship_sails_position_chooser(position: Any, seat: int, moves: list[int]) -> int:
    """:func:`_my_ship_sails`'s choice on My Ship Sails' positions, ``moves`` being the seat's listed codes:
    :func:`_my_ship_sails_position_move`, which needs no list."""
    return _my_ship_sails_position_move(position, seat)


def _my_ship_sails_position_move(position: Any, seat: int) -> int:
    """:func:`_my_ship_sails`'s choice for ``seat`` in a step of My Ship Sails, on its positions
    (:mod:`~sevens_rules.engine.my_ship_sails_position`: hands as sets of card bits, a choice's code its
    seat and its card or the declaration), read from the hand alone: a seat may pass any card it holds,
    and declare when its hand is one suit. The declaration when the hand is one suit, else the card drawn
    by lot (:func:`mss_lot`), else the same values of the same moves as on wire states, the first best in
    the listed order. A pass's value, minus 20 per card held of its suit minus its rank, orders the passes
    by the count of their suit, then by rank (a rank is below 20), then by suit (the listed order): so the
    best pass is the lowest card of the suit held least, the lowest such card, the first suit of those."""
    hand: int = position.hands[seat]
    if one_suit(hand):
        return seat << MSS_SEAT_SHIFT | MSS_DECLARE
    lot = mss_lot(seat, position.exchanges, len(position.hands))
    if lot is not None:
        for _ in range(lot):  # drop the lowest card, ``lot`` times: the lowest card left is the drawn one
            hand &= hand - 1
        return seat << MSS_SEAT_SHIFT | (hand & -hand).bit_length() - 1
    keys = (
        _MSS_PASS_KEY[hand & 0x1FFF],
        _MSS_PASS_KEY[hand >> SUIT_SIZE & 0x1FFF],
        _MSS_PASS_KEY[hand >> 2 * SUIT_SIZE & 0x1FFF],
        _MSS_PASS_KEY[hand >> 3 * SUIT_SIZE],
    )
    best = min(keys)  # the first suit of the least key (index finds the first)
    return seat << MSS_SEAT_SHIFT | keys.index(best) * SUIT_SIZE + best % 20


_MSS_PASS_KEY = [
    part.bit_count() * 20 + (part & -part).bit_length() - 1 if part else 1000
    for part in range(1 << SUIT_SIZE)
]
"""My Ship Sails: for the ranks held of one suit (13 bits), the key of the suit's best pass: 20 per card
held plus the lowest rank held (the rank is the key modulo 20); 1000 for a suit not held."""


_SCORERS: dict[str, Callable[[AnyGame, Any, int], Scorer]] = {
    "sjuan": _layout,
    "fan-tan": _layout,
    "free-fan-tan": _layout,
    "domino-fan-tan": _layout,
    "sevens": _layout,
    "seven-up": _seven_up,
    "four-handed-seven-up": _seven_up,
    "california-jack": _seven_up,
    "my-ship-sails": _my_ship_sails,
    "sedmice": _sedmice,
}
