"""The sealed (referee mode) operations of every game: ``new``, ``join``, ``fill``, ``moves``, ``apply``,
``view``, ``score``.

``new`` opens a *table*: the service draws the seed and seals it with the table, but deals nothing. Each
seat ``join``s with its own entropy and gets its seat key in that answer only; the host ``fill``s the
seats it keeps (bots, seats it plays) with its host key. When no seat is open the match is dealt from the
seed and every seat's entropy, so nobody, the host included, sees or steers a deal before every player
has committed to it. The dealt match is at version ``players + 1`` (one version per seat taken).

The other operations run the same engine as the plain operations, on a state opened from a token
instead of a posted one. A token was sealed by the service, so its state is not checked for consistency
again. Every answer and error is for the caller's seat only: its own legal moves, its view, the events
as it may see them (:meth:`Game.event_for_seat`).

With a match store (:mod:`sevens_rules.api.match_store`), ``new`` remembers the table and every
``join``, ``fill`` and ``apply`` claims its token's version before its answer leaves: one successor per
version. Those operations then answer a coroutine (awaited by the endpoints).
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Sequence
from functools import cache, partial
from typing import Any, NoReturn

import orjson
from pydantic import TypeAdapter

from ..engine.dealing import Seeding, commitment, fresh_seed
from ..engine.errors import InvalidRequestError, IssueAt, MatchOverError, MoveError
from ..engine.game import Game
from ..engine.models import constructed, field_values
from ..engine.registry import GAMES
from ..schema.common import model_json
from ..schema.scalars import INT32_MAX
from ..schema.sealed import SealedModels, build_sealed_models
from .game_models import operation_models
from .match_store import MatchStore, Outcome, Replayed
from .sealed_memory import ClaimedAnswers, OpenedTokens
from .sealing import (
    DISABLED_DETAIL,
    Keyring,
    NotYourSeatError,
    Sealed,
    SealedModeDisabledError,
    SealError,
    check_host_key,
    check_seat_key,
    host_key,
    match_id_text,
    new_match_id,
    new_salt,
    open_token,
    seal,
    seat_key,
)

AnyGame = Game[Any, Any, Any, Any, Any, Any]

OPENED_TOKENS = 32
"""Tokens each game keeps opened, the most recently sealed or opened (see :class:`OpenedTokens`).

Enough for the requests that follow a move (every seat asks about the new token) while this worker makes
up to 32 other moves of the same game. Each remembered token holds its text, its log and state JSON and
the state, and every move of a match in play remembers one: a larger map keeps older entries that are
rarely asked for again (bench/README.md, "Match stores", has the runs that chose 32). A token that is no
longer remembered costs one opening (decrypt and parse), and the answer is the same."""

LOG_VERSIONS = 16
"""Versions whose events a token keeps for ``view``: two full rounds of the largest table (eight seats),
while keeping tokens small (the log is most of a token, and every apply seals it again)."""


@cache
def sealed_models(game_id: str) -> SealedModels:
    """The sealed request/response models of one game, built once."""
    game = GAMES[game_id]
    return build_sealed_models(
        game.id,
        game.name,
        game.table_sizes(),
        game.models,
        LOG_VERSIONS,
        operation_models(game_id).score_response,
    )


def draw_seed() -> str:
    """The seed of a sealed match, from the OS's CSPRNG (a client never chooses it)."""
    return fresh_seed()


OPERATIONS = ("new", "join", "fill", "moves", "apply", "view", "score")
"""The names of the sealed operations (the keys of :func:`sealed_runs`)."""

OPEN = "-"
"""The salt of a seat nobody has taken (in :attr:`Sealed.seat_salts`)."""
TABLE_BYTES = 6144
"""What a table's JSON is padded to with spaces, so that a table token's length says nothing about the
entropy the seats joined with: eight entropy strings of 256 characters, each character escaped at
most once, and the options, fit."""


class SeatTakenError(SealError):
    """A join or fill of a seat somebody has taken."""

    code = "seat/taken"
    title = "Seat taken"
    status = 409
    argument = "seat"


class TableDealtError(SealError):
    """A join or fill on a dealt match."""

    code = "table/dealt"
    title = "Table dealt"
    status = 409
    argument = "token"


