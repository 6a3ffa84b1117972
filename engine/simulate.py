"""Playing matches out in memory, for bots: the entry point a search (ISMCTS, random playouts) uses.

A :class:`Simulation` holds one game and one state and answers what a search asks of a position, without
the service's checks of untrusted input (a search only ever plays moves it was given by
:meth:`Simulation.legal_moves`)::

    from .simulate import Simulation

    sim = Simulation.new("sevens", players=4, seed="00" * 32)   # or Simulation(game, state) for any state
    while not sim.finished():
        seat = sim.to_act()[0]                  # several seats in a simultaneous step (My Ship Sails)
        moves = sim.legal_moves(seat)           # that seat's legal moves, in a stable order
        branch = sim.clone()                    # an independent copy: applying to it leaves sim as it is
        events = sim.apply(moves[0])            # the move's events, in order; sim now holds the new state
    outcome = sim.result()                      # winners, and each seat's total and place

The contract of each method:

- :meth:`Simulation.new` deals a new match of a game of the registry (``players`` seats, the game's default
  options unless given, the seeded shuffle of ``seed`` and ``entropy``, the game's own first dealer), as the
  service's ``new`` does.
- :meth:`Simulation.clone` is O(1): states are immutable, so a clone shares the state until one of the two
  applies a move, and every apply makes a new state.
- :meth:`Simulation.to_act` lists the seats that may move now (empty once the match is over); between
  deals it is the next dealer, whose one move is ``next_deal``.
- :meth:`Simulation.legal_moves` lists the legal moves of one seat to act (empty for a seat not to act), or
  with no seat those of every seat to act; each move is a wire model of the game (``game.models.move``).
- :meth:`Simulation.apply` plays a move taken from :meth:`Simulation.legal_moves` of the current state and
  returns its events. It does not check the move (that is the service's :meth:`Game.apply`, which refuses
  an illegal move with a typed error): a move from anywhere else leaves the state undefined.
- :meth:`Simulation.finished` is whether the match is over (nobody to act);
  :meth:`Simulation.result` is the outcome every game's score carries (:class:`Outcome`: ``over``,
  ``winners``, each seat's ``total`` and ``place``, ``lowest_total_wins``), also mid-match.
- :attr:`Simulation.state` is the wire state (what ``POST /v1/games/{game}/apply`` takes), so a position
  can be handed to the service and back; :meth:`Simulation.view` is what one seat may see of it.

A search sees only its own seat's view; filling in the hidden cards (determinization) is the search's
business: build a state with them and start a :class:`Simulation` from it.

Speed: :class:`Simulation` runs on the wire models (its apply skips the public checks, its moves and
states are the service's). Every game also has an internal representation (the Sjuan family: Sjuan,
Fan Tan, free fan tan, Domino fan tan; Sevens; Sedmice; the Seven-Up family; My Ship Sails) and offers
:class:`PositionSimulation`, the same contract on its positions and move codes, with no wire model made
between the first position and the last: that is the rate the bench reports as *internal*
(bench/README.md).
"""

from __future__ import annotations

from typing import Any, Generic, Protocol, TypeVar

from ..schema.common import Outcome
from .dealing import Seeding
from .game import Game
from .registry import get_game

AnyGame = Game[Any, Any, Any, Any, Any, Any]


class Simulation:
    """One match of one game, played out in memory (see the module's documentation for the contract)."""

    __slots__ = ("game", "state")

    def __init__(self, game: AnyGame, state: Any) -> None:
        self.game = game
        """The rules (a game of :data:`~sevens_rules.engine.registry.GAMES`)."""
        self.state = state
        """The current wire state; replaced (never changed) by every :meth:`apply`."""

    @classmethod
    def new(
        cls,
        game_id: str,
        players: int,
        seed: str,
        entropy: tuple[str, ...] = (),
        options: Any = None,
    ) -> Simulation:
        """A new match of ``game_id`` (``KeyError`` for an unknown game; a table size, seed or option the
        game refuses raises the service's error): ``seed`` is 64 lowercase hex digits, ``options`` the
        game's options model (``None``: its defaults)."""
        game = get_game(game_id)
        chosen = game.models.options() if options is None else options
        return cls(game, game.new(players, chosen, Seeding(seed, entropy), None, None))

    def clone(self) -> Simulation:
        """An independent copy of this position."""
        return Simulation(self.game, self.state)

    def to_act(self) -> list[int]:
        """The seats that may move now; empty once the match is over."""
        return self.game.to_act(self.state)

    def legal_moves(self, player: int | None = None) -> list[Any]:
        """The legal moves of ``player`` (none for a seat not to act), or of every seat to act."""
        return self.game.moves(self.state, player)[1]

    def apply(self, move: Any) -> list[Any]:
        """Play ``move``, one of :meth:`legal_moves` of the current state (unchecked); its events."""
        self.state, events = self.game.resolve(self.state, move)
        return events

    def finished(self) -> bool:
        """Whether the match is over."""
        return self.game.over(self.state)

    def result(self) -> Outcome:
        """Whether it is over, the winners (once over) and each seat's total and place."""
        return self.game.outcome(self.state)

    def view(self, player: int) -> Any:
        """What seat ``player`` may see of the current state (the game's view model)."""
        return self.game.view(self.state, player)


