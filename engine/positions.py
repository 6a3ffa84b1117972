"""What every game with an internal representation shares at its wire boundary, written once.

Every game (the Sjuan family, Sevens, Sedmice, the Seven-Up family, My Ship Sails) runs its rules on a
position of its own module (``engine/<game>_position.py``) and meets the wire API through
:class:`PositionWire`: a posted state is read into its position once, the rules run on it, and the state
it makes is written back once. Its moves are small ints (move codes), and the wire move of each code is
made once, in the game's ``engine/<game>_wire.py``.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Callable, Sequence
from enum import StrEnum
from operator import add
from typing import Any, ClassVar, Generic, Protocol, Self, TypeVar

from .dealing import Seeding
from .match import DEAL_OVER_PHASE, DealSetup
from .models import same_model


class DealOfPosition(Protocol):
    """What :class:`PositionWire` reads of a position's match: the table size and the dealer."""

    @property
    def players(self) -> int: ...

    @property
    def dealer(self) -> int: ...


class Position(Protocol):
    """What :class:`PositionWire` reads of a position: the seat whose turn it is (None between deals), the
    phase and the deal's match. Every game's position also holds ``hands``, each seat's cards as a set of
    cards (an int with each card's bit set), and names its fields as here."""

    @property
    def turn(self) -> int | None:
        """The seat to act while a deal is played; None between deals and once the match is over (and in
        a simultaneous step, where every seat still to choose acts)."""

    @property
    def phase(self) -> StrEnum:
        """The common :class:`~sevens_rules.schema.common.Phase`, or a game's own (Seven-Up's)."""

    @property
    def match(self) -> DealOfPosition: ...


PositionT = TypeVar("PositionT", bound=Position)


class MatchConstants:
    """The fields of a match that no move of a deal changes and every game keeps alike: the dealer, the
    deal's number, the options and the seed. Each game's ``XMatch`` adds its own (its finished deals, its
    totals) and is shared by every position of the deal."""

    __slots__ = ("commitment", "deal_number", "dealer", "entropy", "options", "seed")

    def __init__(
        self, dealer: int, deal_number: int, options: Any, seed: str, entropy: Sequence[str], commitment: str
    ) -> None:
        self.dealer = dealer
        self.deal_number = deal_number
        self.options = options
        self.seed = seed
        """The match's secret seed."""
        self.entropy = entropy
        """The players' contributions of entropy, in order (a state's own list when read from one: never
        changed)."""
        self.commitment = commitment
        """The seed's commitment (computed once, when the match was made)."""

    def state_fields(self) -> dict[str, Any]:
        """The fields of a wire state that are the match's, in the state's order: the options, the dealer,
        the deal's number, the seed and its commitment."""
        return {
            "options": self.options,
            "dealer": self.dealer,
            "deal_number": self.deal_number,
            "seed": self.seed,
            "commitment": self.commitment,
        }

    @property
    def seeding(self) -> Seeding:
        """What the next deal's shuffle depends on: the seed and the entropy (made when a deal is dealt,
        not with every position read from a posted state)."""
        return Seeding(self.seed, tuple(self.entropy))


DealResultT = TypeVar("DealResultT")


class RecordedMatch(MatchConstants, Generic[DealResultT]):
    """The per-deal constants of a game that keeps the finished deals in two parts (Sedmice, the Seven-Up
    family): the wire records of those a posted state held, kept as read (the rules never read them),
    then the deals the rules finished since, as their own records; and the table size."""

    __slots__ = ("finished", "players", "recorded")

    def __init__(
        self,
        players: int,
        recorded: Sequence[Any],
        finished: tuple[DealResultT, ...],
        dealer: int,
        deal_number: int,
        options: Any,
        seed: str,
        entropy: Sequence[str],
        commitment: str,
    ) -> None:
        super().__init__(dealer, deal_number, options, seed, entropy, commitment)
        self.players = players
        self.recorded = recorded
        """The wire records of the deals finished before the position was read, oldest first."""
        self.finished = finished
        """The deals finished since, oldest first."""


