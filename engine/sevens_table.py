"""The Sevens table as the rules and their checks read it: the four rows, the cards playable on them,
and the places and points of a finished deal (RULINGS §2; the game is :mod:`sevens_rules.engine.sevens`).

A row is made once per suit and set of ranks and shared (rows are frozen), and the cards playable on
runs are looked up in tables made at import, by the first and last card of each run.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from itertools import permutations

from sevens_rules.engine.cards import FULL_DECK, RANKS, SUITS
from sevens_rules.schema.common import Suit
from sevens_rules.schema.sevens import SEVENS_PLAYERS, SevensDeal, SevensRow

POINTS = (3, 2, 1, 0)
"""Points of a deal by place (index 0 is place 1)."""

_POINTS_BY_PLACES = {places: [POINTS[p - 1] for p in places] for places in permutations(range(1, 5))}
"""A deal record's points for each possible order of places (seat by seat)."""

CARDS_EACH = 13
"""Cards dealt to each of the four players."""

_RANK = {r: i for i, r in enumerate(RANKS)}
_SEVEN = _RANK["7"]
_KING = _RANK["K"]
_SUIT_INDEX = {s: i for i, s in enumerate(SUITS)}
_SUIT_ENUM = {s: Suit(s) for s in SUITS}
_DECK_CARD = {c: c for c in FULL_DECK}
"""Each card string of the deck by an equal string (see :func:`_run_ends` and :func:`_row_of`)."""


def _row(suit: str, ranks: Iterable[int]) -> SevensRow:
    """The row of ``suit`` holding cards of ``ranks``: the run through the 7, the rest laid apart."""
    return _row_of(suit, frozenset(ranks))


@lru_cache(maxsize=4096)
def _row_of(suit: str, present: frozenset[int]) -> SevensRow:
    # A row is a function of its suit and ranks alone, and rows are frozen (the engine never changes a
    # list in place), so each is made once and shared: a bust recomputes all four rows, and a play beside
    # laid cards recomputes its row.
    low = high = _SEVEN
    while low - 1 in present:
        low -= 1
    while high + 1 in present:
        high += 1
    # (the deck's own card strings, which the cards of a dealt hand are: the row-end tables and the hands
    # then hold the same string objects, and looking them up compares them by identity)
    return SevensRow.model_construct(
        suit=_SUIT_ENUM[suit],
        run=[_DECK_CARD[RANKS[r] + suit] for r in range(low, high + 1)],
        laid=[_DECK_CARD[RANKS[r] + suit] for r in sorted(present) if r < low or r > high],
    )


def _row_ranks(row: SevensRow) -> list[int]:
    return [_RANK[c[0]] for c in row.run] + [_RANK[c[0]] for c in row.laid]


def _run_ends(first: str, last: str) -> tuple[str, ...]:
    """The cards that may be played on a run from ``first`` to ``last``: one rank below ``first`` and one
    above ``last``, within Ace..King, in the suit of ``first``."""
    suit = first[1]
    low = _RANK[first[0]]
    high = _RANK[last[0]]
    ends = []
    if low > 0:
        ends.append(RANKS[low - 1] + suit)
    if high < _KING:
        ends.append(RANKS[high + 1] + suit)
    # the deck's own card strings, which the cards of a dealt hand are: a membership test then matches
    # them by identity
    return tuple(_DECK_CARD[c] for c in ends)


# Every playout step and every request reads the row ends of rows, so they are looked up by the run's
# first and last card (every pair of cards, so that any run a state can hold has its entry), one dict in
# another: two lookups by card, without making a key.
_RUN_ENDS = {first: {last: _run_ends(first, last) for last in FULL_DECK} for first in FULL_DECK}


# The move list of every step needs the cards playable on the whole table. Rather than gathering the four
# rows' ends into a fresh set each time, the ends of two rows at once (clubs and diamonds, hearts and
# spades) are looked up by their runs' first and last cards, one dict in another, in sets made at import:
# every run through a 7 of each suit (7 x 7 of them, so 2,401 pairs of runs per pair of suits).
_RUNS_OF_SUIT = {
    suit: [
        (RANKS[low] + suit, RANKS[high] + suit)
        for low in range(_SEVEN + 1)
        for high in range(_SEVEN, _KING + 1)
    ]
    for suit in SUITS
}
"""The first and last card of every run through a 7, by suit."""


