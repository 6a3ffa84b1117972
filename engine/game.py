"""The shape every game module has, and the checks every game shares.

A game is a subclass of :class:`Game` with six wire models (options, state, move, event, view, score)
and the rule functions below. The public methods a caller uses are :meth:`Game.new`,
:meth:`Game.check`, :meth:`Game.to_act`, :meth:`Game.moves`, :meth:`Game.apply`, :meth:`Game.score` and
:meth:`Game.view`. :meth:`Game.apply` refuses a move by a seat not to act, a move in a finished match
and a move not among the legal ones, each with a typed error listing the legal moves.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, ClassVar, Generic, Protocol, TypeVar, final

from ..schema.common import GameModels, Outcome, SeatOutcome, WireModel, deal_number_bound
from .cards import FULL_DECK
from .dealing import Seeding, revealed_seed, seeding_issues, view_fields
from .errors import (
    IllegalMoveError,
    InconsistentStateError,
    InvalidRequestError,
    IssueAt,
    MatchOverError,
    NotYourTurnError,
)
from .models import updated


class SeatMove(Protocol):
    """What the shared checks read of a move: the seat making it."""

    @property
    def player(self) -> int:
        """The seat making the move."""


OptionsT = TypeVar("OptionsT", bound=WireModel)
StateT = TypeVar("StateT")
MoveT = TypeVar("MoveT", bound=SeatMove)
EventT = TypeVar("EventT", bound=WireModel)
ViewT = TypeVar("ViewT", bound=WireModel)
ScoreT = TypeVar("ScoreT", bound=WireModel)


@dataclass(frozen=True)
class NewMatch(Generic[OptionsT]):
    """A request for a new match, checked against the game (:meth:`Game.new_match`) before it starts."""

    players: int
    options: OptionsT
    seeding: Seeding
    """The match's secret seed and the players' entropy (see ``engine/dealing.py``)."""
    deck: Sequence[str] | None
    """The exact order of the first deal's deck (top first); None: the seeded shuffle."""
    dealer: int | None
    """The first dealer; None: the game's own rule."""


