"""What a worker remembers between sealed requests: the tokens it sealed or opened last, and the answers of
the requests the match store accepted (both bounded, least recently used first out). Used by
:mod:`sevens_rules.api.sealed`."""

from __future__ import annotations

from collections import OrderedDict
from threading import Lock
from typing import Any

from .sealing import TAG_BYTES, Sealed

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


class ClaimedAnswers:
    """The answers of the latest requests this worker had the match store accept, by match and version:
    a bounded least-recently-used map.

    A version's claim never changes once made (the store keeps the digest of the request that consumed
    it and the successor it made, and refuses every other request on it), so the answer to a request
    the store accepted is the answer to that same request sent again: a retry after a lost answer (or a
    client that repeats itself) is answered from here without applying, sealing and claiming again.
    A request is the same when its digest (seat, move, host key...) is; any other request on that
    version goes to the store, which refuses it. One answer is kept per match and version.
    """

    def __init__(self, size: int) -> None:
        self.size = size
        self._entries: OrderedDict[tuple[bytes, int], tuple[bytes, Any]] = OrderedDict()
        self._lock = Lock()

    def get(self, match_id: bytes, version: int, digest: bytes) -> Any | None:
        """The answer kept for the request of ``digest`` on this version, if it is the one kept."""
        with self._lock:
            entry = self._entries.get((match_id, version))
            if entry is None or entry[0] != digest:
                return None
            self._entries.move_to_end((match_id, version))
        return entry[1]

    def put(self, match_id: bytes, version: int, digest: bytes, answer: Any) -> None:
        """Keep ``answer`` as the answer of the request of ``digest`` on this version."""
        if self.size <= 0:
            return
        with self._lock:
            self._entries[match_id, version] = (digest, answer)
            self._entries.move_to_end((match_id, version))
            if len(self._entries) > self.size:
                self._entries.popitem(last=False)
