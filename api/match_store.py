"""The referee's memory: per sealed match, the latest version and the successor each recent version had.

A stateless referee cannot tell a token that was already played from one that was not, so a seat could
apply several moves to one token and keep the answer it liked (a fork), or go back to an older token (a
rollback). With a match store, every request that makes a successor (``join``, ``fill``, ``apply``)
*claims* its token's version: the first claim of a version wins and records the successor; the same
request again answers that successor (a retry is safe), anything else on a consumed or older version is
refused with ``409 match/stale`` naming the latest version and handing out its token (a token reveals
nothing, and a seat whose simultaneous choice went stale retries on it).

What a match holds: its latest version and token, and for each of its last :data:`KEPT_SUCCESSORS`
consumed versions the digest of the request that consumed it (16 bytes) and the successor's token; so
at most ``KEPT_SUCCESSORS + 1`` tokens a match (a mid-deal four-seat Sjuan token is about 1.8 KB; the
largest states seal to about 30 KB). A match left alone for the idle time (``RULES_MATCH_IDLE_SECONDS``)
is forgotten, and its tokens are then refused with ``410 match/unknown``, as are tokens of matches the
store never saw (another deployment, or a store that lost its data): nothing is applied unguarded. A
token newer than the latest version the store holds means the store lost the match's newest claims (a
backup restored, a Redis replica promoted before it had them): which branch is the match can no longer
be told, so the store forgets the match, and every token of it is refused the same way. A store holds
at most ``RULES_MATCH_LIMIT`` matches: a new table beyond it is refused with ``503 store/full`` (the
matches already open go on), so that whoever can reach sealed ``new`` cannot fill its disk or memory.

Three stores, chosen by ``RULES_MATCH_STORE``:

- ``embedded`` (the default): SQLite in ``RULES_DATA_DIR``; every worker process of one host opens the
  same file, and a claim is one ``BEGIN IMMEDIATE`` transaction, so the workers agree.
- ``redis://…`` or ``rediss://…``: Redis (``redis.asyncio``), for replicas on several hosts; a claim is
  one Lua script, atomic on the server (:mod:`.redis_store`).
- ``none``: no memory, today's stateless referee with its documented limits (forks and rollbacks are
  the relay's to refuse).

If the store cannot be reached, the requests that claim fail closed with ``503 store/unavailable`` and
``/readyz`` answers 503; the answer names nothing of the store (its address, its files): the cause goes
to the log. A claim whose answer was lost on the way back may have been recorded: a connection that
fails is tried once more on a fresh one (Redis), and the claim sent again answers the successor it made
(the same request's digest), so only a store that stays unreachable leaves the client not knowing.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from ..engine.errors import IssueAt
from .sealing import SealError

logger = logging.getLogger("sevens_rules")

KEPT_SUCCESSORS = 8
"""Consumed versions of a match whose successor is kept for retries (and whose request digest is kept)."""
DEFAULT_IDLE_SECONDS = 7 * 24 * 3600
"""How long a match nobody moves in is remembered: a week."""
DEFAULT_MATCH_LIMIT = 100_000
"""How many matches a store holds at once (``RULES_MATCH_LIMIT``): a new table beyond it is refused, so
that nobody who can reach sealed ``new`` fills the store's disk or memory (a table is about 9 KB)."""
DATABASE_FILE = "matches.sqlite3"
"""The embedded store's file in ``RULES_DATA_DIR``."""
CLAIM_TIMEOUT_SECONDS = 5.0
"""How long a claim may wait for the store (a lock held by another worker, a slow Redis) before the
request is refused with 503 ``store/unavailable``."""
SETUP_RETRY_SECONDS = 0.01
"""The pause before setting the database file up again while another process sets it up."""


class StoreUnavailableError(SealError):
    """The match store cannot be reached: nothing is applied unguarded."""

    code = "store/unavailable"
    title = "Match store unavailable"
    status = 503
    argument = ""