class Game(ABC, Generic[OptionsT, StateT, MoveT, EventT, ViewT, ScoreT]):
    """One game of the registry: its descriptor, its wire models and its rules."""

    id: ClassVar[str]
    """The game id used in paths (``fan-tan``)."""
    name: ClassVar[str]
    """Human name."""
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    player_counts: ClassVar[tuple[int, ...]] = ()
    """The table sizes allowed when they are not every number from min to max (Sedmice: 2 or 4)."""
    simultaneous: ClassVar[bool] = False
    """True when several seats choose in the same step (their choices stay hidden until all chose)."""
    hidden_piles: ClassVar[tuple[str, ...]] = ()
    """The state's face-down piles (field names): no seat sees their cards or order, only their sizes."""
    models: ClassVar[GameModels]
    """The game's wire models."""

    # ---- rules each game implements -------------------------------------------------------------

    deck: ClassVar[tuple[str, ...]] = FULL_DECK
    """The cards this game is played with, in canonical order."""

    @abstractmethod
    def start(self, request: NewMatch[OptionsT]) -> tuple[StateT, list[EventT]]:
        """A new match from a checked request (``dealer`` None: the game's own rule), with the events of
        its first deal (the deal itself, a turned trump, points scored at once...)."""

    def consistency_issues(self, state: StateT) -> list[IssueAt]:
        """Everything that makes ``state`` impossible in play; paths are relative to the state.

        A table of a size the game is not played with is named alone: the game's own checks
        (:meth:`state_issues`) read a table of one of its sizes."""
        return self.table_size_issues(state) or self.state_issues(state)

    @abstractmethod
    def state_issues(self, state: StateT) -> list[IssueAt]:
        """Everything that makes ``state``, a table of a size the game is played with, impossible in play
        (see :meth:`consistency_issues`)."""

    @abstractmethod
    def to_act(self, state: StateT) -> list[int]:
        """The seats that may move now (several for a simultaneous step; none when the match is over)."""

    def no_seat_to_act(self, state: StateT) -> str:
        """Why no seat may move in ``state``, a state :meth:`to_act` names nobody in (the start of a
        ``match/over`` problem's detail): the match is over."""
        return "The match is over"

    @abstractmethod
    def acting_moves(self, state: StateT, player: int) -> list[MoveT]:
        """Every legal move of ``player``, a seat :meth:`to_act` has just named, in a stable order (a list
        the caller may keep but not change)."""

    @abstractmethod
    def resolve(self, state: StateT, move: MoveT) -> tuple[StateT, list[EventT]]:
        """Apply a move already known to be legal; returns the new state and the events, in order."""

    @abstractmethod
    def score(self, state: StateT) -> ScoreT:
        """The game's own score detail: totals so far, the per-deal breakdown (the outcome common to every
        game is :meth:`outcome`)."""

    lowest_total_wins: ClassVar[bool] = False
    """True when the lowest match total is best (penalty games)."""

    @abstractmethod
    def seat_totals(self, state: StateT) -> list[int]:
        """Each seat's match total so far (in a team game, the total of the seat's side)."""

    def match_winners(self, state: StateT, totals: Sequence[int]) -> list[int]:
        """The seats that won a finished match: by default those sharing the best total."""
        return best_seats(totals, self.lowest_total_wins)

    @abstractmethod
    def view(self, state: StateT, player: int) -> ViewT:
        """Exactly what ``player`` may see of ``state``."""

    @abstractmethod
    def players(self, state: StateT) -> int:
        """Number of seats at the table."""

    def sealed_state(self, state: StateT) -> StateT:
        """``state`` as a sealed match keeps it (from its first deal on): the state itself unless a field
        that no answer from a token shows would make the token's length tell something hidden."""
        return state

    def hidden_length_slack(self, state: StateT) -> int:
        """Spaces a sealed token adds after the state's JSON so that its length depends only on what
        every seat may know (0 unless the JSON's length depends on something hidden)."""
        return 0

    def last_deal_number(self, options: OptionsT, players: int) -> int:
        """The number of the last deal a match of ``players`` seats with ``options`` can reach (``verify``
        refuses a later one): the bound of the state's ``deal_number``, the game's longest match, unless
        the game narrows it."""
        return deal_number_bound(self.models.state)

    def event_for_seat(self, event: EventT, seat: int) -> EventT | None:
        """``event`` as ``seat`` may see it (None: not at all). Events are public unless a game hides
        them or some of their fields (a drawn card from everyone but its drawer...)."""
        return event

    # ---- shared behaviour -----------------------------------------------------------------------

    def new(
        self,
        players: int,
        options: OptionsT,
        seeding: Seeding,
        deck: Sequence[str] | None,
        dealer: int | None,
    ) -> StateT:
        """A new match: the first deal dealt from ``deck`` (top first) or from the seeded shuffle.

        ``seeding`` is the match's secret seed and the players' entropy (see ``engine/dealing.py``).

        The state of :meth:`new_match`, for callers that do not need the first deal's events.
        """
        return self.new_match(players, options, seeding, deck, dealer)[0]

    def new_match(
        self,
        players: int,
        options: OptionsT,
        seeding: Seeding,
        deck: Sequence[str] | None,
        dealer: int | None,
    ) -> tuple[StateT, list[EventT]]:
        """A new match and the events of its first deal.

        Refuses a table size the game is not played with, a deck that is not exactly the game's cards and
        a first dealer who is not at the table.
        """
        self.check_players(players)
        check_deck(deck, self.deck)
        if dealer is not None and not 0 <= dealer < players:
            raise InvalidRequestError(
                f"Seat {dealer} does not exist at a table of {players}.",
                [IssueAt((), f"must be a seat between 0 and {players - 1}")],
                argument="dealer",
            )
        return self.start(NewMatch(players, options, seeding, deck, dealer))

    @classmethod
    def table_sizes(cls) -> tuple[int, ...]:
        """Every allowed number of players."""
        return cls.player_counts or _numbers_between(cls.min_players, cls.max_players)

    def check_players(self, players: int) -> None:
        """Refuse a table size this game is not played with."""
        if players not in self.table_sizes():
            raise InvalidRequestError(
                f"{self.name} is played by {self._sizes_text()} players, not {players}.",
                [IssueAt((), f"must be one of {self._sizes_text()}")],
                argument="players",
            )

    def table_size_issues(self, state: StateT) -> list[IssueAt]:
        """An issue at ``hands`` when the state's table has a size this game is not played with."""
        n = self.players(state)
        if n in self.table_sizes():
            return []
        return [IssueAt(("hands",), f"{self.name} is played by {self._sizes_text()} players, not {n}")]

    def _sizes_text(self) -> str:
        *most, last = map(str, self.table_sizes())
        return f"{', '.join(most)} or {last}" if most else last

    def is_legal(self, state: StateT, move: MoveT) -> bool:
        """Whether ``move`` of a seat to act is legal now: whether it is among the seat's moves. Every game
        of the registry is a :class:`~sevens_rules.engine.match.DealtMatch`, which answers ``next_deal``
        itself and lets a game check a move inside a deal without listing every move."""
        return move in self.acting_moves(state, move.player)

    def resolve_if_legal(self, state: StateT, move: MoveT) -> tuple[StateT, list[EventT]] | None:
        """The new state and the events of ``move`` when its seat is to act and it is legal now
        (:meth:`is_legal`, then :meth:`resolve`); None otherwise (:meth:`apply` then says why). A game
        whose check and step find the same things (the state's position, the move's code) overrides it
        to find them once; it must accept exactly the moves :meth:`is_legal` accepts."""
        if move.player in self.to_act(state) and self.is_legal(state, move):
            return self.resolve(state, move)
        return None

    def not_to_act(self, state: StateT, player: int, seats: list[int]) -> tuple[str, str]:
        """Why a move of ``player``, a seat of the table not among ``seats`` (those to act), is refused: the
        error's detail and its issue's message."""
        return (
            f"Seat {player} is not to act; to act: {', '.join(map(str, seats))}.",
            "this seat is not to act now",
        )

    def check(self, state: StateT) -> None:
        """Refuse a state that could not have arisen in play, naming every problem found."""
        issues = seeding_issues(state) or self.consistency_issues(state)  # type: ignore[arg-type]
        if issues:
            raise InconsistentStateError(
                f"The {self.name} state is inconsistent: {issues[0].message}", issues
            )

    def check_seat(self, state: StateT, player: int, argument: str, path: tuple[str | int, ...] = ()) -> None:
        """Refuse a seat number that does not exist at this table (``path`` is within ``argument``)."""
        n = self.players(state)
        if not 0 <= player < n:
            raise InvalidRequestError(
                f"Seat {player} does not exist at a table of {n}.",
                [IssueAt(path, f"must be a seat between 0 and {n - 1}")],
                argument=argument,
            )

    def outcome(self, state: StateT) -> Outcome:
        """The outcome every game's score carries: over or not, the winners, each seat's total and place.

        The match is over when nobody is to act (as :meth:`apply` sees it).
        """
        totals = self.seat_totals(state)
        over = self.over(state)
        winners = self.match_winners(state, totals) if over else []
        return standings(totals, winners, over, self.lowest_total_wins)

    def over(self, state: StateT) -> bool:
        """Whether the match is over (no seat may move any more)."""
        return not self.to_act(state)

    def seed_view(self, state: StateT) -> dict[str, Any]:
        """A view's seed fields: commitment and entropy always, the seed once the match is over."""
        return view_fields(state, self.over(state))  # type: ignore[arg-type]

    def revealed_seed(self, state: StateT) -> str | None:
        """The seed for a score: null until the match is over."""
        return revealed_seed(state, self.over(state))  # type: ignore[arg-type]

    # The cycle every game follows, written once: a game fills the hooks above (to_act, acting_moves,
    # is_legal, resolve, not_to_act), never these.

    @final
    def legal_moves(self, state: StateT, player: int) -> list[MoveT]:
        """Every legal move of ``player`` in a stable order (none for a seat not to act)."""
        return list(self.acting_moves(state, player)) if player in self.to_act(state) else []

    @final
    def moves(self, state: StateT, player: int | None = None) -> tuple[list[int], list[MoveT]]:
        """The seats to act and their legal moves (only ``player``'s when given)."""
        seats = self.to_act(state)
        if player is not None:
            self.check_seat(state, player, "player")
            return seats, (self.acting_moves(state, player) if player in seats else [])
        if len(seats) == 1:  # one seat to act (every step of most games): its list, copied as below
            return seats, list(self.acting_moves(state, seats[0]))
        return seats, [move for seat in seats for move in self.acting_moves(state, seat)]

    @final
    def apply(self, state: StateT, move: MoveT) -> tuple[StateT, list[EventT]]:
        """Apply ``move`` after checking that its seat is to act and that it is legal
        (:meth:`resolve_if_legal`); a move refused is refused with the reason: the match is over, the seat
        is not to act, or the move is not legal."""
        resolved = self.resolve_if_legal(state, move)
        if resolved is not None:
            return resolved
        player = move.player
        seats = self.to_act(state)
        if player not in seats:
            if not seats:
                raise MatchOverError(f"{self.no_seat_to_act(state)}; no move is legal.", [])
            # a seat to act is a seat of the table: only a seat not to act may not exist
            self.check_seat(state, player, "move", ("player",))
            detail, why = self.not_to_act(state, player, seats)
            legal = [m for seat in seats for m in self.acting_moves(state, seat)]
            raise NotYourTurnError(detail, legal, [IssueAt(("player",), why)])
        raise IllegalMoveError(
            "This move is not legal now.",
            list(self.acting_moves(state, player)),
            [IssueAt((), "not among the legal moves")],
        )


