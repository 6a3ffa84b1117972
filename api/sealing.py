"""Referee mode's cryptography: the server keys, sealed tokens and seat keys.

**Keys.** ``RULES_SEAL_KEYS`` holds one or more server keys as ``id:key`` pairs separated by commas, e.g.
``2026b:3q2+7w...=,2026a:q83v...=``. An id is 1 to 32 characters of ``A-Z a-z 0-9 . _ -``; a key is 32
random bytes in base64 (standard or URL-safe alphabet, padding optional). The first key seals every new
token; every listed key opens tokens, so a key is rotated by putting a new one first and removing the old
one once the matches it sealed are over. Generate a key with
``python -c "import base64, os; print(base64.b64encode(os.urandom(32)).decode())"``.

**Tokens.** A token is URL-safe base64 (no padding) of::

    format (1 byte, 4) | key id length (1) | key id | game id length (1) | game id
    | match id (16) | version (4, big-endian) | nonce (12) | AES-256-GCM ciphertext and tag

The plaintext is the payload (:class:`Sealed`): a key line (the id of the key seat keys derive from; for
a table waiting for its seats, the mark ``T`` and the host key's salt; then each seat's salt, hex or
``-`` for a seat nobody has taken; space-separated ASCII), the state's JSON, then the events JSON of each
logged version, oldest first, all separated by newlines. The
last logged version is the token's own and each one before it the version before (the log is the most
recent consecutive versions), so no entry needs a version or a length: compact JSON never holds a raw
newline (JSON writes one in a string as an escape). Everything before the nonce is the associated data,
so the game, the match id, the version and the key id are bound to the contents and cannot be changed
without the key. The AES key is ``HMAC-SHA256(server key, "sevens-rules seal v1")``; nonces are 96
random bits from the OS.

The payload is not compressed: a compressed length would depend on the hidden cards themselves (which
hands repeat which runs of text), while an uncompressed payload's length depends only on what every seat
knows (card names are two characters; hand, stock and log sizes are public); and compressing was about
half of every seal. Tokens of the earlier formats still open, so matches in play across an upgrade go on,
and are sealed again in format 4 by their next move: format 3, whose payload gave the state's length and
a table of each entry's version and length instead of the newlines (8 bytes an entry), and format 2, the
same zlib-compressed. A mid-deal four-seat Sjuan token is about 1,800 characters (1,960 in format 3), well
within the request size limits.

**Seat keys.** ``HMAC-SHA256(HMAC-SHA256(server key, "sevens-rules seat v1"), game NUL match id (hex) NUL
seat NUL salt)`` in URL-safe base64 (43 characters), where the seat is its number, or ``host`` for the
host key of a table, and the salt is the one drawn when the seat was taken (the host's when the table was
opened; tokens of the earlier formats have no salt, and the key no ``NUL salt``). The server key is the
one that sealed the match's first token (its id travels inside the payload, so seat keys survive a
rotation while that key stays listed). They are compared in constant time. Keys and tokens need no
storage: any replica with the keys opens any token and checks any key; the match store
(:mod:`.match_store`) records, per match, the versions claimed and what each claim answered.
"""

from __future__ import annotations

import binascii
import hashlib
import hmac
import os
import re
import struct
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import NamedTuple

import pybase64
from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from ..engine.errors import IssueAt, RulesError
from ..schema.sealed import url_safe_base64_decoded

ENV_VARIABLE = "RULES_SEAL_KEYS"
FORMAT = 4
"""The token format :func:`seal` writes."""
SIZED_FORMAT = 3
"""The earlier format whose payload gives lengths and versions instead of newlines: opened, never written."""
COMPRESSED_FORMAT = 2
"""Format 3 with a zlib-compressed payload: opened, never written."""
_OPENED_FORMATS = frozenset((FORMAT, SIZED_FORMAT, COMPRESSED_FORMAT))
SEPARATOR = b"\n"
"""What separates the payload's parts: a byte that compact JSON and key ids never hold."""
MATCH_ID_BYTES = 16
NONCE_BYTES = 12
TAG_BYTES = 16
KEY_BYTES = 32
KEY_ID = re.compile(r"[A-Za-z0-9._-]{1,32}")
SEAT_KEY_LENGTH = 43
"""Characters of a seat key: 32 bytes in URL-safe base64 without padding."""


class SealError(RulesError):
    """Base of the referee-mode errors; ``status`` is the HTTP status of the problem."""

    status = 422
    argument = "token"