class StoreFullError(SealError):
    """The store holds as many matches as it may: a new table waits until older matches are forgotten."""

    code = "store/full"
    title = "Match store full"
    status = 503
    argument = ""

    def __init__(self, why: str = "The referee holds as many matches as it is set to") -> None:
        super().__init__(
            f"{why}: a new table can be opened once older matches are forgotten (those left alone for the "
            "idle time). Matches already open go on.",
            [IssueAt((), "no room for another match")],
        )


class StaleVersionError(SealError):
    """A different request on a consumed version, or a request on a token older than the latest."""

    code = "match/stale"
    title = "Stale version"
    status = 409
    argument = "token"

    def __init__(self, latest_version: int, latest_token: str) -> None:
        super().__init__(
            f"This token's version has been played; the match's latest version is {latest_version}. "
            "latest_token is its token: ask for the moves again on it.",
            [IssueAt((), f"a version that has been played; the latest is {latest_version}")],
        )
        self.problem_fields = {"latest_version": latest_version, "latest_token": latest_token}


class UnknownMatchError(SealError):
    """A token of a match this store does not remember."""

    code = "match/unknown"
    title = "Unknown match"
    status = 410
    argument = "token"

    def __init__(self, detail: str) -> None:
        super().__init__(detail, [IssueAt((), "a match the referee does not remember")])


UNKNOWN_DETAIL = (
    "The referee does not remember this match: it was left alone longer than the store keeps matches, "
    "or began on another deployment or before the store was set up."
)
LOST_DETAIL = (
    "The referee's store has lost this match's latest moves (this token is newer than any it holds), so "
    "which of its branches is the match cannot be told: the match is over for the referee."
)


UNAVAILABLE_DETAIL = (
    "The match store is unavailable. A request that claims a version may have been recorded before "
    "the store stopped answering: send the same request again once it answers."
)


def unavailable(cause: str) -> StoreUnavailableError:
    """The 503 of a store that cannot be reached, its ``cause`` (the store's address or file, the driver's
    words) logged for the operator and kept out of the answer."""
    logger.warning("match store unavailable: %s", cause)
    return StoreUnavailableError(UNAVAILABLE_DETAIL)


@dataclass(frozen=True)
class Claimed:
    """The claim won: the successor is now the match's latest."""


@dataclass(frozen=True)
class Replayed:
    """The same request consumed this version before: ``token`` is the successor it made."""

    token: str


CLAIMED = Claimed()
Outcome = Claimed | Replayed


class MatchStore(Protocol):
    """What the sealed operations need of a store (every method may raise
    :class:`StoreUnavailableError`)."""

    name: str

    def __hash__(self) -> int:
        """Stores are told apart by identity (the operation lists are cached per store)."""
        ...

    async def open(self, match_id: bytes, version: int, token: str) -> None:
        """Remember a new match (or table) at ``version`` with its token; raises :class:`StoreFullError`
        when the store holds its limit of matches (the idle ones forgotten first)."""

    async def claim(
        self, match_id: bytes, version: int, digest: bytes, successor_version: int, successor: str
    ) -> Outcome:
        """Consume ``version`` with the request of ``digest``, making ``successor`` (at
        ``successor_version``) the latest; raises :class:`StaleVersionError` or
        :class:`UnknownMatchError`."""

    async def current(self, match_id: bytes, version: int) -> None:
        """Return if ``version`` is the match's latest; else raise what a claim of it would raise, without
        claiming anything: :class:`StaleVersionError` for an older version, :class:`UnknownMatchError` for
        a match the store does not hold, or for a version newer than its latest (the store lost claims:
        it forgets the match, as a claim does). Asked when a move on a token is refused, so that whether
        the move is legal there does not change what a token the store has moved past, or forgotten, is
        answered."""

    async def forget(self, match_id: bytes) -> None:
        """Forget a match at once (every token of it is then :class:`UnknownMatchError`): the service's
        own tables that served nobody (the sealed examples of a document that could not be made)."""

    async def ping(self) -> None:
        """Raise :class:`StoreUnavailableError` unless the store answers."""