class NotDealtError(SealError):
    """A play operation on a table whose seats are not all taken."""

    code = "match/not-dealt"
    title = "Not dealt yet"
    status = 409
    argument = "token"


def refuse_table(sealed: Sealed) -> None:
    """Refuse the contents of a table still taking seats where a dealt match is needed (a play operation's
    token, before anything in it is read)."""
    if sealed.is_table:
        raise NotDealtError(
            f"The cards are not dealt yet: seats {open_seats(sealed)} are still open (join or fill them).",
            [IssueAt((), "a table waiting for seats")],
        )


def sealed_runs(
    game: AnyGame,
    keyring: Keyring | None,
    opened_tokens: int = OPENED_TOKENS,
    store: MatchStore | None = None,
) -> dict[str, Callable[[Any], Any]]:
    """The sealed operations of ``game`` as functions of a validated request, by name (keeping up to
    ``opened_tokens`` tokens opened, see :class:`OpenedTokens`; ``store``: the match store, None for the
    stateless referee); without server keys, each one refuses with :class:`SealedModeDisabledError`."""
    if keyring is None:
        return dict.fromkeys(OPERATIONS, _disabled)
    return SealedOperations(game, keyring, opened_tokens, store).runs()


def _disabled(req: Any) -> NoReturn:
    raise SealedModeDisabledError(DISABLED_DETAIL)


def request_digest(*parts: bytes) -> bytes:
    """What the store keeps of a request that consumed a version: 16 bytes of SHA-256 of its parts."""
    return hashlib.sha256(b"\0".join(parts)).digest()[:16]