DISABLED_DETAIL = (
    "Sealed operations need server keys: set RULES_SEAL_KEYS to one or more 'id:key' pairs (a key is 32 "
    "random bytes in base64, the first one seals) and restart the service; see the README."
)
"""The detail of :class:`SealedModeDisabledError`."""


class SealedModeDisabledError(SealError):
    """No ``RULES_SEAL_KEYS`` are configured."""

    code = "sealed/disabled"
    title = "Sealed mode is not enabled"
    status = 404
    argument = ""


class TokenError(SealError):
    """Base of the errors about the request's ``token``: each one's problem lists the token's path with
    the class's short ``issue``."""

    issue = "not a token this service can open"

    def __init__(self, detail: str) -> None:
        super().__init__(detail, [IssueAt((), self.issue)])


class TokenMalformedError(TokenError):
    """Not a token of this service: not canonical URL-safe base64, too short, an unknown format or a
    truncated header."""

    code = "token/malformed"
    title = "Malformed token"
    issue = "must be a token as the service made it (URL-safe base64 of its format)"


class TokenWrongGameError(TokenError):
    """A token of another game."""

    code = "token/wrong-game"
    title = "Token of another game"
    issue = "must be a token of this game"


class TokenUnknownKeyError(TokenError):
    """A token sealed (or a match started) with a key this server does not have."""

    code = "token/unknown-key"
    title = "Token of an unknown key"
    issue = "must be sealed with a key this server has"


class TokenInvalidError(TokenError):
    """The token does not authenticate: modified, truncated, or sealed by another key with the same id."""

    code = "token/invalid"
    title = "Invalid token"
    issue = "must be a token as the service sealed it, unchanged"


class SeatForbiddenError(SealError):
    """The seat key does not open this seat of this match (the answer is the same whatever is wrong)."""

    code = "seat/forbidden"
    title = "Forbidden"
    status = 403
    argument = "seat_key"


class HostForbiddenError(SealError):
    """The host key does not open this table."""

    code = "host/forbidden"
    title = "Not the host"
    status = 403
    argument = "host_key"


class NotYourSeatError(SealError):
    """A move naming another seat than the caller's."""

    code = "move/not-your-seat"
    title = "Not your seat"
    status = 403
    argument = "move"


class SealKeysError(ValueError):
    """``RULES_SEAL_KEYS`` is malformed (raised at startup with a one-line message)."""


# pybase64 rather than the standard library's base64: every sealed request encodes or decodes a token
# of about 2 KB, and base64.urlsafe_b64encode works through it with a byte loop and then a translate for
# the URL-safe alphabet, where pybase64 has a SIMD codec (bench/README.md, "Costs behind the sealed fast
# paths", has the measurements). Its b64encode_as_string writes the text straight into a str, with no
# bytes to decode; its padding is stripped rather than left out with padded=False, a keyword argument
# pybase64 parses on every call.
# Server keys may be written in either alphabet: they are spelled URL-safe before decoding (decoding
# "+" and "/" with the URL-safe alphabet's altchars is deprecated, and will be an error).
_STANDARD_TO_URL_SAFE = str.maketrans("+/", "-_")


def _b64url(data: bytes) -> str:
    return pybase64.b64encode_as_string(data, b"-_").rstrip("=")


@dataclass(frozen=True)
class ServerKey:
    """One configured key: its id and the two keys derived from it (sealing, seat keys)."""

    id: str
    secret: bytes = field(repr=False)

    @cached_property
    def aead(self) -> AESGCM:
        """The AES-256-GCM cipher of this key."""
        return AESGCM(hmac.new(self.secret, b"sevens-rules seal v1", hashlib.sha256).digest())

    @cached_property
    def seat_root(self) -> bytes:
        """The key seat keys are derived from."""
        return hmac.new(self.secret, b"sevens-rules seat v1", hashlib.sha256).digest()


