"""The Seven-Up family's internal representation: a :class:`SevenUpPosition` of ints, card bitmasks and
tuples that the rules (:mod:`sevens_rules.engine.seven_up_rules`) run on, and the conversions to and from
the wire state.

A card is its index in :data:`~sevens_rules.engine.cards.FULL_DECK` (suit by suit, Clubs to Spades, each
from the Ace to the King: ``suit * 13 + rank``, rank 0 the Ace), a set of cards is an int with the card's
bit set, so a hand's cards in canonical order are its bits from the lowest. A suit is its index in
``"CDHS"``; :data:`NO_TRUMP` stands for no trump. The piles the rules only take cards from the top of or
add to (the stock, the set-aside cards, the turned card) keep the cards' names, in their order: they
cross the wire boundary as they are.

A move is a small int: the card played (:data:`PLAY` plus the card), the card discarded
(:data:`DISCARD` plus the card), :data:`STAND`, :data:`BEG`, :data:`GIVE`, :data:`RUN` or
:data:`NEXT_DEAL`.

A position is built from a wire state once (:func:`read_position`) and written back once
(:func:`write_state`, or :mod:`~sevens_rules.engine.seven_up_wire`'s write of one move).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from ..schema.common import Suit
from ..schema.scalars import MAX_SEATS
from ..schema.seven_up import (
    SevenUpCutRound,
    SevenUpDeal,
    SevenUpDealOutcome,
    SevenUpPhase,
    SevenUpPoint,
    SevenUpPointReason,
    SevenUpTrick,
)
from .card_sets import CARD_INDEX, card_names, card_set
from .cards import FULL_DECK
from .models import constructed, unvalidated
from .positions import RecordedMatch
from .tricks import ACE_HIGH, GAME_POINTS

HAND_SIZE = 6
"""Cards in a hand after the deal (and after discarding)."""
PACKET = 3
"""Cards per packet when dealing and running."""

SUIT_LETTERS = "CDHS"
SUIT_MEMBERS: tuple[Suit, ...] = tuple(Suit(letter) for letter in SUIT_LETTERS)
"""``SUIT_MEMBERS[suit]``: the wire suit of a suit index."""
SUIT_INDEX = {letter: index for index, letter in enumerate(SUIT_LETTERS)}
"""The suit index of a suit letter (a ``Suit`` member is its letter)."""
NO_TRUMP = -1
STRENGTH = tuple(ACE_HIGH.index(card[0]) for card in FULL_DECK)
"""``STRENGTH[card]``: the card's strength within its suit, Ace high (0 the 2, 12 the Ace)."""
CARD_POINTS = tuple(GAME_POINTS.get(card[0], 0) for card in FULL_DECK)
"""``CARD_POINTS[card]``: the card's points towards Game (A 4, K 3, Q 2, J 1, T 10)."""
ACE, TWO, JACK = 0, 1, 10
"""Ranks (index within a suit) of the cards California Jack's High, Low and Jack go with (and Seven-Up's
turned and trump Jack)."""

PLAY = 0
"""The move code of playing card ``c`` is ``PLAY + c``: the card's own index."""
DISCARD = 52
"""The move code of discarding card ``c`` is ``DISCARD + c``."""
STAND = 104
BEG = 105
GIVE = 106
RUN = 107
NEXT_DEAL = 108
"""The move code of ``next_deal`` (the seeded shuffle: a deck given over the wire is the wire's)."""

Phase = SevenUpPhase
Reason = SevenUpPointReason
Outcome = SevenUpDealOutcome
# the phases, outcomes and reasons as module constants: an enum member read off its class costs an
# attribute lookup through the enum's metaclass, at every step
STAND_OR_BEG = Phase.stand_or_beg
GIVE_OR_RUN = Phase.give_or_run
DISCARDING = Phase.discard
PLAYING = Phase.play
DEAL_OVER = Phase.deal_over
MATCH_OVER = Phase.match_over
ACTIVE = (STAND_OR_BEG, GIVE_OR_RUN, DISCARDING, PLAYING)
PLAYED = Outcome.played
THROWN_IN = Outcome.thrown_in
MATCH_WON = Outcome.match_won


class Point(NamedTuple):
    """A point of a deal: why, the seat that earned it (None: a partnership's Game) and the side credited."""

    reason: SevenUpPointReason
    seat: int | None
    side: int


POINTS = {
    (reason, seat, side): Point(reason, seat, side)
    for reason in Reason
    for seat in (None, *range(MAX_SEATS))
    for side in range(MAX_SEATS)
}
"""``POINTS[reason, seat, side]``: the point, made once."""
WIRE_POINTS = {
    point: SevenUpPoint(reason=point.reason, seat=point.seat, side=point.side) for point in POINTS.values()
}
"""``WIRE_POINTS[point]``: its wire model, validated once."""
_READ_POINTS = {(p.reason, p.seat, p.side): POINTS[p.reason, p.seat, p.side] for p in WIRE_POINTS.values()}