class ScoredMatch(MatchConstants, Generic[DealResultT]):
    """The per-deal constants of a game that keeps its finished deals as the rules record them and a total
    per seat (the Sjuan family, Sevens): the table size, the finished deals, oldest first, and each seat's
    total over them."""

    __slots__ = ("deals", "players", "totals")

    def __init__(
        self,
        players: int,
        deals: tuple[DealResultT, ...],
        totals: tuple[int, ...],
        dealer: int,
        deal_number: int,
        options: Any,
        seed: str,
        entropy: Sequence[str],
        commitment: str,
    ) -> None:
        super().__init__(dealer, deal_number, options, seed, entropy, commitment)
        self.players = players
        self.deals = deals
        """The finished deals, oldest first."""
        self.totals = totals
        """Each seat's total over the finished deals."""

    @classmethod
    def posted(
        cls,
        state: Any,
        deal_result: Callable[[Any], DealResultT],
        gained: Callable[[DealResultT], Sequence[int]],
    ) -> Self:
        """The match of a posted state: its records read by ``deal_result``, each seat's total the sum of
        what ``gained`` says each deal gave it (a malformed record, read before the state is checked, adds
        to the seats it names that are at the table)."""
        players = len(state.hands)
        deals = tuple(map(deal_result, state.deals))
        totals = [0] * players
        for deal in deals:
            for seat, value in enumerate(gained(deal)[:players]):
                totals[seat] += value
        constants = (
            state.dealer,
            state.deal_number,
            state.options,
            state.seed,
            state.entropy,
            state.commitment,
        )
        return cls(players, deals, tuple(totals), *constants)

    def following(self, dealer: int) -> Self:
        """The match of the next deal, dealt by ``dealer``."""
        constants = (dealer, self.deal_number + 1, self.options, self.seed, self.entropy, self.commitment)
        return type(self)(self.players, self.deals, self.totals, *constants)

    def recorded(self, deal: DealResultT, gained: Sequence[int]) -> Self:
        """This deal's match with ``deal`` finished: its record added, and ``gained`` to the totals."""
        constants = (self.dealer, self.deal_number, self.options, self.seed, self.entropy, self.commitment)
        after = type(self)(
            self.players, (*self.deals, deal), tuple(map(add, self.totals, gained)), *constants
        )
        self.keep_in(after)
        return after

    def keep_in(self, recorded: Self) -> None:
        """Give ``recorded``, this deal's match once the deal is over, what a game's match keeps for the
        rest of the deal besides the fields above (nothing here)."""


