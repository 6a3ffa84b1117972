"""Seeds, commitments and the cryptographic shuffle: every random choice the service makes.

All cryptography of the service lives here. The construction is specified in the README ("The
shuffle") so that any client can recompute a deal; in short:

- a **seed** is 32 random bytes, written as 64 lowercase hex digits;
- its **commitment** is ``SHA-256("sevens-rules/v1/commitment" || 0x00 || seed)``, in hex;
- a deal's card order comes from **HMAC-SHA256 in counter mode** keyed with the seed: block ``k`` is
  ``HMAC-SHA256(seed, u32(k) || context)`` where the context names the construction, the game, the
  purpose (``deal`` or ``cut``), the deal number and the players' entropy, each length-prefixed, so that
  no two games, deals or purposes ever share a stream;
- the blocks are read as big-endian 32-bit words and drive an unbiased Fisher-Yates shuffle (rejection
  sampling), from the last position down.

HMAC-SHA256 is a pseudorandom function: without the key, its outputs are indistinguishable from random,
so the cards a seat holds say nothing about the seed or about the cards it does not hold.
"""

from __future__ import annotations

import hashlib
import secrets
import struct
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import chain, count
from typing import Any, Protocol

from cryptography.hazmat.primitives.hashes import SHA256
from cryptography.hazmat.primitives.hmac import HMAC

from .errors import IssueAt

SEED_BYTES = 32
"""A seed is 256 bits."""

DOMAIN = b"sevens-rules/v1"
"""Prefix of every domain-separation label (bump the version to change the construction)."""
COMMITMENT_LABEL = DOMAIN + b"/commitment"
"""Label hashed before the seed in its commitment."""
SHUFFLE_LABEL = DOMAIN + b"/shuffle"
"""Label opening every shuffle context."""

DEAL = "deal"
"""Purpose of the shuffle that orders a deal's cards."""
CUT = "cut"
"""Purpose of the pack the Seven-Up seats cut for the first dealer."""

_WORD = struct.Struct(">I")
_WORD_RANGE = 1 << 32


def fresh_seed() -> str:
    """A new seed from the operating system's CSPRNG, as 64 lowercase hex digits."""
    return secrets.token_hex(SEED_BYTES)


def commitment(seed: str) -> str:
    """The public commitment to ``seed``: hex SHA-256 of the commitment label, a zero byte and the seed."""
    return hashlib.sha256(COMMITMENT_LABEL + b"\x00" + bytes.fromhex(seed)).hexdigest()


@lru_cache(maxsize=1024)
def _known_commitment(seed: str) -> str:
    # Every request about a match posts its seed, the same until the match ends, and its commitment is
    # checked each time: remembered for the matches being played, bounded.
    return commitment(seed)


def _field(data: bytes) -> bytes:
    return _WORD.pack(len(data)) + data


def shuffle_context(game_id: str, deal_number: int, purpose: str, entropy: Sequence[str]) -> bytes:
    """The bytes that separate one stream from every other: label, game, purpose, deal, entropy."""
    return _shuffle_context(game_id, deal_number, purpose, tuple(entropy))


@lru_cache(maxsize=1024)
def _shuffle_context(game_id: str, deal_number: int, purpose: str, entropy: tuple[str, ...]) -> bytes:
    # A function of public values alone (no seed), asked at every deal: remembered, bounded.
    parts = [_field(SHUFFLE_LABEL), _field(game_id.encode()), _field(purpose.encode())]
    parts.append(_WORD.pack(deal_number) + _WORD.pack(len(entropy)))
    parts += [_field(contribution.encode()) for contribution in entropy]
    return b"".join(parts)


def words(seed: str, context: bytes, first_block: int = 0) -> Iterator[int]:
    """The big-endian 32-bit words of ``HMAC-SHA256(seed, u32(k) || context)`` for k = 0, 1, 2, ...
    (from block ``first_block`` on)."""
    keyed = seed_hmac(seed)
    for block in count(first_block):
        yield from block_words(keyed, context, block, 1)


@lru_cache(maxsize=1024)
def seed_hmac(seed: str) -> HMAC:
    """HMAC-SHA256 keyed with ``seed`` (64 hex digits), from the ``cryptography`` package.

    Every block of a shuffle copies it and never updates it, so one keyed object serves every shuffle of
    a match: remembered for the matches being played, bounded (as :func:`_known_commitment` remembers
    their commitments). Copying its keyed state takes about half the time of hashlib's ``hmac`` module
    doing the same."""
    return HMAC(bytes.fromhex(seed), SHA256())


