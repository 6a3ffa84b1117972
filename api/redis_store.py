"""The match store on Redis (``redis.asyncio``), shared by every replica: a claim is one Lua script.

The store's contract (what a claim decides, the refusals, the limit) is :mod:`.match_store`'s; this module
holds its Redis form: a hash per match, and a sorted set of the matches held, which an open counts
against ``RULES_MATCH_LIMIT``. The ``redis`` package is imported only when a Redis store is set.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any
from urllib.parse import urlsplit

from .match_store import (
    CLAIM_TIMEOUT_SECONDS,
    CLAIMED,
    DEFAULT_IDLE_SECONDS,
    DEFAULT_MATCH_LIMIT,
    KEPT_SUCCESSORS,
    LOST_DETAIL,
    UNKNOWN_DETAIL,
    ClaimArguments,
    ClaimBatches,
    ClaimResult,
    Outcome,
    Replayed,
    StaleVersionError,
    StoreFullError,
    UnknownMatchError,
    unavailable,
)
from .sealing import SealError

# The scripts declare Redis 7's flags (the first line): Redis refuses the open script outright once its
# memory is past `maxmemory` (an OutOfMemoryError: the store is full), while the claim and current scripts
# run whatever the memory, so the matches already held go on. Without flags Redis would check only a
# script's first write, and the open script's first write frees memory: a flood of tables could fill
# Redis and then stop every claim.

# KEYS[1]: the set of the matches held, each scored by the time it is forgotten; KEYS[2]: the new match's
# hash. ARGV: now, idle seconds, limit, version, token, match id. Answers 1 opened, 0 full (the matches
# forgotten by now are dropped from the set first).
_OPEN_SCRIPT = """#!lua
local now = tonumber(ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then return 0 end
redis.call('HSET', KEYS[2], 'v', ARGV[4], 't', ARGV[5])
redis.call('EXPIRE', KEYS[2], ARGV[2])
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[6])
return 1
"""


def _latest_or_forgotten(match_id_argument: int) -> str:
    """The opening of the claim and current scripts: ``latest`` and ``version`` read, or {0} for a match
    not held, or {4} for a version newer than the latest, the match forgotten (its id in the argument at
    ``match_id_argument``)."""
    return (
        """#!lua flags=allow-oom
local latest = redis.call('HGET', KEYS[1], 'v')
if not latest then return {0} end
latest = tonumber(latest)
local version = tonumber(ARGV[1])
if latest < version then
  redis.call('DEL', KEYS[1])
  redis.call('ZREM', KEYS[2], ARGV["""
        + str(match_id_argument)
        + """])
  return {4}
end
"""
    )


# KEYS[1]: the match's hash, KEYS[2]: the set of the matches held. ARGV: version, digest, successor
# version, successor token, idle seconds, kept successors, now, match id. Fields: v (latest version),
# t (latest token), s<from version> (digest .. token: the digest is 32 hex digits). Answers {0}
# unknown, {1} claimed, {2, token} replayed, {3, version, token} stale, {4} lost (a token newer than the
# latest: the match is forgotten).
_CLAIM_SCRIPT = (
    _latest_or_forgotten(8)
    + """
if latest == version then
  redis.call('HSET', KEYS[1], 'v', ARGV[3], 't', ARGV[4], 's' .. ARGV[1], ARGV[2] .. ARGV[4])
  local old = {}
  for from = version - tonumber(ARGV[6]) - 8, version - tonumber(ARGV[6]) do
    table.insert(old, 's' .. from)
  end
  redis.call('HDEL', KEYS[1], unpack(old))
  redis.call('EXPIRE', KEYS[1], ARGV[5])
  redis.call('ZADD', KEYS[2], 'XX', tonumber(ARGV[7]) + tonumber(ARGV[5]), ARGV[8])
  return {1}
end
local kept = redis.call('HGET', KEYS[1], 's' .. ARGV[1])
if kept and string.sub(kept, 1, 32) == ARGV[2] then return {2, string.sub(kept, 33)} end
return {3, latest, redis.call('HGET', KEYS[1], 't')}
"""
)

# KEYS[1]: the match's hash, KEYS[2]: the set of the matches held. ARGV: version, match id. The claim
# script's answers without the claim: {1} the version is the latest, {0} unknown, {3, version, token}
# stale, {4} lost (the match is forgotten).
_CURRENT_SCRIPT = (
    _latest_or_forgotten(2)
    + """
