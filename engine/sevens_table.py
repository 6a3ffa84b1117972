"""The Sevens table on the wire, as the checks read it and the positions write it: the four rows, and
the places and points of a finished deal (RULINGS §2; the game is :mod:`sevens_rules.engine.sevens`, its
positions :mod:`sevens_rules.engine.sevens_position`).

A row is made once per suit and set of ranks and shared (rows are frozen).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from itertools import permutations

from ..schema.common import Suit
from ..schema.sevens import SEVENS_PLAYERS, SevensDeal, SevensRow
from .cards import FULL_DECK, RANKS, SUITS
from .models import constructed

POINTS = (3, 2, 1, 0)
"""Points of a deal by place (index 0 is place 1)."""

_POINTS_BY_PLACES = {places: [POINTS[p - 1] for p in places] for places in permutations(range(1, 5))}
"""A deal record's points for each possible order of places (seat by seat)."""

CARDS_EACH = 13
"""Cards dealt to each of the four players."""

_RANK = {r: i for i, r in enumerate(RANKS)}
_SEVEN = _RANK["7"]
_KING = _RANK["K"]
_SUIT_ENUM = {s: Suit(s) for s in SUITS}
_DECK_CARD = {c: c for c in FULL_DECK}
"""Each card string of the deck by an equal string (see :func:`_row_of`)."""


def _row(suit: str, ranks: Iterable[int]) -> SevensRow:
    """The row of ``suit`` holding cards of ``ranks``: the run through the 7, the rest laid apart."""
    return _row_of(suit, frozenset(ranks))


@lru_cache(maxsize=4096)
def _row_of(suit: str, present: frozenset[int]) -> SevensRow:
    # A row is a function of its suit and ranks alone, and rows are frozen (the engine never changes a
    # list in place), so each is made once and shared (the positions' writer keeps its own table of them
    # by card bits, sevens_position.wire_row).
    low = high = _SEVEN
    while low - 1 in present:
        low -= 1
    while high + 1 in present:
        high += 1
    # (the deck's own card strings, which the cards of a dealt hand are: comparing them finds them equal
    # by identity)
    return constructed(
        SevensRow,
        suit=_SUIT_ENUM[suit],
        run=[_DECK_CARD[RANKS[r] + suit] for r in range(low, high + 1)],
        laid=[_DECK_CARD[RANKS[r] + suit] for r in sorted(present) if r < low or r > high],
    )


def _row_ranks(row: SevensRow) -> list[int]:
    return [_RANK[c[0]] for c in row.run] + [_RANK[c[0]] for c in row.laid]


# The rows of runs without laid cards, by (suit, lowest rank, highest rank): the rows of nearly every
# posted state, which the row check compares with these (sevens_checks._laid_out).
_RUN_ROWS = {
    (suit, low, high): _row(suit, range(low, high + 1))
    for suit in SUITS
    for low in range(_SEVEN + 1)
    for high in range(_SEVEN, _KING + 1)
}


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
