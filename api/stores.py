"""The match store ``RULES_MATCH_STORE`` names: the embedded SQLite store, a Redis store, or none
(:mod:`.match_store` describes them; :mod:`.redis_store` is Redis's)."""

from __future__ import annotations

from pathlib import Path

from .match_store import DEFAULT_MATCH_LIMIT, EmbeddedStore, MatchStore
from .redis_store import RedisStore


class StoreSettingError(ValueError):
    """``RULES_MATCH_STORE`` names no store (raised at startup with a one-line message)."""


def store_description(store: MatchStore | None) -> str:
    """What the start-up line says of ``store`` (as :func:`store_from_setting` made it): a Redis URL
    without its user name, password or query (the line is logged)."""
    if store is None:
        return "none: sealed tokens are not remembered (a token can be applied more than once)"
    if isinstance(store, EmbeddedStore):
        return f"embedded: SQLite file {store.path}"
    assert isinstance(store, RedisStore)  # (the three stores a setting names)
    return f"redis: {store.address()}"


def store_from_setting(
    setting: str, data_dir: str, idle_seconds: int, limit: int = DEFAULT_MATCH_LIMIT
) -> MatchStore | None:
    """The store ``RULES_MATCH_STORE`` names: ``embedded`` (or empty), ``none`` (None), or a Redis URL;
    ``idle_seconds`` and ``limit`` as ``RULES_MATCH_IDLE_SECONDS`` and ``RULES_MATCH_LIMIT`` set them."""
    value = setting.strip()
    if value in ("", "embedded"):
        return EmbeddedStore(Path(data_dir or "data"), idle_seconds, limit)
    if value == "none":
        return None
    if value.startswith(("redis://", "rediss://", "unix://")):
        return RedisStore(value, idle_seconds, limit)
    raise StoreSettingError(
        f"RULES_MATCH_STORE={setting!r} is not accepted: it must be 'embedded', 'none' "
        "or a redis://, rediss:// or unix:// URL"
    )