class Trick(NamedTuple):
    """A completed trick: its leader, its cards from the leader, the trump it was played with and its
    winner."""

    leader: int
    cards: tuple[int, ...]
    trump: int
    winner: int


class DealResult(NamedTuple):
    """A finished deal as the rules record it (the wire's :class:`SevenUpDeal`)."""

    number: int
    dealer: int
    outcome: SevenUpDealOutcome
    trump: int
    points: tuple[Point, ...]
    by_side: tuple[int, ...]


class SevenUpMatch(RecordedMatch[DealResult]):
    """What stays the same for a whole deal: the table, the finished deals and their totals, the options,
    the seed and the cut. Never changed once made; shared by every position of the deal."""

    __slots__ = ("cut", "may_trump", "thrown_in_last", "totals")

    def __init__(
        self,
        players: int,
        dealer: int,
        deal_number: int,
        recorded: Sequence[SevenUpDeal],
        finished: tuple[DealResult, ...],
        totals: tuple[int, ...],
        cut: Sequence[SevenUpCutRound],
        options: Any,
        seed: str,
        entropy: Sequence[str],
        commitment: str,
    ) -> None:
        super().__init__(players, recorded, finished, dealer, deal_number, options, seed, entropy, commitment)
        self.totals = totals
        """Each side's points over every finished deal."""
        self.cut = cut
        """The cut for the first dealer (the wire's rounds, kept as they are)."""
        self.may_trump = options.may_trump_when_able_to_follow
        """The option ``may_trump_when_able_to_follow`` (read at every card followed)."""
        if finished:
            last: Any = finished[-1]
        else:
            last = recorded[-1] if recorded else None
        self.thrown_in_last = last is not None and last.outcome is THROWN_IN
        """Whether the last finished deal was thrown in (the same dealer deals the next)."""

    def but(self, finished: tuple[DealResult, ...], totals: tuple[int, ...]) -> SevenUpMatch:
        """This match with another deal finished."""
        return SevenUpMatch(
            self.players,
            self.dealer,
            self.deal_number,
            self.recorded,
            finished,
            totals,
            self.cut,
            self.options,
            self.seed,
            self.entropy,
            self.commitment,
        )


@dataclass(slots=True, eq=False)
class SevenUpPosition:
    """One moment of a Seven-Up family match: what a move changes, and the deal's :class:`SevenUpMatch`.
    Never changed once made: a move makes a new one (the steps below, or :func:`dataclasses.replace` for
    the rare ones: a run of the cards)."""

    hands: tuple[int, ...]
    stock: Sequence[str]
    """The undealt pack, top card first (card names; California Jack: its top card is face up)."""
    turned: str | None
    """Seven-Up's turned card (its name), None otherwise."""
    trump: int
    """The trump suit now (:data:`NO_TRUMP`: none)."""
    set_aside: tuple[str, ...]
    """Turned cards of the refused suit set aside during a run, in order (names)."""
    discarded: tuple[int, ...]
    """Each seat's discards (a set of cards)."""
    leader: int | None
    """The leader of the trick on the table (play only)."""
    trick: tuple[int, ...]
    """The cards played to the current trick, from the leader."""
    tricks: tuple[Trick, ...]
    """The deal's completed tricks."""
    points: tuple[Point, ...]
    """The points of the deal in progress (emptied when it closes)."""
    totals: tuple[int, ...]
    """Each side's match points: the finished deals' and the deal in progress's."""
    phase: SevenUpPhase
    turn: int | None
    """The seat to act inside a deal; None between deals and once the match is over."""
    match: SevenUpMatch

    # The steps that change a few fields of a position, written out field by field (in _with): the rules
    # take several of them in every deal, and dataclasses.replace (a loop over the fields in Python) costs
    # several times as much.

    def acting(self, phase: SevenUpPhase, leader: int | None, turn: int) -> SevenUpPosition:
        """This position in ``phase`` with ``turn`` to act (``leader`` leading, in play)."""
        return self._with(leader, self.points, self.totals, phase, turn, self.match)

    def scored(self, points: tuple[Point, ...], totals: tuple[int, ...]) -> SevenUpPosition:
        """This position with the deal's ``points`` and the match ``totals`` they bring."""
        return self._with(self.leader, points, totals, self.phase, self.turn, self.match)

    def closed(self, phase: SevenUpPhase, totals: tuple[int, ...], match: SevenUpMatch) -> SevenUpPosition:
        """This position once its deal is recorded in ``match``: nobody to act, no points in progress,
        ``phase`` between deals or the match over."""
        return self._with(None, (), totals, phase, None, match)

    def _with(
        self,
        leader: int | None,
        points: tuple[Point, ...],
        totals: tuple[int, ...],
        phase: SevenUpPhase,
        turn: int | None,
        match: SevenUpMatch,
    ) -> SevenUpPosition:
        """This position with the fields a step between two plays may change; the cards as they are."""
        return SevenUpPosition(
            self.hands,
            self.stock,
            self.turned,
            self.trump,
            self.set_aside,
            self.discarded,
            leader,
            self.trick,
            self.tricks,
            points,
            totals,
            phase,
            turn,
            match,
        )


