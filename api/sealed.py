"""The sealed (referee mode) operations of every game: ``new``, ``moves``, ``apply``, ``view``, ``score``.

They run the same engine as the plain operations, on a state opened from a token instead of a posted
one. A token was sealed by the service, so its state is not checked for consistency again. Every answer
and error is for the caller's seat only: its own legal moves, its view, the events as it may see them
(:meth:`Game.event_for_seat`).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Sequence
from functools import cache, partial
from threading import Lock
from typing import Any, NoReturn

from pydantic import TypeAdapter

from sevens_rules.api.game_models import operation_models
from sevens_rules.api.sealing import (
    TAG_BYTES,
    Keyring,
    NotYourSeatError,
    Sealed,
    SealedModeDisabledError,
    check_seat_key,
    match_id_text,
    new_match_id,
    open_token,
    seal,
    seat_keys,
)
from sevens_rules.engine.dealing import Seeding, fresh_seed
from sevens_rules.engine.errors import InvalidRequestError, IssueAt, MatchOverError, MoveError
from sevens_rules.engine.game import Game, constructed
from sevens_rules.engine.registry import GAMES
from sevens_rules.schema.common import INT32_MAX, model_json
from sevens_rules.schema.sealed import SealedModels, build_sealed_models

AnyGame = Game[Any, Any, Any, Any, Any, Any]

OPENED_TOKENS = 32
"""Tokens each game keeps opened, the most recently sealed or opened (see :class:`OpenedTokens`).