class PositionWire(Generic[PositionT]):
    """The wire side of a game on positions: a state's position, the seats to act and the wire moves of
    move codes. A game class puts it first among its bases and names its tables; its rules define
    :meth:`read` and :meth:`position_moves_to_act`."""

    wire_moves: ClassVar[Sequence[Any]]
    """``wire_moves[seat][code]``: the wire move of each seat's move code, as the move list shows it."""
    next_deals: ClassVar[Sequence[Any]]
    """Each seat's ``next_deal`` move without a deck, as the move list shows it."""
    match_type: ClassVar[type[ScoredMatch[Any]]]
    """The game's :class:`ScoredMatch`, for :meth:`deal_match` (a game whose match is not one has none)."""

    _last: tuple[object, PositionT] | None = None
    """The state last written or read and its position (one tuple, replaced whole: threads may share it):
    a wire step asks the position of the same state several times, and a caller chaining steps asks next
    of the state it was just given."""
    _read: tuple[object, PositionT] | None = None
    """The state last read and its position: a caller trying several moves on one state (a search's
    branches, the bench's timed ``apply``) reads it once. Only these two states are kept: states held
    beyond the request that made them survive the young garbage collections, which then cost a REST
    ``apply`` more than reading a posted state again."""

    @abstractmethod
    def read(self, state: Any) -> PositionT:
        """The position of a wire state, read afresh (asked before the state is checked too)."""

    def position_to_act(self, position: PositionT) -> list[int]:
        """The seats that may move: the seat whose turn it is, the next dealer between deals, nobody once
        the match is over."""
        turn = position.turn
        if turn is not None:
            return [turn]
        if position.phase is DEAL_OVER_PHASE:
            match = position.match
            return [(match.dealer + 1) % match.players]
        return []

    @abstractmethod
    def position_moves_to_act(self, position: PositionT) -> list[int]:
        """The move codes of the seat to act, in the wire list's order."""

    def position(self, state: Any) -> PositionT:
        """The position of ``state`` (read again unless it is the state last read or written)."""
        last = self._last
        if last is not None and last[0] is state:
            return last[1]
        read = self._read
        if read is None or read[0] is not state:
            read = self._read = (state, self.read(state))
        self._last = read
        return read[1]

    def remember(self, state: Any, position: PositionT) -> None:
        """Keep ``state``, just written from ``position``, as the last state."""
        self._last = (state, position)

    def position_moves(self, position: PositionT, seat: int) -> list[int]:
        """The move codes of ``seat``, a seat to act (:meth:`position_moves_to_act`: one seat acts at a
        time)."""
        return self.position_moves_to_act(position)

    def to_act(self, state: Any) -> list[int]:
        position = self.position(state)
        turn = position.turn
        return [turn] if turn is not None else self.position_to_act(position)

    def is_listed(self, position: PositionT, move: int) -> bool:
        """Whether move code ``move`` is among the moves of the seat to act in ``position``."""
        return move in self.position_moves_to_act(position)

    def listed_code(self, position: PositionT, move: Any) -> int | None:
        """The code of wire ``move`` when it is a move listed inside the deal of ``position``: its seat is
        to act, its code is listed, and it equals the listed move of that code (a play naming a deck, or
        a pass naming a card, does not); None otherwise."""
        player = move.player
        if player != position.turn:
            return None
        code = self.move_code(move)
        if code is None or not self.is_listed(position, code):
            return None
        return code if same_model(self.wire_moves[player][code], move) else None

    def is_legal_in_deal(self, state: Any, move: Any) -> bool:
        """Whether ``move`` is among the wire moves listed for ``state``, without making the wire list
        (:meth:`listed_code`)."""
        return self.listed_code(self.position(state), move) is not None

    def resolve_in_deal(self, state: Any, move: Any) -> tuple[Any, list[Any]]:
        position = self.position(state)
        code: int = self.move_code(move)  # type: ignore[assignment]  # (a legal move has a code)
        return self.wire_step(state, position, code)

    def resolve_in_deal_if_legal(self, state: Any, move: Any) -> tuple[Any, list[Any]] | None:
        """:meth:`wire_step` of ``move`` when :meth:`listed_code` finds it listed, else None: the state's
        position and the move's code found once for the check and the step (the check of every posted
        move in ``apply``)."""
        position = self.position(state)
        code = self.listed_code(position, move)
        return None if code is None else self.wire_step(state, position, code)

    @abstractmethod
    def position_apply(self, position: PositionT, move: int) -> PositionT:
        """The position after move code ``move`` (legal) of the seat to act."""

    def wire_step(self, state: Any, position: PositionT, move: int) -> tuple[Any, list[Any]]:
        """The wire state and events of move code ``move`` (legal) of ``state``, whose position is
        ``position``: :meth:`position_apply`, then :meth:`write_step`. The Seven-Up family, whose rules
        record a move's events as they apply it, defines this instead of ``write_step``."""
        return self.write_step(state, position, move, self.position_apply(position, move))

    def write_step(
        self, state: Any, position: PositionT, move: int, after: PositionT
    ) -> tuple[Any, list[Any]]:
        """The wire state of ``after``, the position move code ``move`` made of ``state``'s ``position``, and
        the events of the move; the state written is remembered with ``after``. Every game on positions
        defines it, but the Seven-Up family, which defines :meth:`wire_step` instead."""
        raise NotImplementedError(f"{type(self).__name__} writes its steps in wire_step")

    def deal_match(self, setup: DealSetup[Any, Any]) -> tuple[Any, tuple[Any, PositionT] | None]:
        """For a game with a :class:`ScoredMatch` (its class :attr:`match_type`): the match of the deal
        ``setup`` deals, carrying over the finished deals, their totals and the seed's commitment of the
        state it follows, and that state with its position (None for the first deal)."""
        previous = setup.previous
        seeding = setup.seeding
        if previous is None:
            deals, totals, commitment, before = (), (0,) * setup.players, seeding.commitment, None
        else:
            earlier = self.position(previous)
            match: ScoredMatch[Any] = earlier.match  # type: ignore[assignment]
            deals, totals, commitment = match.deals, match.totals, match.commitment
            before = (previous, earlier)
        constants = (
            setup.dealer,
            setup.deal_number,
            setup.options,
            seeding.seed,
            seeding.entropy,
            commitment,
        )
        return self.match_type(setup.players, deals, totals, *constants), before

    def wire_move(self, seat: int, move: int) -> Any:
        """The wire move of ``seat``'s move code ``move`` (as the move list shows it)."""
        return self.wire_moves[seat][move]

    @staticmethod
    @abstractmethod
    def move_code(move: Any) -> int | None:
        """The code of a wire move (None: a move no list holds, such as a play naming no card)."""

    def next_deal_move(self, player: int, deck: list[str] | None = None) -> Any:
        listed = self.next_deals
        if deck is None and 0 <= player < len(listed):
            return listed[player]  # (the move listed between deals, and the move usually played)
        first = listed[0]
        return type(first)(type=first.type, player=player, deck=deck)


def deal_records(
    match: ScoredMatch[Any], before: tuple[Any, Any] | None, wire_deal: Callable[[Any], Any]
) -> tuple[list[Any], list[str], tuple[Any, Any] | None]:
    """For the wire state of a position with a :class:`ScoredMatch` that a move inside the deal of
    ``before`` (a state and its position, or None) did not make: its finished deals' wire records and its
    entropy, lent by ``before``'s state where they did not change; and ``before`` again when the position
    ends that deal, whose state is then written as the deal's last move with those records."""
    if before is None:
        return [wire_deal(deal) for deal in match.deals], list(match.entropy), None
    state, earlier = before
    deals = state.deals
    if match.deals is not earlier.match.deals:
        deals = [*deals, *map(wire_deal, match.deals[len(deals) :])]
    if earlier.match.deal_number == match.deal_number:  # the deal's end
        return deals, [], before
    return deals, list(state.entropy), None