ClaimArguments = tuple[bytes, int, bytes, int, str]
"""A claim's match id, version, request digest, successor version and successor token."""
ClaimResult = Outcome | SealError
"""A claim's outcome, or the refusal (stale, unknown match, store unavailable) its request gets."""


class ClaimBatches:
    """Claims gathered while the event loop runs the other requests that are ready, then settled
    together: in one transaction (embedded) or one round trip (Redis).

    A worker answering many seats at once makes a claim per ``apply``; each settled alone pays a whole
    transaction (a write to SQLite's log) or a network round trip. The first claim of a turn of the loop
    schedules the settling after the requests already waiting to run, and every claim made until then
    joins it. Claims are settled in the order they were made, each exactly as it would be alone: the
    batch changes what a claim costs, not what it decides.
    """

    def __init__(self, settle: Any) -> None:
        self._settle = settle
        """Settles a list of claims: an awaitable of one :data:`ClaimResult` per claim, in order."""
        self._waiting: list[tuple[ClaimArguments, asyncio.Future[Outcome]]] = []
        self._settling: set[asyncio.Future[None]] = set()

    async def claim(self, arguments: ClaimArguments) -> Outcome:
        """The outcome of one claim, once its batch is settled."""
        loop = asyncio.get_running_loop()
        waiting: asyncio.Future[Outcome] = loop.create_future()
        if not self._waiting:
            loop.call_soon(self._start)
        self._waiting.append((arguments, waiting))
        return await waiting

    def _start(self) -> None:
        batch, self._waiting = self._waiting, []
        settling = asyncio.ensure_future(self._settled(batch))
        self._settling.add(settling)  # the loop keeps only a weak reference to a task
        settling.add_done_callback(self._settling.discard)

    async def _settled(self, batch: list[tuple[ClaimArguments, asyncio.Future[Outcome]]]) -> None:
        try:
            results: list[ClaimResult] = await self._settle([arguments for arguments, _ in batch])
        except StoreUnavailableError as error:
            results = [StoreUnavailableError(error.detail) for _ in batch]
        except Exception:  # a bug: logged; each request of the batch is refused, nothing is applied
            logger.exception("settling %d claims failed", len(batch))
            results = [StoreUnavailableError("The match store failed.") for _ in batch]
        for (_, waiting), result in zip(batch, results, strict=True):
            if waiting.done():  # the request went away (its client left)
                continue
            if isinstance(result, SealError):
                waiting.set_exception(result)
            else:
                waiting.set_result(result)


_SCHEMA = """
CREATE TABLE IF NOT EXISTS matches (
    match_id BLOB PRIMARY KEY, version INTEGER NOT NULL, token TEXT NOT NULL, touched INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS matches_touched ON matches (touched);
CREATE TABLE IF NOT EXISTS successors (
    match_id BLOB NOT NULL, from_version INTEGER NOT NULL, digest BLOB NOT NULL, token TEXT NOT NULL,
    PRIMARY KEY (match_id, from_version)
);
"""


