"""What every game with an internal representation shares at its wire boundary, written once.

A game on positions (the Sjuan family, Sevens, Sedmice) runs its rules on a position of its own module
(``engine/<game>_position.py``) and meets the wire API through :class:`PositionWire`: a posted state is
read into its position once, the rules run on it, and the state it makes is written back once. Its moves
are small ints (move codes), and the wire move of each code is made once, in the game's
``engine/<game>_wire.py``.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Sequence
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from sevens_rules.engine.dealing import Seeding
from sevens_rules.engine.match import DEAL_OVER_PHASE
from sevens_rules.schema.common import Phase


def bits_of(cards: int) -> list[int]:
    """The codes of a set of cards, lowest first (canonical order)."""
    if not cards & (cards - 1):  # none or one card (common, and a loop of one turn is slower)
        return [cards.bit_length() - 1] if cards else []
    codes = []
    while cards:
        lowest = cards & -cards
        codes.append(lowest.bit_length() - 1)
        cards ^= lowest
    return codes


class DealOfPosition(Protocol):
    """What :class:`PositionWire` reads of a position's match: the table size and the dealer."""

    @property
    def players(self) -> int: ...

    @property
    def dealer(self) -> int: ...


class Position(Protocol):
    """What :class:`PositionWire` reads of a position: the seat whose turn it is (None between deals), the
    phase and the deal's match."""

    @property
    def turn(self) -> int | None: ...

    @property
    def phase(self) -> Phase: ...

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

    @property
    def seeding(self) -> Seeding:
        """What the next deal's shuffle depends on: the seed and the entropy (made when a deal is dealt,
        not with every position read from a posted state)."""
        return Seeding(self.seed, tuple(self.entropy))


class PositionWire(Generic[PositionT]):
    """The wire side of a game on positions: a state's position, the seats to act and the wire moves of
    move codes. A game class puts it first among its bases and names its tables; its rules define
    :meth:`read` and :meth:`position_moves_to_act`."""

    wire_moves: ClassVar[Sequence[Any]]
    """``wire_moves[seat][code]``: the wire move of each seat's move code, as the move list shows it."""
    next_deals: ClassVar[Sequence[Any]]
    """Each seat's ``next_deal`` move without a deck, as the move list shows it."""

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