def turn_of(
    phase: SevenUpPhase, hands: Sequence[int], dealer: int, leader: int | None, trick: Sequence[int]
) -> int | None:
    """The seat to act in ``phase``: the eldest to stand or beg, the dealer to give or run, the first seat
    from the eldest holding more than six to discard, the next card's seat in play, nobody otherwise."""
    n = len(hands)
    if phase is PLAYING:
        return (leader + len(trick)) % n  # type: ignore[operator]  # (a deal in play has a leader)
    if phase is STAND_OR_BEG:
        return (dealer + 1) % n
    if phase is GIVE_OR_RUN:
        return dealer
    if phase is DISCARDING:
        for k in range(1, n + 1):
            seat = (dealer + k) % n
            if hands[seat].bit_count() > HAND_SIZE:
                return seat
    return None


def read_trick(trick: SevenUpTrick) -> Trick:
    """A wire trick record as the rules keep it."""
    trump = trick.trump
    return Trick(
        trick.leader,
        tuple(map(CARD_INDEX.__getitem__, trick.cards)),
        NO_TRUMP if trump is None else SUIT_INDEX[trump],
        trick.winner,
    )


def read_point(point: SevenUpPoint) -> Point:
    """A wire point as the rules keep it."""
    return _READ_POINTS[point.reason, point.seat, point.side]


def read_position(state: Any, side_of: Sequence[int], sides: int) -> SevenUpPosition:
    """The position of a checked wire state of a game whose seats score for sides ``side_of[seat]``
    (``sides`` of them)."""
    hands = tuple(map(card_set, state.hands))
    players = len(hands)
    recorded = state.deals
    finished_totals = [0] * sides
    for deal in recorded:
        for side, count in enumerate(deal.by_side):
            if side < sides:
                finished_totals[side] += count
    points = tuple(map(read_point, state.points))
    totals = list(finished_totals)
    for point in points:
        if point.side < sides:
            totals[point.side] += 1
    match = SevenUpMatch(
        players,
        state.dealer,
        state.deal_number,
        recorded,
        (),
        tuple(finished_totals),
        state.cut,
        state.options,
        state.seed,
        state.entropy,
        state.commitment,
    )
    trump = state.trump
    leader = state.leader
    trick = tuple(map(CARD_INDEX.__getitem__, state.trick))
    phase = state.phase
    return SevenUpPosition(
        hands,
        state.stock,
        state.turned,
        NO_TRUMP if trump is None else SUIT_INDEX[trump],
        tuple(state.set_aside),
        tuple(map(card_set, state.discarded)),
        leader,
        trick,
        tuple(map(read_trick, state.tricks)),
        points,
        tuple(totals),
        phase,
        turn_of(phase, hands, state.dealer, leader, trick),
        match,
    )


def suit_member(suit: int) -> Suit | None:
    """The wire suit of a suit index (None for :data:`NO_TRUMP`)."""
    return None if suit < 0 else SUIT_MEMBERS[suit]


def wire_trick(trick: Trick) -> SevenUpTrick:
    """The wire record of a completed trick (made without validation: every value is the engine's own)."""
    trump = trick.trump
    values = {
        "leader": trick.leader,
        "cards": [FULL_DECK[card] for card in trick.cards],
        "trump": None if trump < 0 else SUIT_MEMBERS[trump],
        "winner": trick.winner,
    }
    return unvalidated(SevenUpTrick, values, set(_TRICK_FIELDS))


_TRICK_FIELDS = frozenset(("leader", "cards", "trump", "winner"))
"""Every field of a trick record (all set)."""


def wire_deal(deal: DealResult) -> SevenUpDeal:
    """The wire record of a finished deal (made without validation)."""
    return constructed(
        SevenUpDeal,
        number=deal.number,
        dealer=deal.dealer,
        outcome=deal.outcome,
        trump=suit_member(deal.trump),
        points=[WIRE_POINTS[point] for point in deal.points],
        by_side=list(deal.by_side),
    )


def write_state(position: SevenUpPosition, model: Any, game_id: str) -> Any:
    """The wire state (``model``, of game ``game_id``) of ``position``, every field written anew."""
    match = position.match
    values: dict[str, Any] = {
        "game": game_id,
        **match.state_fields(),
        "entropy": list(match.entropy),
        "phase": position.phase,
        "cut": list(match.cut),
        "hands": [card_names(hand) for hand in position.hands],
        "stock": list(position.stock),
        "turned": position.turned,
        "trump": suit_member(position.trump),
        "set_aside": list(position.set_aside),
        "discarded": [card_names(cards) for cards in position.discarded],
        "leader": position.leader,
        "trick": [FULL_DECK[card] for card in position.trick],
        "tricks": [wire_trick(trick) for trick in position.tricks],
        "points": [WIRE_POINTS[point] for point in position.points],
        "deals": [*match.recorded, *map(wire_deal, match.finished)],
    }
    return constructed(model, **values)