if latest == version then return {1} end
return {3, latest, redis.call('HGET', KEYS[1], 't')}
"""
)


class RedisStore:
    """Redis (``redis.asyncio``), shared by every replica; a claim is one Lua script.

    A client is made per event loop on first use (a connection pool belongs to its loop). A pooled
    connection Redis closed (Redis restarted, a proxy or a firewall dropped it) fails on its next use: a
    call that fails to connect or loses its connection is sent once more on a fresh one (a claim sent
    again answers the successor it made), never after a timeout (Redis there, but slow: a second wait
    would double the client's)."""

    name = "redis"

    def __init__(
        self, url: str, idle_seconds: int = DEFAULT_IDLE_SECONDS, limit: int = DEFAULT_MATCH_LIMIT
    ) -> None:
        self.url = url
        self.idle_seconds = idle_seconds
        self.limit = limit
        self._clients: dict[int, tuple[Any, Any, Any]] = {}
        self._batches = ClaimBatches(self._settle)

    def _client(self) -> tuple[Any, Any, Any]:
        """The client of the running loop, its claim script and its open script."""
        loop = asyncio.get_running_loop()
        kept = self._clients.get(id(loop))
        if kept is None:
            import redis.asyncio
            import redis.backoff
            import redis.exceptions
            from redis.asyncio.retry import Retry

            client = redis.asyncio.Redis.from_url(
                self.url,
                socket_timeout=CLAIM_TIMEOUT_SECONDS,
                socket_connect_timeout=CLAIM_TIMEOUT_SECONDS,
                decode_responses=True,
                retry=Retry(
                    redis.backoff.NoBackoff(), 1, supported_errors=(redis.exceptions.ConnectionError,)
                ),
            )
            kept = (client, client.register_script(_CLAIM_SCRIPT), client.register_script(_OPEN_SCRIPT))
            self._clients = {id(loop): kept}  # one loop at a time (tests start several in turn)
        return kept

    def _key(self, match_id: bytes) -> str:
        return f"sevens-rules:match:{match_id.hex()}"

    _HELD = "sevens-rules:matches"
    """The sorted set of the matches held (their ids, each scored by when it is forgotten): counted
    against the limit when a table opens."""

    async def _call(self, work: Any) -> Any:
        import redis.exceptions

        try:
            return await work(*self._client())
        except (redis.exceptions.RedisError, OSError) as error:
            raise unavailable(f"Redis at {self.address()}: {error}") from None

    def address(self) -> str:
        """Where Redis is: the URL without its user name, password or query (it is logged)."""
        parts = urlsplit(self.url)
        port = f":{parts.port}" if parts.port else ""
        return f"{parts.scheme}://{parts.hostname or ''}{port}{parts.path}"

    async def open(self, match_id: bytes, version: int, token: str) -> None:
        keys = [self._HELD, self._key(match_id)]
        args = [int(time.time()), self.idle_seconds, self.limit, version, token, match_id.hex()]

        async def work(client: Any, claim: Any, open_script: Any) -> int:
            import redis.exceptions

            try:
                opened: int = await open_script(keys=keys, args=args)
            except redis.exceptions.OutOfMemoryError:  # full until idle matches expire
                raise StoreFullError("The referee's Redis is at its memory limit (maxmemory)") from None
            return opened

        if not await self._call(work):  # (a StoreFullError is no RedisError: _call lets it through)
            raise StoreFullError()

    async def claim(
        self, match_id: bytes, version: int, digest: bytes, successor_version: int, successor: str
    ) -> Outcome:
        return await self._batches.claim((match_id, version, digest, successor_version, successor))

    async def _settle(self, batch: list[ClaimArguments]) -> list[ClaimResult]:
        """Every claim of ``batch``, one script each, sent in one pipeline (one round trip); Redis runs
        them in order, each atomically."""

        now = int(time.time())

        async def work(client: Any, claim: Any, open_script: Any) -> list[Any]:
            async with client.pipeline(transaction=False) as pipe:
                for match_id, version, digest, successor_version, successor in batch:
                    args = [version, digest.hex(), successor_version, successor, self.idle_seconds]
                    args += [KEPT_SUCCESSORS, now, match_id.hex()]
                    await claim(keys=[self._key(match_id), self._HELD], args=args, client=pipe)
                answers: list[Any] = await pipe.execute()
                return answers

        return [_claim_result(answer) for answer in await self._call(work)]

    async def current(self, match_id: bytes, version: int) -> None:
        async def work(client: Any, claim: Any, open_script: Any) -> Any:
            script = client.register_script(_CURRENT_SCRIPT)  # asked only when a move is refused
            return await script(keys=[self._key(match_id), self._HELD], args=[version, match_id.hex()])

        refusal = _claim_result(await self._call(work))
        if refusal is not CLAIMED:
            assert isinstance(refusal, SealError)  # the script answers no replay
            raise refusal

    async def forget(self, match_id: bytes) -> None:
        async def work(client: Any, claim: Any, open_script: Any) -> None:
            async with client.pipeline(transaction=True) as pipe:
                pipe.delete(self._key(match_id))
                pipe.zrem(self._HELD, match_id.hex())
                await pipe.execute()

        await self._call(work)

    async def ping(self) -> None:
        async def work(client: Any, claim: Any, open_script: Any) -> None:
            await client.ping()

        await self._call(work)


def _claim_result(answer: Any) -> ClaimResult:
    """What the claim script's answer means (see :data:`_CLAIM_SCRIPT`)."""
    if answer[0] == 1:
        return CLAIMED
    if answer[0] == 2:
        return Replayed(answer[1])
    if answer[0] == 3:
        return StaleVersionError(int(answer[1]), answer[2])
    if answer[0] == 4:
        return UnknownMatchError(LOST_DETAIL)
    return UnknownMatchError(UNKNOWN_DETAIL)