@cache
def _numbers_between(lowest: int, highest: int) -> tuple[int, ...]:
    # every posted state's check asks for its game's table sizes: made once per game
    return tuple(range(lowest, highest + 1))


def drawn_card_for_seat(event: EventT, seat: int) -> EventT:
    """A ``drew`` event with its card left out for every seat but the drawer's (a face-down draw)."""
    if event.type == "drew" and event.player != seat and event.card is not None:  # type: ignore[attr-defined]
        return updated(event, card=None)
    return event


def duplicate_card_issues(locations: Iterable[tuple[tuple[str | int, ...], Sequence[str]]]) -> list[IssueAt]:
    """Issues for every card that appears more than once across the given ``(path, cards)`` locations."""
    seen: dict[str, tuple[str | int, ...]] = {}
    issues = []
    for path, cards in locations:
        for index, card_ in enumerate(cards):
            where = (*path, index)
            if card_ in seen:
                issues.append(IssueAt(where, f"card {card_} appears twice (also at {_dotted(seen[card_])})"))
            else:
                seen[card_] = where
    return issues


def conservation_issues(
    locations: Sequence[tuple[tuple[str | int, ...], Sequence[str]]],
    deck: Sequence[str],
    whole: str = "the state",
) -> list[IssueAt]:
    """Issues unless the locations hold every card of ``deck`` exactly once and nothing else."""
    # Every posted state goes through here: answer the common, consistent case with one set comparison
    # and only look for what exactly is wrong when something is.
    if holds_deck_once([cards for _, cards in locations], deck):
        return []
    issues = duplicate_card_issues(locations)
    present = Counter(c for _, cards in locations for c in cards)
    deck_set = set(deck)
    for path, cards in locations:
        for index, card_ in enumerate(cards):
            if card_ not in deck_set:
                issues.append(IssueAt((*path, index), f"card {card_} is not in this game's deck"))
    missing = [c for c in deck if c not in present]
    if missing:
        # an empty hand beside hands that hold cards is the likeliest place they went missing from
        hands = [(path, cards) for path, cards in locations if path[:1] == ("hands",)]
        empty = [path for path, cards in hands if not cards]
        message = f"cards missing from {whole}: {' '.join(missing)}"
        if 0 < len(empty) < len(hands):
            issues += [IssueAt(path, f"this hand is empty; {message}") for path in empty]
        else:
            issues.append(IssueAt((), message))
    return issues