class SealedOperations:
    """The sealed operations of one game with server keys, a method each (:data:`OPERATIONS`: functions of
    a validated request), and what they share: the tokens opened lately (bounded), the answers the store
    accepted lately (bounded), the game's parsers, and the helpers that open a token for a seat, take
    seats and seal a successor."""

    def __init__(self, game: AnyGame, keyring: Keyring, opened_tokens: int, store: MatchStore | None) -> None:
        self.game = game
        self.game_id = game.id
        self.keyring = keyring
        self.store = store
        self.models = sealed_models(game.id)
        self.tokens = OpenedTokens(opened_tokens)
        self.answered = ClaimedAnswers(opened_tokens)
        self.parse_state = game.models.state.model_validate_json
        self.parse_options = game.models.options.model_validate
        events_adapter: TypeAdapter[list[Any]] = TypeAdapter(list[game.models.event])  # type: ignore[name-defined]
        self.read_events = events_adapter.validate_json
        # TypeAdapter.dump_json's own wrapper skipped; fields left at their defaults (most are null) are
        # restored when the log is read
        self.dump_events = partial(events_adapter.serializer.to_json, exclude_defaults=True)

    def runs(self) -> dict[str, Callable[[Any], Any]]:
        """The operations by name."""
        return {name: getattr(self, name) for name in OPERATIONS}

    # ---- tokens, seats and successors ------------------------------------------------------------

    def state_json(self, state: Any) -> bytes:
        """``state``'s JSON, padded with spaces to a length that depends only on what every seat may know."""
        written = model_json(state)
        extra = self.game.hidden_length_slack(state)
        return written + b" " * extra if extra else written

    def opened_afresh(self, token: str) -> tuple[Sealed, Any]:
        """The contents and state of ``token`` (a table's dict for a table), opened and remembered."""
        sealed = open_token(self.keyring, self.game_id, token)
        state = orjson.loads(sealed.state_json) if sealed.is_table else self.parse_state(sealed.state_json)
        self.tokens.put(token, sealed, state)
        return sealed, state

    def dealt_opened(self, token: str) -> tuple[Sealed, Any]:
        """The contents and state of ``token``, a dealt match's (remembered, or opened afresh)."""
        sealed, state = self.tokens.get(token) or self.opened_afresh(token)
        refuse_table(sealed)
        return sealed, state

    def table_opened(self, token: str) -> tuple[Sealed, Any]:
        """The contents and table of ``token``, a table still taking seats."""
        sealed, table = self.tokens.get(token) or self.opened_afresh(token)
        if not sealed.is_table:
            raise TableDealtError(
                "This match has been dealt: it takes no more seats.", [IssueAt((), "a dealt match")]
            )
        return sealed, table

    def seat_opened(self, req: Any) -> tuple[Sealed, Any]:
        """The contents and state of the request's token (remembered, or opened afresh: a remembered pair
        is never empty), once its seat and seat key are checked."""
        sealed, state = self.dealt_opened(req.token)
        self.game.check_seat(state, req.seat, "seat")
        check_seat_key(self.keyring, self.game_id, sealed, req.seat, req.seat_key)
        return sealed, state

    def for_seat(self, events: Sequence[Any], seat: int) -> list[Any]:
        """``events`` as ``seat`` may see them (an event it may not see is left out)."""
        game = self.game
        return [shown for event in events if (shown := game.event_for_seat(event, seat)) is not None]

    def seated(self, sealed: Sealed, table: dict[str, Any], taken: dict[int, str]) -> tuple[Sealed, Any]:
        """The successor of a table once the seats of ``taken`` (seat: entropy) are taken: the table
        again, or the dealt match when no seat is left open."""
        entropy, salts = list(table["entropy"]), list(sealed.seat_salts)
        for seat, text in taken.items():
            entropy[seat], salts[seat] = text, new_salt()
        version = sealed.version + len(taken)
        if any(text is None for text in entropy):
            after = {**table, "entropy": entropy}
            return Sealed(
                sealed.match_id,
                version,
                sealed.seat_key_id,
                table_json(after),
                b"",
                0,
                tuple(salts),
                sealed.host_salt,
            ), after
        seeding = Seeding(table["seed"], tuple(entropy))
        options = self.parse_options(table["options"])
        state, events = self.game.new_match(table["players"], options, seeding, None, table["dealer"])
        state = self.game.sealed_state(state)
        dealt = Sealed(
            sealed.match_id,
            version,
            sealed.seat_key_id,
            self.state_json(state),
            self.dump_events(events),
            1,
            tuple(salts),
        )
        return dealt, state

    def settled(
        self, sealed: Sealed, after: Sealed, state: Any, digest: bytes, answer: Callable[[str, Sealed], Any]
    ) -> Any:
        """Seal ``after`` and answer it, once the store (if any) let ``sealed``'s version make it; the same
        request again answers the successor it made."""
        token = seal(self.keyring, self.game_id, after)
        store, tokens = self.store, self.tokens
        if store is None:
            tokens.put(token, after, state)
            return answer(token, after)

        async def claimed() -> Any:
            outcome: Outcome = await store.claim(
                sealed.match_id, sealed.version, digest, after.version, token
            )
            if not isinstance(outcome, Replayed):
                tokens.put(token, after, state)
                reply = answer(token, after)
            else:
                replayed, _ = tokens.get(outcome.token) or self.opened_afresh(outcome.token)
                reply = answer(outcome.token, replayed)
            self.answered.put(sealed.match_id, sealed.version, digest, reply)
            return reply

        return claimed()

    # ---- the operations --------------------------------------------------------------------------

    def new(self, req: Any) -> Any:
        """A table of ``req.players`` open seats, its seed drawn and sealed with it."""
        game, keyring = self.game, self.keyring
        # the service draws the seed (a client never chooses it); the seats' entropy comes as they join
        seed = draw_seed()
        # a trial deal refuses now what the last seat's join could not (a dealer or options the table
        # does not allow); its cards are dropped
        game.new_match(req.players, req.options, Seeding(seed), None, req.dealer)
        table = {
            "players": req.players,
            "dealer": req.dealer,
            "options": orjson.loads(model_json(req.options)),
            "seed": seed,
            "entropy": [None] * req.players,
        }
        first = Sealed(
            new_match_id(),
            1,
            keyring.current.id,
            table_json(table),
            b"",
            0,
            (OPEN,) * req.players,
            new_salt(),
        )
        token = seal(keyring, self.game_id, first)
        self.tokens.put(token, first, table)
        answer = constructed(
            self.models.new_response,
            token=token,
            version=1,
            match_id=match_id_text(first.match_id),
            commitment=commitment(seed),
            open_seats=list(range(req.players)),
            host_key=host_key(keyring, self.game_id, first),
        )
        if self.store is None:
            return answer
        return _opened(self.store, first, token, answer)

    def join(self, req: Any) -> Any:
        """One seat taken with the caller's entropy; the answer holds its seat key."""
        sealed, table = self.table_opened(req.token)
        seat = req.seat
        if seat >= table["players"]:
            raise InvalidRequestError(
                f"Seat {seat} is not at this table of {table['players']}.",
                [IssueAt(("seat",), f"must be a seat between 0 and {table['players'] - 1}")],
            )
        if table["entropy"][seat] is not None:
            raise SeatTakenError(f"Seat {seat} is taken.", [IssueAt((), "a seat somebody has taken")])
        after, state = self.seated(sealed, table, {seat: req.entropy})
        keyring, game_id, response = self.keyring, self.game_id, self.models.join_response

        def answer(token: str, successor: Sealed) -> Any:
            return constructed(
                response,
                token=token,
                version=successor.version,
                match_id=match_id_text(sealed.match_id),
                commitment=commitment(table["seed"]),
                seat_key=seat_key(keyring, game_id, successor, seat),
                open_seats=open_seats(successor),
            )

        # a join is never answered twice: its answer holds the seat key, and its entropy is shown to
        # every seat once the cards are dealt, so repeating it proves nothing (a random digest)
        return self.settled(sealed, after, state, os.urandom(16), answer)

    def fill(self, req: Any) -> Any:
        """The seats the host keeps taken with entropy the service draws; the answer holds their keys."""
        sealed, table = self.table_opened(req.token)
        keyring, game_id, response = self.keyring, self.game_id, self.models.fill_response
        check_host_key(keyring, game_id, sealed, req.host_key)
        players = table["players"]
        seats = open_seats(sealed) if req.seats is None else list(req.seats)
        for index, seat in enumerate(seats):
            if seat >= players:
                raise InvalidRequestError(
                    f"Seat {seat} is not at this table of {players}.",
                    [IssueAt(("seats", index), f"must be a seat between 0 and {players - 1}")],
                )
            if seats.index(seat) != index:
                raise InvalidRequestError(
                    f"Seat {seat} is listed twice.", [IssueAt(("seats", index), "listed twice")]
                )
            if table["entropy"][seat] is not None:
                raise SeatTakenError(
                    f"Seat {seat} is taken.", [IssueAt((index,), "a seat somebody has taken")], "seats"
                )
        if not seats:
            raise InvalidRequestError("No seat to fill.", [IssueAt(("seats",), "must name an open seat")])
        # the service draws the entropy of the seats the host keeps: the host never chooses a deal
        after, state = self.seated(sealed, table, {seat: f"host:{os.urandom(16).hex()}" for seat in seats})

        def answer(token: str, successor: Sealed) -> Any:
            keys = [seat_key(keyring, game_id, successor, s) if s in seats else None for s in range(players)]
            return constructed(
                response,
                token=token,
                version=successor.version,
                seat_keys=keys,
                open_seats=open_seats(successor),
            )

        # the seats as a set: the same seats listed in another order are the same request (a retry)
        digest = request_digest(b"fill", req.host_key.encode(), orjson.dumps(sorted(seats)))
        return self.settled(sealed, after, state, digest, answer)

    def moves(self, req: Any) -> Any:
        """Who is to act, the caller's legal moves and its view."""
        sealed, state = self.seat_opened(req)
        seat = req.seat
        to_act, legal = self.game.moves(state, seat)
        return constructed(
            self.models.moves_response,
            version=sealed.version,
            to_act=to_act,
            moves=legal,
            view=self.game.view(state, seat),
        )

    def apply(self, req: Any) -> Any:
        """The caller's move made: the successor's token and the events as the caller may see them."""
        sealed, state = self.seat_opened(req)
        seat, move = req.seat, req.move
        if move.player != seat:
            raise NotYourSeatError(
                f"Seat {seat} may only make its own moves.",
                [IssueAt(("player",), f"must be {seat}, the caller's seat")],
            )
        if getattr(move, "deck", None) is not None:
            raise InvalidRequestError(
                "A sealed match deals from its own seed: a move cannot choose the deck.",
                [IssueAt(("deck",), "must be null in a sealed match")],
                argument="move",
            )
        if sealed.version >= INT32_MAX:
            raise MatchOverError("This sealed match has reached the largest version.", [])
        store = self.store
        digest = b""
        if store is not None:
            digest = request_digest(b"apply", str(seat).encode(), model_json(move))
            kept = self.answered.get(sealed.match_id, sealed.version, digest)
            if kept is not None:
                return kept  # this very request, accepted by the store before: its answer again
        try:
            after, events = self.game.apply(state, move)
        except MoveError as error:  # list the caller's own legal moves only
            own = [legal for legal in error.legal_moves if legal.player == seat]
            refusal = type(error)(error.detail, own, error.issues)
            if store is None:
                raise refusal from None
            return _stale_or(store, sealed, refusal)
        following = sealed.followed_by(self.state_json(after), self.dump_events(events), LOG_VERSIONS)
        response, for_seat = self.models.apply_response, self.for_seat
        if store is None:
            token = seal(self.keyring, self.game_id, following)
            self.tokens.put(token, following, after)
            return constructed(
                response, token=token, version=following.version, events=for_seat(events, seat)
            )
        read_events = self.read_events

        def answer(token: str, successor: Sealed) -> Any:
            # the successor's newest log entry is this move's events (a replay reads them there)
            shown = (
                events if successor is following else read_events(successor.log_events.rsplit(b"\n", 1)[-1])
            )
            return constructed(response, token=token, version=successor.version, events=for_seat(shown, seat))

        return self.settled(sealed, following, after, digest, answer)

    def view(self, req: Any) -> Any:
        """The caller's view and the events of the versions after ``req.since`` the token keeps."""
        sealed, state = self.seat_opened(req)
        seat, since = req.seat, req.since
        models, read_events = self.models, self.read_events
        log = sealed.log
        entries = [
            constructed(models.log_entry, version=version, events=self.for_seat(read_events(raw), seat))
            for version, raw in log
            if version > since
        ]
        # the log of a match dealt after its seats joined starts at its deal, version players + 1
        first = self.game.players(state) + 1 if sealed.seat_salts else 1
        oldest = log[0][0] if log else sealed.version + 1
        return constructed(
            models.view_response,
            version=sealed.version,
            view=self.game.view(state, seat),
            events=entries,
            complete=since >= oldest - 1 or oldest <= first,
        )

    def score(self, req: Any) -> Any:
        """The match's score, and its seed once the match is over (no seat key: the score is public)."""
        sealed, state = self.dealt_opened(req.token)
        game = self.game
        detail = game.score(state)
        score = constructed(
            operation_models(self.game_id).score_response,
            **field_values(detail),
            outcome=game.outcome(state),
            seed=game.revealed_seed(state),
        )
        return constructed(self.models.score_response, version=sealed.version, score=score)