def block_words(keyed: HMAC, context: bytes, first: int, blocks: int) -> tuple[int, ...]:
    """The words of ``blocks`` consecutive blocks from block ``first`` (see :func:`words`); ``keyed`` is
    :func:`seed_hmac`, copied for each block and never updated itself."""
    digests = []
    for block in range(first, first + blocks):
        mac = keyed.copy()
        mac.update(_WORD.pack(block) + context)
        digests.append(mac.finalize())
    return struct.unpack(f">{8 * blocks}I", b"".join(digests))


def uniform_below(stream: Iterator[int], bound: int) -> int:
    """A uniform integer in ``0..bound-1`` from ``stream``: words at or above the largest multiple of
    ``bound`` are skipped, so that every value is equally likely."""
    limit = _limit(bound)
    word = next(stream)
    while word >= limit:
        word = next(stream)
    return word % bound


def shuffled(
    deck: Sequence[str],
    seed: str,
    game_id: str,
    deal_number: int,
    purpose: str = DEAL,
    entropy: Sequence[str] = (),
) -> list[str]:
    """``deck`` (in canonical order) shuffled for one purpose of one deal of one match; top card first.

    ``deal_number`` is 1 for the first deal (the Seven-Up cut, purpose :data:`CUT`, also uses 1).
    """
    context = shuffle_context(game_id, deal_number, purpose, entropy)
    # The shuffle reads one word per position but the first, and more only when a word is refused (a
    # chance below len(deck) / 2^32 each): that many words are made at once, then the blocks after them.
    blocks = (len(deck) + 6) // 8
    keyed = seed_hmac(seed)
    stream = chain(block_words(keyed, context, 0, blocks), words(seed, context, blocks))
    return fisher_yates(list(deck), stream)


def fisher_yates(cards: list[str], stream: Iterator[int]) -> list[str]:
    """``cards`` shuffled in place (and returned) from the last position down, each position swapped with
    a position at or below it drawn from ``stream`` as :func:`uniform_below` draws it (written out here,
    with the limits looked up, because every deal runs this loop)."""
    limits = _limits(len(cards))
    for i in range(len(cards) - 1, 0, -1):
        word = next(stream)
        while word >= limits[i]:
            word = next(stream)
        j = word % (i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def _limit(bound: int) -> int:
    """The largest multiple of ``bound`` not above 2^32: the words drawn for ``bound`` must be below it."""
    return _WORD_RANGE - _WORD_RANGE % bound


@lru_cache(maxsize=64)
def _limits(size: int) -> tuple[int, ...]:
    """``_limits(size)[i]``: :func:`_limit` of the bound ``i + 1``, for every ``i`` below ``size``."""
    return tuple(_limit(i + 1) for i in range(size))


class SeededState(Protocol):
    """What every game's state carries about its seed."""

    @property
    def seed(self) -> str:
        """The secret seed, 64 lowercase hex digits."""

    @property
    def commitment(self) -> str:
        """The public commitment to the seed."""

    @property
    def entropy(self) -> Sequence[str]:
        """The players' contributions, in order."""


@dataclass(frozen=True)
class Seeding:
    """What a match's seeded deals depend on besides the game: the secret seed and the players' entropy."""

    seed: str = field(repr=False)  # never in a log line or a traceback by accident
    entropy: tuple[str, ...] = ()

    @classmethod
    def of(cls, state: SeededState) -> Seeding:
        """The seeding a state carries."""
        return cls(state.seed, tuple(state.entropy))

    @property
    def commitment(self) -> str:
        """The public commitment to the seed."""
        return commitment(self.seed)

    def shuffled(self, deck: Sequence[str], game_id: str, deal_number: int, purpose: str = DEAL) -> list[str]:
        """:func:`shuffled` for this seed and entropy."""
        return shuffled(deck, self.seed, game_id, deal_number, purpose, self.entropy)

    def state_fields(self) -> dict[str, Any]:
        """The ``seed``, ``commitment`` and ``entropy`` fields of a state."""
        return {"seed": self.seed, "commitment": self.commitment, "entropy": list(self.entropy)}


def revealed_seed(state: SeededState, over: bool) -> str | None:
    """The seed as a seat or a score may show it: only once the match is over (before that it would
    reveal every hand and every future deal)."""
    return state.seed if over else None


def view_fields(state: SeededState, over: bool) -> dict[str, Any]:
    """The ``commitment``, ``entropy`` and ``seed`` fields of a seat's view (see :func:`revealed_seed`)."""
    return {
        "commitment": state.commitment,
        "entropy": list(state.entropy),
        "seed": revealed_seed(state, over),
    }


def seeding_issues(state: SeededState) -> list[IssueAt]:
    """An issue at ``commitment`` unless it is the commitment of the state's seed."""
    if state.commitment == _known_commitment(state.seed):
        return []
    return [IssueAt(("commitment",), "is not the commitment of this state's seed")]