PositionT = TypeVar("PositionT")


class PositionRules(Protocol[PositionT]):
    """What a game with an internal representation offers a search: its positions, their moves as small
    ints (move codes), and the conversions at the wire boundary. Every game has one: the Sjuan family
    (:class:`~sevens_rules.engine.sjuan.SjuanFamily`), Sevens (:class:`~sevens_rules.engine.sevens.Sevens`),
    Sedmice (:class:`~sevens_rules.engine.sedmice.Sedmice`), the Seven-Up family
    (:class:`~sevens_rules.engine.seven_up.SevenUpWire`) and My Ship Sails
    (:class:`~sevens_rules.engine.my_ship_sails.MyShipSails`, whose simultaneous steps have several seats
    to act, each choice's code naming its seat)."""

    def position(self, state: Any) -> PositionT:
        """The position of a (checked) wire state."""

    def state_of(self, position: PositionT) -> Any:
        """The wire state of a position."""

    def position_to_act(self, position: PositionT) -> list[int]:
        """The seats that may move; none once the match is over."""

    def position_moves(self, position: PositionT, seat: int) -> list[int]:
        """The move codes of ``seat``, a seat to act, in the order of the wire move list (a list the
        caller does not change)."""

    def position_moves_to_act(self, position: PositionT) -> list[int]:
        """The move codes of every seat to act, seat by seat (none once the match is over)."""

    def position_apply(self, position: PositionT, move: int) -> PositionT:
        """The position after ``move``, a code :meth:`position_moves` listed."""

    def position_outcome(self, position: PositionT) -> Outcome:
        """As :meth:`Game.outcome`."""

    def position_totals(self, position: PositionT) -> list[int]:
        """Each seat's match total so far (as :meth:`Game.seat_totals`)."""

    def wire_move(self, seat: int, move: int) -> Any:
        """The wire move of ``seat``'s move code ``move``."""

    def move_code(self, move: Any) -> int | None:
        """The code of a wire move (None: a move no list holds)."""


def position_rules(game: AnyGame) -> PositionRules[Any] | None:
    """``game`` as :class:`PositionRules` when it has an internal representation, else None."""
    return game if hasattr(game, "position_apply") else None  # type: ignore[return-value]


class PositionSimulation(Generic[PositionT]):
    """:class:`Simulation` on a game's internal representation (see :func:`position_rules`): the same
    contract, with moves as the game's move codes (ints) and positions instead of wire states, so a search
    does no wire work between its first and last position.

    ::

        sim = PositionSimulation.of(game, state)          # None for a game without positions
        while not sim.finished():
            seat = sim.to_act()[0]
            moves = sim.legal_moves(seat)   # move codes (sim.wire_move(seat, code): the wire move)
            sim.apply(moves[0])
        sim.result(); sim.state                             # the outcome; the wire state, written once

    ``clone`` is O(1) (positions are never changed: ``apply`` makes a new one); ``apply`` does not check
    its move and returns no events (the wire API makes them).
    """

    __slots__ = ("position", "rules")

    def __init__(self, rules: PositionRules[PositionT], position: PositionT) -> None:
        self.rules = rules
        self.position = position
        """The current position; replaced (never changed) by every :meth:`apply`."""

    @classmethod
    def of(cls, game: AnyGame, state: Any) -> PositionSimulation[Any] | None:
        """A simulation from wire ``state`` of ``game``, or None when the game has no positions."""
        rules = position_rules(game)
        return None if rules is None else PositionSimulation(rules, rules.position(state))

    def clone(self) -> PositionSimulation[PositionT]:
        """An independent copy of this position."""
        return PositionSimulation(self.rules, self.position)

    def to_act(self) -> list[int]:
        """The seats that may move now; empty once the match is over."""
        return self.rules.position_to_act(self.position)

    def legal_moves(self, player: int | None = None) -> list[int]:
        """The move codes of ``player`` (none for a seat not to act), or of every seat to act; a list the
        caller does not change (a game may keep it with the position)."""
        rules, position = self.rules, self.position
        if player is None:
            return rules.position_moves_to_act(position)
        return rules.position_moves(position, player) if player in rules.position_to_act(position) else []

    def apply(self, move: int) -> None:
        """Play ``move``, a code :meth:`legal_moves` listed for the current position (unchecked)."""
        self.position = self.rules.position_apply(self.position, move)

    def finished(self) -> bool:
        """Whether the match is over."""
        return not self.rules.position_to_act(self.position)

    def result(self) -> Outcome:
        """Whether it is over, the winners (once over) and each seat's total and place."""
        return self.rules.position_outcome(self.position)

    def wire_move(self, seat: int, move: int) -> Any:
        """The wire move of ``seat``'s move code ``move``."""
        return self.rules.wire_move(seat, move)

    @property
    def state(self) -> Any:
        """The wire state of the current position."""
        return self.rules.state_of(self.position)
