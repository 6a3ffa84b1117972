"""The deal and match cycle every game shares, written once.

A match is a series of deals. :class:`DealtMatch` deals the first one, lets the game play it, and once a
deal is over (phase ``deal_over``) accepts only the ``next_deal`` move of the seat after the dealer, which
deals again, optionally from an exact deck. A game supplies hooks: :meth:`DealtMatch.deal` (how a deal is
dealt), :meth:`DealtMatch.to_act` (who acts), :meth:`DealtMatch.deal_moves` (the legal moves inside a
deal), :meth:`DealtMatch.resolve_in_deal` (how a move inside a deal resolves), and may override
:meth:`DealtMatch.next_dealer` (who deals next) and :meth:`DealtMatch.is_legal_in_deal` (a faster
legality check than listing the moves).
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, Protocol, TypeVar, cast

from ..schema.common import Phase
from .dealing import SeededState, Seeding
from .errors import IssueAt
from .game import (
    EventT,
    Game,
    NewMatch,
    OptionsT,
    ScoreT,
    ViewT,
    check_deck,
)
from .models import same_model

NEXT_DEAL = "next_deal"
"""The move tag, in every game, that starts the next deal (its enum members compare equal to it)."""

DEAL_OVER = "deal_over"
"""The phase, in every game, between two deals of a match."""

MATCH_OVER = "match_over"
"""The phase, in every game, of a finished match."""

PLAY_PHASE = Phase.play
DEAL_OVER_PHASE = Phase.deal_over
MATCH_OVER_PHASE = Phase.match_over
"""The members of :class:`Phase`, for the games whose deals are played in one phase: a game module imports
them once (an enum member is slow to read off its class)."""


class DealRecord(Protocol):
    """What the shared cycle reads of a finished deal's record: its number and its dealer."""

    @property
    def number(self) -> int:
        """1 for the first deal of the match."""

    @property
    def dealer(self) -> int:
        """The seat that dealt it."""


RecordCheck = Callable[[int, bool], list[IssueAt]]
"""A game's check of the finished deal at an index of a state's ``deals``; the flag says whether no issue
was found before it (in this deal's number or in an earlier deal)."""


class DealtState(SeededState, Protocol):
    """What the shared cycle reads of a game's state: the table, the dealer, the deal, the phase (and, as
    every state, its seed, commitment and entropy)."""

    @property
    def hands(self) -> Sequence[Sequence[str]]:
        """Each seat's hand (one entry per seat)."""

    @property
    def dealer(self) -> int:
        """The seat that dealt the current deal."""

    @property
    def deal_number(self) -> int:
        """1 for the first deal of the match."""

    @property
    def phase(self) -> str:
        """Where the match stands."""

    @property
    def options(self) -> object:
        """The match's options."""

    @property
    def deals(self) -> Sequence[DealRecord]:
        """The finished deals, oldest first."""


class DealtMove(Protocol):
    """What the shared cycle reads of a move: its seat, its tag, and the arguments of ``next_deal``."""

    @property
    def player(self) -> int:
        """The seat making the move."""

    @property
    def type(self) -> str:
        """The move's tag."""

    @property
    def deck(self) -> list[str] | None:
        """The exact deck order of a ``next_deal`` move (top first), if named."""


MatchStateT = TypeVar("MatchStateT", bound=DealtState)
MatchMoveT = TypeVar("MatchMoveT", bound=DealtMove)


@dataclass(frozen=True)
class DealSetup(Generic[OptionsT, MatchStateT]):
    """Everything a deal is dealt from."""

    players: int
    options: OptionsT
    seeding: Seeding
    dealer: int
    deal_number: int
    deck: Sequence[str] | None
    """The exact order to deal from (top first); None: the seeded shuffle of deal ``deal_number``."""
    deals: list[Any] = field(default_factory=list)
    """The finished deals carried into the new state."""
    previous: MatchStateT | None = None
    """The state the deal is dealt from (None: the first deal of a match)."""