@dataclass(frozen=True)
class Keyring:
    """The configured server keys: the first seals, all open."""

    keys: tuple[ServerKey, ...]

    @classmethod
    def parse(cls, text: str) -> Keyring | None:
        """Parse the ``RULES_SEAL_KEYS`` format; None when empty. Raises :class:`SealKeysError`."""
        entries = [entry.strip() for entry in text.split(",") if entry.strip()]
        if not entries:
            return None
        keys: list[ServerKey] = []
        for number, entry in enumerate(entries, 1):
            key_id, sep, encoded = entry.partition(":")
            if not sep or not KEY_ID.fullmatch(key_id):
                raise SealKeysError(
                    f"{ENV_VARIABLE}: entry {number} must be 'id:base64key' with an id of 1-32 characters "
                    "A-Z a-z 0-9 . _ -"
                )
            try:
                secret = url_safe_base64_decoded(encoded.strip().translate(_STANDARD_TO_URL_SAFE))
            except (binascii.Error, ValueError):
                raise SealKeysError(f"{ENV_VARIABLE}: key '{key_id}' is not base64") from None
            if len(secret) != KEY_BYTES:
                raise SealKeysError(
                    f"{ENV_VARIABLE}: key '{key_id}' must be {KEY_BYTES} bytes, not {len(secret)}"
                )
            if any(k.id == key_id for k in keys):
                raise SealKeysError(f"{ENV_VARIABLE}: key id '{key_id}' is listed twice")
            # one key under two ids: a rotation that meant to retire it would keep it
            same = next((k.id for k in keys if hmac.compare_digest(k.secret, secret)), None)
            if same is not None:
                raise SealKeysError(f"{ENV_VARIABLE}: key '{key_id}' is the key '{same}' again")
            keys.append(ServerKey(key_id, secret))
        return cls(tuple(keys))

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Keyring | None:
        """The keys of ``RULES_SEAL_KEYS``; None when unset or empty."""
        return cls.parse((os.environ if env is None else env).get(ENV_VARIABLE, ""))

    # cached properties rather than properties: every seal reads the current key and every seat-key check
    # finds a key by id, and a property would add a Python call to every sealed request

    @cached_property
    def current(self) -> ServerKey:
        """The key that seals new tokens."""
        return self.keys[0]

    @cached_property
    def by_id(self) -> dict[str, ServerKey]:
        """Every key by its id."""
        return {key.id: key for key in self.keys}

    def get(self, key_id: str) -> ServerKey:
        """The key with this id; :class:`TokenUnknownKeyError` when it is not configured."""
        key = self.by_id.get(key_id)
        if key is not None:
            return key
        raise TokenUnknownKeyError(
            "This token was sealed with a key this server does not have (another deployment, or a "
            "retired key).",
        )


class Sealed(NamedTuple):
    """What a token carries: the match id and version (in clear, authenticated), and sealed inside the
    id of the key seat keys derive from, the state's JSON and a log of recent events.

    The log is held as the payload writes it: ``log_events``, the events JSON of each logged version
    joined by newlines, oldest first, the last being ``version``'s (empty: no entry), with the number of
    entries, ``log_entries`` (not sealed: the newlines tell it). Sealing copies the log whole, and
    :meth:`followed_by` makes the next version's log by slicing the oldest entry off; :attr:`log` reads the
    entries back with their versions.
    """

    match_id: bytes
    version: int
    seat_key_id: str
    state_json: bytes
    log_events: bytes
    log_entries: int
    seat_salts: tuple[str, ...] = ()
    """Each seat's join salt (hex), which its seat key is derived with: a seat key opens only the match
    as that seat joined it, never a fork of the table where somebody else took the seat. ``-`` for a
    seat still open; empty in tokens made before seats joined (seat keys without a salt)."""
    host_salt: str | None = None
    """The salt of the host key while the match is a table waiting for its seats; None once dealt."""

    @property
    def is_table(self) -> bool:
        """A table whose seats are not all taken: no cards dealt yet."""
        return self.host_salt is not None

    @classmethod
    def of(
        cls, match_id: bytes, version: int, seat_key_id: str, state_json: bytes, log: Sequence[bytes]
    ) -> Sealed:
        """The contents whose log holds ``log``: the events JSON of the versions up to ``version``, oldest
        first (version 1: the first deal's events)."""
        return cls(match_id, version, seat_key_id, state_json, SEPARATOR.join(log), len(log))

    @property
    def log(self) -> tuple[tuple[int, bytes], ...]:
        """The log as ``(version, events JSON)`` pairs, oldest first."""
        if not self.log_events:
            return ()
        entries = self.log_events.split(SEPARATOR)
        first = self.version - len(entries) + 1
        return tuple(enumerate(entries, first))

    def followed_by(self, state_json: bytes, events: bytes, keep: int) -> Sealed:
        """The contents after a move: the next version, holding ``state_json``, with ``events`` (the move's
        events JSON) added to the log, which keeps its ``keep`` most recent entries."""
        # the entry count is carried rather than counted: every sealed apply would otherwise count the
        # newlines of a full log
        logged, entries = self.log_events, self.log_entries
        dropped = entries + 1 - keep
        if dropped <= 0:
            logged, entries = (logged + SEPARATOR + events if logged else events), entries + 1
        elif dropped >= entries:
            logged, entries = events, 1
        else:  # the oldest entries make room: they come first
            at = logged.index(SEPARATOR) + 1
            for _ in range(dropped - 1):  # none once the log is full: each move then drops one
                at = logged.index(SEPARATOR, at) + 1
            logged, entries = SEPARATOR.join((logged[at:], events)), keep
        return Sealed(
            self.match_id, self.version + 1, self.seat_key_id, state_json, logged, entries, self.seat_salts
        )