Enough for the requests that follow a move (every seat asks about the new token) while this worker makes
up to 32 other moves of the same game. Each remembered token holds about 4.5 KB (the token, its log and
state JSON, the state), and every move of a match in play remembers one: with 256 the entries being
replaced were about 1.2 MB old, and sealed apply answered about 5% fewer requests per second over HTTP
than with 32 (the bench's mid-deal Sjuan token, fixed deal, three paired runs each, every apply remembering
one more token). A token that is no longer remembered costs one opening (decrypt and parse: about 12 µs for
that token), and the answer is the same."""

LOG_VERSIONS = 16
"""Versions whose events a token keeps for ``view``: two full rounds of the largest table (eight seats),
while keeping tokens small (the log is most of a token, and every apply seals it again)."""

DISABLED_DETAIL = (
    "Sealed operations need server keys: set RULES_SEAL_KEYS to one or more 'id:key' pairs (a key is 32 "
    "random bytes in base64, the first one seals) and restart the service; see the README."
)


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


TAIL_CHARACTERS = -(-TAG_BYTES * 4 // 3)
"""Characters at the end of a token that its remembered entry is found by (22): as many as base64 spells
the AES-GCM tag in, the token's last bytes, which differ for every token sealed (each has a fresh random
nonce)."""


class OpenedTokens:
    """The most recently sealed or opened tokens of one game with what they hold: the token's contents
    and its state, as a bounded least-recently-used map.

    In a sealed match every seat asks about the token the last move produced (its moves, its view) and
    one of them moves with it, so nearly every request presents a token this worker has just sealed or
    opened. A token's text fixes its contents (it authenticates them), and the keys that opened it stay
    for the life of the process, so a remembered token is always read as opening it again would read
    it; a token that never opened is never remembered. The states are the engine's own frozen models,
    which the engine never changes. Each game keeps its own map: a token of another game is not found,
    and opening it says so.

    An entry is found by the token's last :data:`TAIL_CHARACTERS` characters and holds the whole token,
    which must equal the one presented: hashing a whole token (about 2,000 characters, a new string with
    every request) was two hashes of every sealed apply, one to find it and one to remember the next.
    A presented token that shares the tail but not the text is not remembered, and is opened (and
    refused) as any other.

    One token is remembered per match and version, the last one sealed or opened: a version has one
    successor in a match as played, but a client that tries several moves from the same token (a bot
    weighing its options, a retry) seals a successor for each, and remembering them all would push the
    tokens of other matches out for versions of which at most one goes on.
    """

    def __init__(self, size: int) -> None:
        self.size = size
        self._entries: OrderedDict[str, tuple[str, tuple[Sealed, Any]]] = OrderedDict()
        """By tail: the whole token, and what :meth:`get` answers for it."""
        self._tails: dict[tuple[bytes, int], str] = {}
        """The tail of the entry of each match id and version remembered (one entry each)."""
        self._lock = Lock()

    def get(self, token: str) -> tuple[Sealed, Any] | None:
        """The contents and state of ``token`` if remembered (it becomes the most recent)."""
        tail = token[-TAIL_CHARACTERS:]
        with self._lock:
            entry = self._entries.get(tail)
            if entry is None or entry[0] != token:
                return None
            self._entries.move_to_end(tail)
        return entry[1]

    def put(self, token: str, sealed: Sealed, state: Any) -> None:
        """Remember ``token`` (which opens to ``sealed``, holding ``state``) in place of any token of the
        same match and version, forgetting the least recent token beyond the size."""
        if self.size <= 0:
            return
        tail = token[-TAIL_CHARACTERS:]
        version = (sealed.match_id, sealed.version)
        with self._lock:
            replaced = self._tails.pop(version, None)
            if replaced is not None:
                del self._entries[replaced]
            if tail in self._entries:
                self._forget(tail)
            self._entries[tail] = (token, (sealed, state))
            self._tails[version] = tail
            if len(self._entries) > self.size:
                self._forget(next(iter(self._entries)))

    def __len__(self) -> int:
        """Tokens remembered."""
        return len(self._entries)

    def _forget(self, tail: str) -> None:
        _, (sealed, _) = self._entries.pop(tail)
        del self._tails[sealed.match_id, sealed.version]


OPERATIONS = ("new", "moves", "apply", "view", "score")
"""The names of the sealed operations (the keys of :func:`sealed_runs`)."""


def sealed_runs(
    game: AnyGame, keyring: Keyring | None, opened_tokens: int = OPENED_TOKENS
) -> dict[str, Callable[[Any], Any]]:
    """The five sealed operations of ``game`` as functions of a validated request, by name (keeping up to
    ``opened_tokens`` tokens opened, see :class:`OpenedTokens`); without server keys, each one refuses
    with :class:`SealedModeDisabledError`."""
    if keyring is None:
        return dict.fromkeys(OPERATIONS, _disabled)
    return _runs(game, keyring, opened_tokens)


def _disabled(req: Any) -> NoReturn:
    raise SealedModeDisabledError(DISABLED_DETAIL)


def _runs(game: AnyGame, keyring: Keyring, opened_tokens: int) -> dict[str, Callable[[Any], Any]]:
    m = sealed_models(game.id)
    tokens = OpenedTokens(opened_tokens)
    parse_state = game.models.state.model_validate_json
    events_adapter: TypeAdapter[list[Any]] = TypeAdapter(list[game.models.event])  # type: ignore[name-defined]
    read_events = events_adapter.validate_json
    # TypeAdapter.dump_json's own wrapper skipped; fields left at their defaults (most are null) are
    # restored when the log is read
    dump_events = partial(events_adapter.serializer.to_json, exclude_defaults=True)
    game_id = game.id

    def opened_afresh(token: str) -> tuple[Sealed, Any]:
        """The contents and state of ``token``, opened (and then remembered)."""
        sealed = open_token(keyring, game_id, token)
        state = parse_state(sealed.state_json)
        tokens.put(token, sealed, state)
        return sealed, state

    def seat_opened(req: Any) -> tuple[Sealed, Any]:
        """The contents and state of the request's token (remembered, or opened afresh: a remembered pair
        is never empty), once its seat and seat key are checked."""
        sealed, state = tokens.get(req.token) or opened_afresh(req.token)
        game.check_seat(state, req.seat, "seat")
        check_seat_key(keyring, game_id, sealed, req.seat, req.seat_key)
        return sealed, state

    def for_seat(events: Sequence[Any], seat: int) -> list[Any]:
        return [shown for event in events if (shown := game.event_for_seat(event, seat)) is not None]

    def new(req: Any) -> Any:
        # the service draws the seed (a client never chooses it); the players' entropy is mixed in
        seeding = Seeding(draw_seed(), tuple(req.entropy))
        state, events = game.new_match(req.players, req.options, seeding, None, req.dealer)
        first = Sealed.of(new_match_id(), 1, keyring.current.id, model_json(state), (dump_events(events),))
        token = seal(keyring, game_id, first)
        tokens.put(token, first, state)
        return constructed(
            m.new_response,
            token=token,
            version=1,
            match_id=match_id_text(first.match_id),
            seat_keys=seat_keys(keyring, game_id, first, game.players(state)),
            commitment=seeding.commitment,
        )

    def moves(req: Any) -> Any:
        sealed, state = seat_opened(req)
        seat = req.seat
        to_act, legal = game.moves(state, seat)
        return constructed(
            m.moves_response,
            version=sealed.version,
            to_act=to_act,
            moves=legal,
            view=game.view(state, seat),
        )

    def apply(req: Any) -> Any:
        sealed, state = seat_opened(req)
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
        try:
            after, events = game.apply(state, move)
        except MoveError as error:  # list the caller's own legal moves only
            own = [legal for legal in error.legal_moves if legal.player == seat]
            raise type(error)(error.detail, own, error.issues) from None
        following = sealed.followed_by(model_json(after), dump_events(events), LOG_VERSIONS)
        token = seal(keyring, game_id, following)
        tokens.put(token, following, after)
        return constructed(
            m.apply_response, token=token, version=following.version, events=for_seat(events, seat)
        )

    def view(req: Any) -> Any:
        sealed, state = seat_opened(req)
        seat, since = req.seat, req.since
        log = sealed.log
        entries = [
            constructed(m.log_entry, version=version, events=for_seat(read_events(raw), seat))
            for version, raw in log
            if version > since
        ]
        oldest = log[0][0] if log else sealed.version + 1
        return constructed(
            m.view_response,
            version=sealed.version,
            view=game.view(state, seat),
            events=entries,
            complete=since >= oldest - 1,
        )

    def score(req: Any) -> Any:
        sealed, state = tokens.get(req.token) or opened_afresh(req.token)
        detail = game.score(state)
        score = constructed(
            operation_models(game_id).score_response,
            **detail.__dict__,
            outcome=game.outcome(state),
            seed=game.revealed_seed(state),
        )
        return constructed(m.score_response, version=sealed.version, score=score)

    return {"new": new, "moves": moves, "apply": apply, "view": view, "score": score}