def holds_deck_once(card_lists: Sequence[Sequence[str]], deck: Sequence[str]) -> bool:
    """Whether ``card_lists`` together hold every card of ``deck`` exactly once and nothing else: the
    consistent case of :func:`conservation_issues`, answered with a count and one set union."""
    return sum(map(len, card_lists)) == len(deck) and set().union(*card_lists) == _card_set(deck)


@cache
def _card_set(deck: Sequence[str]) -> frozenset[str]:
    return frozenset(deck)


def deck_issues(deck: Sequence[str], expected: Sequence[str]) -> list[IssueAt]:
    """Issues unless ``deck`` is a permutation of ``expected`` (for an explicit deck in a request)."""
    if len(deck) != len(expected):
        return [IssueAt((), f"the deck must hold exactly {len(expected)} cards, not {len(deck)}")]
    return conservation_issues([((), deck)], expected, "the deck")


def check_deck(
    deck: Sequence[str] | None,
    expected: Sequence[str],
    argument: str = "deck",
    path: tuple[str | int, ...] = (),
) -> None:
    """Refuse an explicit deck that is not a permutation of ``expected``.

    ``argument`` and ``path`` say where the deck sits in the request: the ``deck`` of ``new`` by default,
    ``argument="move", path=("deck",)`` for the deck of a ``next_deal`` move.
    """
    if deck is None:
        return
    issues = [IssueAt((*path, *issue.path), issue.message) for issue in deck_issues(deck, expected)]
    if issues:
        raise InvalidRequestError(f"The deck is not a {len(expected)}-card deck.", issues, argument=argument)