def seal(keyring: Keyring, game_id: str, sealed: Sealed) -> str:
    """The token of ``sealed``, sealed with the current key."""
    key = keyring.current
    header = _header_start(key.id, game_id) + sealed.match_id + _VERSION.pack(sealed.version)
    parts = (_key_line(sealed), sealed.state_json, sealed.log_events)
    plaintext = SEPARATOR.join(parts if sealed.log_events else parts[:2])
    nonce = os.urandom(NONCE_BYTES)
    return _b64url(header + nonce + key.aead.encrypt(nonce, plaintext, header))


_VERSION = struct.Struct(">I")
TABLE_MARK = "T"
"""The word of a key line that says the payload is a table waiting for seats (then the host salt)."""


def _key_line(sealed: Sealed) -> bytes:
    # the payload's first line: the key id, then (a table) the mark and the host salt, then each seat's
    # salt; space-separated words that key ids, hex and "-" never contain
    words = [sealed.seat_key_id]
    if sealed.host_salt is not None:
        words += [TABLE_MARK, sealed.host_salt]
    words += sealed.seat_salts
    return " ".join(words).encode()


@lru_cache(maxsize=256)
def _header_start(key_id: str, game_id: str) -> bytes:
    # the format, key id and game id: public values, the same for every token of a game and key
    kid, gid = key_id.encode(), game_id.encode()
    return bytes((FORMAT, len(kid))) + kid + bytes((len(gid),)) + gid


def open_token(keyring: Keyring, game_id: str, token: str) -> Sealed:
    """The contents of a token of ``game_id``, or a :class:`SealError` saying what is wrong with it.

    ``token`` may be any text: the request models check only its length (see ``schema/sealed.py``)."""
    if "+" in token or "/" in token:  # the standard alphabet's, which the decoder takes (with a warning)
        raise TokenMalformedError("The token is not URL-safe base64.")
    try:
        raw = url_safe_base64_decoded(token)
    except (binascii.Error, ValueError):
        raise TokenMalformedError("The token is not URL-safe base64.") from None
    if _b64url(raw) != token:  # one spelling per token: no ignored bits, no padding variants
        raise TokenMalformedError("The token is not in canonical URL-safe base64.")
    try:
        if raw[0] not in _OPENED_FORMATS:
            raise TokenMalformedError("The token's format is not one this service makes.")
        at = 1
        kid = raw[at + 1 : at + 1 + raw[at]].decode("ascii")
        at += 1 + raw[at]
        gid = raw[at + 1 : at + 1 + raw[at]].decode("ascii")
        at += 1 + raw[at]
        match_id = raw[at : at + MATCH_ID_BYTES]
        (version,) = struct.unpack_from(">I", raw, at + MATCH_ID_BYTES)
        at += MATCH_ID_BYTES + 4
    except (IndexError, UnicodeDecodeError, struct.error):
        raise TokenMalformedError("The token is truncated or malformed.") from None
    if len(raw) < at + NONCE_BYTES + TAG_BYTES or not KEY_ID.fullmatch(kid):
        raise TokenMalformedError("The token is truncated or malformed.")
    if gid != game_id:
        raise TokenWrongGameError(f"This token is not a token of {game_id}.")
    key = keyring.get(kid)
    try:
        plaintext = key.aead.decrypt(raw[at : at + NONCE_BYTES], raw[at + NONCE_BYTES :], raw[:at])
    except InvalidTag:
        raise TokenInvalidError("The token does not authenticate: it was modified or truncated.") from None
    # authenticated: the rest was written by seal() and cannot fail
    if raw[0] != FORMAT:
        sealed = _sized_payload(match_id, version, plaintext, raw[0] == COMPRESSED_FORMAT)
    else:
        key_line, state_json, *log = plaintext.split(SEPARATOR, 2)
        logged = log[0] if log else b""
        entries = logged.count(SEPARATOR) + 1 if logged else 0
        seat_key_id, *salts = key_line.decode("ascii").split(" ")
        host_salt = None
        if salts and salts[0] == TABLE_MARK:
            host_salt, salts = salts[1], salts[2:]
        sealed = Sealed(match_id, version, seat_key_id, state_json, logged, entries, tuple(salts), host_salt)
    if sealed.seat_key_id not in keyring.by_id:
        # a match lives under the key it began with (its seat keys derive from it): once that key is
        # removed the match has ended, for every operation alike, even if a later key sealed this token
        raise TokenUnknownKeyError(
            "This match began under a key this server no longer has (a retired key): it has ended."
        )
    return sealed


