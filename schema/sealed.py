"""Request and response models of the sealed (referee mode) operations, built once per game.

In referee mode the state travels as an opaque ``token``; each seat proves who it is with its
``seat_key``. The models here only describe the wire; the sealing itself lives in ``api/sealing.py``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Annotated, Any

import pybase64
from pydantic import Field, StringConstraints

from .common import GameModels, WireModel
from .operations import players_field, type_prefix, wire_model
from .scalars import ENTROPY_PATTERN, MAX_SEATS, Commitment, Count, Ordinal, Seat

MIN_TOKEN_LENGTH = 1
"""Shortest token a request may carry, in characters (one that short is then refused as malformed)."""
MAX_TOKEN_LENGTH = 262_144
"""Longest token accepted, in characters (the largest states seal to a few kilobytes)."""

TOKEN_PATTERN = r"^[A-Za-z0-9_-]+$"
"""The characters of a token: the URL-safe base64 alphabet (no padding)."""


def url_safe_base64_decoded(text: str) -> bytes:
    """The bytes of URL-safe base64 ``text``, its padding optional, read strictly by pybase64's SIMD
    decoder: a character outside the alphabet and its padding raises ``binascii.Error``, a non-ASCII
    string ``ValueError``. (It would also take ``+`` and ``/``, with a deprecation warning.)"""
    return pybase64.b64decode(text + "=" * (-len(text) % 4), altchars=b"-_", validate=True)


# The models check a token's length only; its text is read where the token is opened
# (api/sealing.open_token refuses all but canonical URL-safe base64 as token/malformed), or matched whole
# against a token the service sealed or opened (api/sealed_memory.OpenedTokens), so every token outside
# TOKEN_PATTERN is still refused. Checking its alphabet here as well, by the pattern's regular expression
# or by decoding it, would read every character of every token twice.
Token = Annotated[
    str,
    StringConstraints(min_length=MIN_TOKEN_LENGTH, max_length=MAX_TOKEN_LENGTH),
    Field(
        description="The sealed match: opaque URL-safe base64 made by the service; send it back unchanged.",
        json_schema_extra={"pattern": TOKEN_PATTERN},
    ),
]
SeatKey = Annotated[
    str,
    StringConstraints(pattern=r"^[A-Za-z0-9_-]{43}$"),
    Field(description="The secret key of this seat in this match, as returned by sealed new."),
]
HostKey = Annotated[
    str,
    StringConstraints(pattern=r"^[A-Za-z0-9_-]{43}$"),
    Field(description="The secret key of the table's host, as returned by sealed new."),
]
JoinEntropy = Annotated[
    str,
    StringConstraints(pattern=ENTROPY_PATTERN),
    Field(
        description="This seat's entropy (1-256 printable ASCII characters its own device chose at random), "
        "mixed into every deal of the match."
    ),
]
OpenSeats = Annotated[
    list[int],
    Field(
        max_length=MAX_SEATS, description="The seats nobody has taken yet; empty once the cards are dealt."
    ),
]
Version = Annotated[
    Ordinal, Field(description="1 after new, one more after every applied move; a relay keeps the highest.")
]


class TokenFirst(WireModel):
    """Base of the sealed answers that hand out a new token (``new``, ``apply``): the token is their first
    field, and :meth:`json_bytes` writes them.

    The token is URL-safe base64 made by the service's seal, so its JSON is its text between quotes.
    pydantic-core looks at every character of a string for something to escape, which a token never
    holds. :meth:`json_bytes` writes the other fields
    with pydantic and puts the token in front as it is; the bytes are the same as pydantic's own (a test
    compares them for every game).
    """

    token: Token

    def json_bytes(self) -> bytes:
        """The canonical JSON of this answer, as ``__pydantic_serializer__.to_json`` writes it."""
        rest = self.__pydantic_serializer__.to_json(self, exclude=_TOKEN_FIELD)
        return b"".join((b'{"token":"', self.token.encode(), b'",' if len(rest) > 2 else b'"', rest[1:]))


_TOKEN_FIELD = {"token"}
"""What :meth:`TokenFirst.json_bytes` leaves to pydantic: every field but this one (never changed)."""


@dataclass(frozen=True)
class SealedModels:
    """The request and response models of the seven sealed operations of one game."""

    new_request: type[Any]
    new_response: type[Any]
    join_request: type[Any]
    join_response: type[Any]
    fill_request: type[Any]
    fill_response: type[Any]
    moves_request: type[Any]
    moves_response: type[Any]
    apply_request: type[Any]
    apply_response: type[Any]
    view_request: type[Any]
    view_response: type[Any]
    score_request: type[Any]
    score_response: type[Any]
    log_entry: type[Any]


def build_sealed_models(
    game_id: str,
    game_name: str,
    table_sizes: Sequence[int],
    models: GameModels,
    log_versions: int,
    score_response: type[Any],
) -> SealedModels:
    """Derive the sealed ``new``, ``join``, ``fill``, ``moves``, ``apply``, ``view`` and ``score`` models
    of one game (``score_response`` is the plain score's answer, which the sealed score carries)."""
    p = type_prefix(game_id) + "Sealed"
    token = (Token, ...)
    seat = (Seat, Field(description="The caller's seat."))
    key = (SeatKey, ...)
    events = (list[models.event], Field(description="The events, as this seat may see them."))  # type: ignore[name-defined]
    match_id = (str, Field(description="The match's public id (32 hex digits)."))
    commitment = (Commitment, Field(description="The commitment to the match's secret seed."))
    log_entry = wire_model(
        f"{p}Events",
        "The events of one applied move (or of the first deal, version 1), as one seat may see them.",
        version=(Version, Field(description="The version the move reached.")),
        events=events,
    )
    return SealedModels(
        new_request=wire_model(
            f"{p}NewRequest",
            f"Open a table for a sealed match of {game_name}: the service draws the seed; each seat joins.",
            players=players_field(table_sizes),
            dealer=(
                Seat | None,
                Field(default=None, description="First dealer; omitted means the game's rule."),
            ),
            options=(models.options, Field(default_factory=models.options, description="Game options.")),
        ),
        new_response=wire_model(
            f"{p}NewResponse",
            "A table: hand every player the token (each joins a seat with it) and keep the host key.",
            base=TokenFirst,
            version=(Version, ...),
            match_id=match_id,
            commitment=commitment,
            open_seats=(OpenSeats, ...),
            host_key=(
                str,
                Field(description="The host's secret key: fill open seats (bots, seats the host plays)."),
            ),
        ),
        join_request=wire_model(
            f"{p}JoinRequest",
            "Take an open seat of a table with this seat's own entropy.",
            token=token,
            seat=(Seat, Field(description="The open seat to take.")),
            entropy=(JoinEntropy, ...),
        ),
        join_response=wire_model(
            f"{p}JoinResponse",
            "The seat is taken: its key (in this answer only), and the table's new token "
            "(the dealt match once the last seat joined).",
            base=TokenFirst,
            version=(Version, ...),
            match_id=match_id,
            commitment=commitment,
            seat_key=(
                str,
                Field(description="The secret key of the seat taken: keep it; it is never shown again."),
            ),
            open_seats=(OpenSeats, ...),
        ),
        fill_request=wire_model(
            f"{p}FillRequest",
            "The host takes open seats (for bots or to play them), the service drawing their entropy.",
            token=token,
            host_key=(HostKey, ...),
            seats=(
                list[Seat] | None,
                Field(
                    default=None, max_length=MAX_SEATS, description="The open seats to take; omitted: all."
                ),
            ),
        ),
        fill_response=wire_model(
            f"{p}FillResponse",
            "The seats taken: their keys, and the new token (the dealt match once no seat is open).",
            base=TokenFirst,
            version=(Version, ...),
            seat_keys=(
                list[str | None],
                Field(
                    max_length=MAX_SEATS,
                    description="Per seat, seat 0 first: the key of each seat this call took, else null.",
                ),
            ),
            open_seats=(OpenSeats, ...),
        ),
        moves_request=wire_model(
            f"{p}MovesRequest", "Ask for one seat's legal moves.", token=token, seat=seat, seat_key=key
        ),
        moves_response=wire_model(
            f"{p}MovesResponse",
            "The seats to act, this seat's legal moves (empty when it is not to act) and its view.",
            version=(Version, ...),
            to_act=(list[Seat], ...),
            moves=(list[models.move], ...),  # type: ignore[name-defined]
            view=(models.view, ...),
        ),
        apply_request=wire_model(
            f"{p}ApplyRequest",
            "Apply one move of the caller's seat.",
            token=token,
            seat=seat,
            seat_key=key,
            move=(models.move, Field(description="A move of the caller's seat (without a deck).")),
        ),
        apply_response=wire_model(
            f"{p}ApplyResponse",
            "The new token and version, and the events the move caused as this seat may see them.",
            base=TokenFirst,
            version=(Version, ...),
            events=events,
        ),
        view_request=wire_model(
            f"{p}ViewRequest",
            "Ask for one seat's view and the events since a version it has seen.",
            token=token,
            seat=seat,
            seat_key=key,
            since=(
                Count,
                Field(default=0, le=2**31 - 1, description="The last version this seat has seen (0: none)."),
            ),
        ),
        view_response=wire_model(
            f"{p}ViewResponse",
            f"One seat's view and the events after 'since' (a token keeps {log_versions} versions).",
            version=(Version, ...),
            view=(models.view, ...),
            events=(list[log_entry], Field(description="Events after 'since', oldest first.")),  # type: ignore[valid-type]
            complete=(
                bool,
                Field(description="False when older events than the token keeps were asked for."),
            ),
        ),
        score_request=wire_model(f"{p}ScoreRequest", "Ask for the scores of a sealed match.", token=token),
        score_response=wire_model(
            f"{p}ScoreResponse",
            "The scores every player may see.",
            version=(Version, ...),
            score=(score_response, ...),
        ),
        log_entry=log_entry,
    )