def best_seats(totals: Sequence[int], lowest: bool = False) -> list[int]:
    """The seats (or sides) sharing the best total: the highest, or the lowest when ``lowest``."""
    best = min(totals) if lowest else max(totals)
    return [seat for seat, total in enumerate(totals) if total == best]


def standings(totals: Sequence[int], winners: Sequence[int], over: bool, lowest_total_wins: bool) -> Outcome:
    """The outcome block from per-seat totals and the winners of a finished match.

    A seat's place is one more than the number of seats ahead of it: every winner is ahead of every other
    seat (a game may crown a side that is not best on totals, such as Seven-Up's first side to the target),
    otherwise the better total is ahead; equal seats share a place.
    """
    winning = set(winners)

    def key(seat: int) -> tuple[bool, int]:
        total = totals[seat] if lowest_total_wins else -totals[seat]
        return (seat not in winning, total)

    seats = [
        SeatOutcome(
            seat=seat, total=total, place=1 + sum(key(other) < key(seat) for other in range(len(totals)))
        )
        for seat, total in enumerate(totals)
    ]
    return Outcome(over=over, winners=sorted(winning), lowest_total_wins=lowest_total_wins, seats=seats)


def seat_issues(path: tuple[str | int, ...], seat: int | None, players: int) -> list[IssueAt]:
    """An issue when ``seat`` is set and is not a seat of this table."""
    if seat is not None and not 0 <= seat < players:
        return [IssueAt(path, f"seat {seat} does not exist at a table of {players}")]
    return []


def bound_issues(path: tuple[str | int, ...], values: Sequence[int], most: int, why: str) -> list[IssueAt]:
    """An issue for each count in ``values`` above ``most``, the largest the rules make possible (``why``
    says why). Every counter a state carries is bounded so, so that no answer overflows the contract."""
    return [
        IssueAt((*path, index), f"must be at most {most} ({why})")
        for index, value in enumerate(values)
        if value > most
    ]


def length_issues(path: tuple[str | int, ...], values: Sequence[Any], players: int) -> list[IssueAt]:
    """An issue when a per-seat list does not have one entry per seat."""
    if len(values) != players:
        return [IssueAt(path, f"must have one entry per seat ({players}), not {len(values)}")]
    return []


def _dotted(path: tuple[str | int, ...]) -> str:
    return ".".join(map(str, path)) or "(root)"