def open_seats(sealed: Sealed) -> list[int]:
    """The seats of a table nobody has taken yet."""
    return [seat for seat, salt in enumerate(sealed.seat_salts) if salt == OPEN]


def table_json(table: dict[str, Any]) -> bytes:
    """A table's JSON, padded with spaces to :data:`TABLE_BYTES` (its length says nothing of the entropy
    the seats joined with)."""
    written = orjson.dumps(table)
    return written + b" " * (TABLE_BYTES - len(written)) if len(written) < TABLE_BYTES else written


async def _stale_or(store: MatchStore, sealed: Sealed, refusal: MoveError) -> NoReturn:
    """Raise ``refusal`` (a move refused on ``sealed``'s state) if that version is the match's latest, or
    what a claim of it would answer otherwise (:meth:`MatchStore.current`): 409 ``match/stale`` with the
    latest token when the match has moved on, 410 ``match/unknown`` when the store does not hold it. A
    seat learns that the match moved on, or was forgotten, whatever its move, not that the move is
    illegal or not its turn in a state that is no longer the match's."""
    await store.current(sealed.match_id, sealed.version)
    raise refusal


async def _opened(store: MatchStore, first: Sealed, token: str, answer: Any) -> Any:
    """``answer`` (a new table's), once the store remembers the table."""
    await store.open(first.match_id, first.version, token)
    return answer