class DealtMatch(Game[OptionsT, MatchStateT, MatchMoveT, EventT, ViewT, ScoreT]):
    """A game played as a match of deals, with a ``next_deal`` move between them."""

    max_deals: ClassVar[int | None] = None
    """The most deal records a match may hold when the rules do not bound them: once a match has that many,
    no deal follows and nobody is to act (a game that sets it asks :meth:`at_deal_cap` where it names the
    seats to act, as the Seven-Up family's positions do); None when the rules end every match in time."""

    def at_deal_cap(self, deals: int) -> bool:
        """Whether a match that has played ``deals`` deals may deal no more (:attr:`max_deals`)."""
        return self.max_deals is not None and deals >= self.max_deals

    def no_seat_to_act(self, state: MatchStateT) -> str:
        deals = state.deal_number
        if state.phase == DEAL_OVER and self.at_deal_cap(deals):
            return (
                f"This match has played {deals} deals, the most this service keeps in one match, so no "
                "deal follows (start a new match)"
            )
        return super().no_seat_to_act(state)

    @abstractmethod
    def deal(self, setup: DealSetup[OptionsT, MatchStateT]) -> tuple[MatchStateT, list[EventT]]:
        """The state of a freshly dealt deal and every event of dealing it (``deal_started`` first)."""

    @abstractmethod
    def deal_moves(self, state: MatchStateT, player: int) -> list[MatchMoveT]:
        """Every legal move of ``player`` (to act) while a deal is being played, in a stable order."""

    @abstractmethod
    def resolve_in_deal(self, state: MatchStateT, move: MatchMoveT) -> tuple[MatchStateT, list[EventT]]:
        """Resolve a legal move inside a deal (never ``next_deal``): the new state and its events."""

    @abstractmethod
    def next_deal_move(self, player: int, deck: list[str] | None = None) -> MatchMoveT:
        """The ``next_deal`` move of ``player`` (as the move list shows it when ``deck`` is None)."""

    @abstractmethod
    def seat_view(self, state: MatchStateT, player: int) -> dict[str, object]:
        """The fields of ``player``'s view beyond the common ones (game, options, seat, dealer, deal number,
        phase, hand sizes, finished deals): their hand and whatever else the game shows that seat. The view
        model refuses a name it does not have."""

    @abstractmethod
    def deal_record_check(self, state: MatchStateT) -> RecordCheck:
        """The game's check of each finished deal of ``state`` beyond its number (see
        :meth:`deal_history_issues`): a function of the deal's index, called oldest first, so that it may
        carry what it learns of one deal (running totals) to the next."""

    def deal_history_issues(self, state: MatchStateT) -> list[IssueAt]:
        """Issues with the finished deals of ``state``, oldest first: each is numbered in order from 1,
        then whatever the game checks of its record (:meth:`deal_record_check`)."""
        deals = state.deals
        if not deals:  # a match's first deal (nothing to set up the game's check for)
            return []
        check = self.deal_record_check(state)
        issues: list[IssueAt] = []
        for index, deal in enumerate(deals):
            if deal.number != index + 1:
                issues.append(IssueAt(("deals", index, "number"), f"must be {index + 1}"))
            issues += check(index, not issues)
        return issues

    def view(self, state: MatchStateT, player: int) -> ViewT:
        self.check_seat(state, player, "player")
        common = {
            "game": self.id,
            "options": state.options,
            "seat": player,
            "dealer": state.dealer,
            "deal_number": state.deal_number,
            "phase": state.phase,
            "hand_sizes": [len(hand) for hand in state.hands],
            "deals": state.deals,
            **self.seed_view(state),
        }
        view = self.models.view.model_validate({**common, **self.seat_view(state, player)})
        return cast(ViewT, view)

    def players(self, state: MatchStateT) -> int:
        return len(state.hands)

    def first_dealer(self, players: int, options: OptionsT, seeding: Seeding) -> int:
        """Who deals the first deal when the request names nobody: seat 0 unless the game says otherwise."""
        return 0

    def next_dealer(self, state: MatchStateT) -> int:
        """Who deals the next deal: the seat left of the dealer unless the game says otherwise."""
        return (state.dealer + 1) % self.players(state)

    def start(self, request: NewMatch[OptionsT]) -> tuple[MatchStateT, list[EventT]]:
        players, options, seeding = request.players, request.options, request.seeding
        dealer = request.dealer
        if dealer is None:
            dealer = self.first_dealer(players, options, seeding)
        return self.deal(DealSetup(players, options, seeding, dealer, 1, request.deck))

    def next_deal(self, state: MatchStateT, deck: Sequence[str] | None) -> tuple[MatchStateT, list[EventT]]:
        """Deal the next deal of the match (``deck`` is checked against the game's cards first)."""
        check_deck(deck, self.deck, argument="move", path=("deck",))
        options: OptionsT = getattr(state, "options")  # noqa: B009 -- every state names its options
        setup = DealSetup(
            self.players(state),
            options,
            Seeding.of(state),
            self.next_dealer(state),
            state.deal_number + 1,
            deck,
            list(state.deals),
            state,
        )
        return self.deal(setup)

    def acting_moves(self, state: MatchStateT, player: int) -> list[MatchMoveT]:
        """``next_deal`` between deals, else the deal's moves (:meth:`deal_moves`)."""
        if state.phase == DEAL_OVER:
            return [self.next_deal_move(player)]
        return self.deal_moves(state, player)

    def is_legal(self, state: MatchStateT, move: MatchMoveT) -> bool:
        """Whether ``move`` is legal now: ``next_deal`` between deals (its deck is checked when dealt, it
        is not part of the listed move), else :meth:`is_legal_in_deal`."""
        if move.type == NEXT_DEAL:
            if state.phase != DEAL_OVER:
                return False
            listed = self.next_deal_move(move.player, move.deck)
            return same_model(listed, move)
        return state.phase != DEAL_OVER and self.is_legal_in_deal(state, move)

    def is_legal_in_deal(self, state: MatchStateT, move: MatchMoveT) -> bool:
        """Whether ``move`` (not ``next_deal``) is legal inside the deal; games with large move sets
        override this to avoid listing every move."""
        return move.deck is None and move in self.deal_moves(state, move.player)

    def resolve_if_legal(
        self, state: MatchStateT, move: MatchMoveT
    ) -> tuple[MatchStateT, list[EventT]] | None:
        """A move inside a deal by :meth:`resolve_in_deal_if_legal` (the commonest, asked first; it accepts
        no ``next_deal``), else ``next_deal`` checked and dealt as every game does."""
        resolved = self.resolve_in_deal_if_legal(state, move)
        if resolved is None and move.type == NEXT_DEAL:
            return super().resolve_if_legal(state, move)
        return resolved

    def resolve_in_deal_if_legal(
        self, state: MatchStateT, move: MatchMoveT
    ) -> tuple[MatchStateT, list[EventT]] | None:
        """The new state and events of ``move`` (not ``next_deal``) when its seat is to act and it is legal
        inside the deal (:meth:`is_legal_in_deal`, then :meth:`resolve_in_deal`), else None. The games on
        positions find the move's code once for both (``PositionWire``)."""
        if state.phase == DEAL_OVER or move.player not in self.to_act(state):
            return None
        return self.resolve_in_deal(state, move) if self.is_legal_in_deal(state, move) else None

    def resolve(self, state: MatchStateT, move: MatchMoveT) -> tuple[MatchStateT, list[EventT]]:
        if move.type == NEXT_DEAL:
            return self.next_deal(state, move.deck)
        return self.resolve_in_deal(state, move)