def _sized_payload(match_id: bytes, version: int, plaintext: bytes, compressed: bool) -> Sealed:
    # formats 3 and 2: seat-key key id (length byte, then ASCII), the state's JSON length (4 bytes) and
    # the number of log entries (2), each entry's version and length (4 + 4), the state's JSON, then each
    # entry's events JSON (the versions were the most recent ones, consecutive, as format 4 implies)
    payload = zlib.decompress(plaintext) if compressed else plaintext
    at = 1 + payload[0]
    state_length, entries = struct.unpack_from(">IH", payload, at)
    at += 6
    lengths = struct.unpack_from(f">{2 * entries}I", payload, at)[1::2]
    at += 8 * entries
    state_json = payload[at : at + state_length]
    at += state_length
    log = []
    for length in lengths:
        log.append(payload[at : at + length])
        at += length
    return Sealed.of(match_id, version, payload[1 : 1 + payload[0]].decode("ascii"), state_json, log)


def seat_key(keyring: Keyring, game_id: str, sealed: Sealed, seat: int) -> str:
    """The secret key of ``seat`` in the match of ``sealed`` (derived with the seat's join salt when the
    token has one)."""
    salt = sealed.seat_salts[seat] if seat < len(sealed.seat_salts) else ""
    return _seat_key(keyring.get(sealed.seat_key_id).seat_root, game_id, sealed.match_id, str(seat), salt)


def host_key(keyring: Keyring, game_id: str, sealed: Sealed) -> str:
    """The secret key of the host of a table (``sealed`` must be a table)."""
    assert sealed.host_salt is not None
    root = keyring.get(sealed.seat_key_id).seat_root
    return _seat_key(root, game_id, sealed.match_id, "host", sealed.host_salt)


@lru_cache(maxsize=4096)
def _seat_key(root: bytes, game_id: str, match_id: bytes, seat: str, salt: str) -> str:
    # A pure function of its arguments, remembered (bounded): every sealed request checks its seat's key,
    # and the seats of a match in play ask again and again.
    parts = [game_id.encode(), match_id.hex().encode(), seat.encode()]
    if salt:
        parts.append(salt.encode())
    return _b64url(hmac.digest(root, b"\0".join(parts), "sha256"))


def check_host_key(keyring: Keyring, game_id: str, sealed: Sealed, given: str) -> None:
    """Refuse a host key that is not this table's (compared in constant time)."""
    expected = host_key(keyring, game_id, sealed).encode()
    if not hmac.compare_digest(expected, given.encode("utf-8", "replace")):
        raise HostForbiddenError(
            "This host key does not open this table.", [IssueAt((), "not the host key of this table")]
        )


def new_salt() -> str:
    """A fresh random salt for a seat key or a host key (128 bits, hex)."""
    return os.urandom(16).hex()


def check_seat_key(keyring: Keyring, game_id: str, sealed: Sealed, seat: int, given: str) -> None:
    """Refuse a seat key that is not ``seat``'s key in this match (compared in constant time)."""
    expected = seat_key(keyring, game_id, sealed, seat).encode()
    if not hmac.compare_digest(expected, given.encode("utf-8", "replace")):
        raise SeatForbiddenError(
            "This seat key does not open this seat of this match.",
            [IssueAt((), "not the key of this seat in this match")],
        )


def new_match_id() -> bytes:
    """A fresh random match id."""
    return os.urandom(MATCH_ID_BYTES)


def seat_keys(keyring: Keyring, game_id: str, sealed: Sealed, players: int) -> list[str]:
    """Every seat's key, seat 0 first."""
    return [seat_key(keyring, game_id, sealed, seat) for seat in range(players)]


def match_id_text(match_id: bytes) -> str:
    """The match id as the API shows it (32 hex digits)."""
    return match_id.hex()