def _pair_ends(
    first_suit: str, second_suit: str
) -> dict[str, dict[str, dict[str, dict[str, frozenset[str]]]]]:
    """The cards playable on the rows of two suits by the first and last cards of their runs (nested dicts:
    first suit's first card, its last card, second suit's first card, its last card)."""
    pairs: dict[str, dict[str, dict[str, dict[str, frozenset[str]]]]] = {}
    for first, last in _RUNS_OF_SUIT[first_suit]:
        ends = _RUN_ENDS[first][last]
        for other_first, other_last in _RUNS_OF_SUIT[second_suit]:
            cards = frozenset((*ends, *_RUN_ENDS[other_first][other_last]))
            pairs.setdefault(first, {}).setdefault(last, {}).setdefault(other_first, {})[other_last] = cards
    return pairs


_CLUBS_DIAMONDS_ENDS = _pair_ends("C", "D")
"""The cards playable on the clubs and diamonds rows (see :func:`_pair_ends`)."""
_HEARTS_SPADES_ENDS = _pair_ends("H", "S")
"""The cards playable on the hearts and spades rows (see :func:`_pair_ends`)."""


def _ends(row: SevensRow) -> tuple[str, ...]:
    """The cards that may be played on ``row`` (as :func:`row_ends`, shared)."""
    run = row.run
    return _RUN_ENDS[run[0]][run[-1]]


# The rows of runs without laid cards, by (suit, lowest rank, highest rank): nearly every play turns one
# such row into another, and these rows are frozen, so the same instance serves every state holding it.
_RUN_ROWS = {
    (suit, low, high): _row(suit, range(low, high + 1))
    for suit in SUITS
    for low in range(_SEVEN + 1)
    for high in range(_SEVEN, _KING + 1)
}

_RUN_WITH_END = {
    (row.run[0], row.run[-1], end): _RUN_ROWS[suit, min(low, _RANK[end[0]]), max(high, _RANK[end[0]])]
    for (suit, low, high), row in _RUN_ROWS.items()
    for end in _ends(row)
}
"""The row a run without laid cards becomes when a card is played at one of its ends, by the run's first
and last card and the card played: the usual play, looked up at once."""


def row_ends(row: SevensRow) -> list[str]:
    """The cards that may be played on ``row``: one rank below its run and one above, within Ace..King."""
    return list(_ends(row))


def _playable_on(table: Sequence[SevensRow]) -> set[str]:
    """:func:`~sevens_rules.engine.sevens.playable` of a state whose rows are ``table``."""
    clubs_and_diamonds, hearts_and_spades = _playable_by_pairs(table)
    return {*clubs_and_diamonds, *hearts_and_spades}


def _playable_by_pairs(table: Sequence[SevensRow]) -> tuple[frozenset[str], frozenset[str]]:
    """The cards playable on the clubs and diamonds rows of ``table``, and those playable on its hearts and
    spades rows: together :func:`playable` (as :func:`_ends` of each row; shared sets, see
    :func:`_pair_ends`)."""
    clubs_row, diamonds_row, hearts_row, spades_row = table
    clubs, diamonds, hearts, spades = clubs_row.run, diamonds_row.run, hearts_row.run, spades_row.run
    return (
        _CLUBS_DIAMONDS_ENDS[clubs[0]][clubs[-1]][diamonds[0]][diamonds[-1]],
        _HEARTS_SPADES_ENDS[hearts[0]][hearts[-1]][spades[0]][spades[-1]],
    )


def _is_playable_on(table: Sequence[SevensRow], card: str) -> bool:
    """Whether ``card`` may be played on a table whose rows are ``table`` (read off its suit's row)."""
    return card in _ends(table[_SUIT_INDEX[card[1]]])


def _active(out: Sequence[int], bust: Sequence[int]) -> list[int]:
    """Seats neither out nor bust, in seat order."""
    return [seat for seat in range(SEVENS_PLAYERS) if seat not in out and seat not in bust]


def deal_places(out: Sequence[int], bust: Sequence[int], survivor: int) -> list[int]:
    """Places by seat: going-out order, then the last player left, then the bust players, first bust last."""
    places = [0] * SEVENS_PLAYERS
    order = [*out, survivor, *reversed(bust)]
    for place, seat in enumerate(order, start=1):
        places[seat] = place
    return places


def _totals(deals: Sequence[SevensDeal]) -> list[int]:
    totals = [0] * SEVENS_PLAYERS
    for deal in deals:
        for seat, points in enumerate(deal.points):
            totals[seat] += points
    return totals