class EmbeddedStore:
    """SQLite in a data directory, shared by the worker processes of one host (WAL journal).

    Each process opens its own connection on first use (a connection does not survive a fork); a claim
    is one ``BEGIN IMMEDIATE`` transaction, which SQLite serialises across processes. Calls are quick
    local writes, made in a worker thread so that a lock held elsewhere (up to
    :data:`CLAIM_TIMEOUT_SECONDS`, then a 503) or the idle matches' deletion never holds up the event
    loop's other requests.
    """

    name = "embedded"

    def __init__(
        self, directory: Path, idle_seconds: int = DEFAULT_IDLE_SECONDS, limit: int = DEFAULT_MATCH_LIMIT
    ) -> None:
        self.path = directory / DATABASE_FILE
        self.idle_seconds = idle_seconds
        self.limit = limit
        self._connection: sqlite3.Connection | None = None
        self._pid = 0
        self._lock = threading.Lock()
        self._batches = ClaimBatches(self._settle)

    def _connect(self) -> sqlite3.Connection:
        if self._connection is not None and self._pid == os.getpid():
            return self._connection
        deadline = time.monotonic() + CLAIM_TIMEOUT_SECONDS
        while True:
            try:
                connection = self._set_up()
                break
            except sqlite3.OperationalError as error:
                # Workers starting together on a new file set it up at once, and switching it to WAL
                # needs a lock SQLite does not wait for (its busy handler is not asked then): one of
                # them is told "database is locked" (measured: 1 start in 60 of four processes on a
                # fresh directory). The setup is the same for all, so the others try again shortly.
                if "locked" not in str(error) or time.monotonic() >= deadline:
                    raise unavailable(f"{self.path} cannot be opened: {error}") from None
                time.sleep(SETUP_RETRY_SECONDS)
            except (sqlite3.Error, OSError) as error:
                raise unavailable(f"{self.path} cannot be opened: {error}") from None
        self._connection, self._pid = connection, os.getpid()
        return connection

    def _set_up(self) -> sqlite3.Connection:
        """A connection to the database file, made and set up (WAL, the tables) if it is new."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        connection = sqlite3.connect(
            self.path, timeout=CLAIM_TIMEOUT_SECONDS, isolation_level=None, check_same_thread=False
        )
        try:
            connection.execute("PRAGMA journal_mode=WAL")
            connection.execute("PRAGMA synchronous=NORMAL")
            connection.executescript(_SCHEMA)
        except BaseException:
            connection.close()
            raise
        return connection

    async def _run(self, work: Any) -> Any:
        """``work(db)`` in one transaction, in a worker thread; a 503 once :data:`CLAIM_TIMEOUT_SECONDS`
        have passed since this call, however long it waited for a thread, for this process's connection
        or for SQLite's lock (each call waiting its own full time after the one before it, waits piled
        up: five requests behind a lock another process held were answered after 5, 10, ... 25 s)."""
        deadline = time.monotonic() + CLAIM_TIMEOUT_SECONDS
        return await asyncio.to_thread(self._transaction, work, deadline)

    def _transaction(self, work: Any, deadline: float) -> Any:
        if not self._lock.acquire(timeout=max(deadline - time.monotonic(), 0.0)):
            raise unavailable(f"{self.path}: this worker's earlier calls held the store past the deadline")
        try:
            db = self._connect()
            waiting = deadline - time.monotonic()
            if waiting <= 0:
                raise unavailable(f"{self.path}: no time left to wait for the database lock")
            db.execute(f"PRAGMA busy_timeout = {max(int(waiting * 1000), 1)}")
            db.execute("BEGIN IMMEDIATE")
            try:
                result = work(db)
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")
            return result
        except sqlite3.Error as error:
            self._connection = None  # opened afresh next time (the file may have gone)
            raise unavailable(f"{self.path}: {error}") from None
        finally:
            self._lock.release()

    async def open(self, match_id: bytes, version: int, token: str) -> None:
        now = int(time.time())

        def work(db: sqlite3.Connection) -> None:
            # the idle matches go as new ones come (the index makes the usual nothing-to-do cheap)
            expired = db.execute("SELECT match_id FROM matches WHERE touched < ?", (now - self.idle_seconds,))
            gone = [(row[0],) for row in expired.fetchall()]
            if gone:
                db.executemany("DELETE FROM matches WHERE match_id = ?", gone)
                db.executemany("DELETE FROM successors WHERE match_id = ?", gone)
            # (counted along the smallest index: a fraction of a millisecond at the default limit)
            if db.execute("SELECT COUNT(*) FROM matches").fetchone()[0] >= self.limit:
                raise StoreFullError()
            db.execute("INSERT INTO matches VALUES (?, ?, ?, ?)", (match_id, version, token, now))

        await self._run(work)

    async def claim(
        self, match_id: bytes, version: int, digest: bytes, successor_version: int, successor: str
    ) -> Outcome:
        return await self._batches.claim((match_id, version, digest, successor_version, successor))

    async def _settle(self, batch: list[ClaimArguments]) -> list[ClaimResult]:
        """Every claim of ``batch`` in order, in one transaction."""
        now = int(time.time())

        def work(db: sqlite3.Connection) -> list[ClaimResult]:
            results: list[ClaimResult] = []
            for arguments in batch:
                try:
                    results.append(self._claim_in(db, now, *arguments))
                except (StaleVersionError, UnknownMatchError) as refused:
                    results.append(refused)
            return results

        # in a worker thread: SQLite writes the batch to its log, and now and then copies the log into
        # the database and syncs the file, while the event loop answers other requests
        results: list[ClaimResult] = await self._run(work)
        return results

    def _claim_in(
        self,
        db: sqlite3.Connection,
        now: int,
        match_id: bytes,
        version: int,
        digest: bytes,
        successor_version: int,
        successor: str,
    ) -> Outcome:
        latest, latest_token = self._latest_in(db, now, match_id, version)
        if latest == version:
            db.execute(
                "UPDATE matches SET version = ?, token = ?, touched = ? WHERE match_id = ?",
                (successor_version, successor, now, match_id),
            )
            db.execute(
                "INSERT OR REPLACE INTO successors VALUES (?, ?, ?, ?)",
                (match_id, version, digest, successor),
            )
            db.execute(
                "DELETE FROM successors WHERE match_id = ? AND from_version <= ?",
                (match_id, version - KEPT_SUCCESSORS),
            )
            return CLAIMED
        kept = db.execute(
            "SELECT digest, token FROM successors WHERE match_id = ? AND from_version = ?",
            (match_id, version),
        ).fetchone()
        if kept is not None and kept[0] == digest:
            return Replayed(kept[1])
        raise StaleVersionError(latest, latest_token)

    async def current(self, match_id: bytes, version: int) -> None:
        now = int(time.time())

        def work(db: sqlite3.Connection) -> SealError | None:
            # the refusal is returned, not raised, so that a lost match's deletion is committed
            try:
                latest, latest_token = self._latest_in(db, now, match_id, version)
            except UnknownMatchError as unknown:
                return unknown
            return StaleVersionError(latest, latest_token) if latest > version else None

        refusal: SealError | None = await self._run(work)
        if refusal is not None:
            raise refusal

    async def forget(self, match_id: bytes) -> None:
        await self._run(lambda db: _forget_in(db, match_id))

    def _latest_in(self, db: sqlite3.Connection, now: int, match_id: bytes, version: int) -> tuple[int, str]:
        """The match's latest version and token, for a token at ``version``; :class:`UnknownMatchError`
        for a match not held, or one whose latest is older than ``version`` (then forgotten)."""
        row = db.execute(
            "SELECT version, token, touched FROM matches WHERE match_id = ?", (match_id,)
        ).fetchone()
        if row is None or row[2] < now - self.idle_seconds:
            raise UnknownMatchError(UNKNOWN_DETAIL)
        latest, latest_token, _ = row
        if latest < version:  # the store lost the match's newest claims (see the module's docstring)
            _forget_in(db, match_id)
            raise UnknownMatchError(LOST_DETAIL)
        return latest, latest_token

    async def ping(self) -> None:
        await self._run(lambda db: db.execute("SELECT 1").fetchone())


def _forget_in(db: sqlite3.Connection, match_id: bytes) -> None:
    """Delete a match and its successors (in the transaction of ``db``)."""
    db.execute("DELETE FROM matches WHERE match_id = ?", (match_id,))
    db.execute("DELETE FROM successors WHERE match_id = ?", (match_id,))
