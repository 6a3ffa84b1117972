"""Fixed seeds for tests: small numbers written as the 64 hex digits a seed is."""

from __future__ import annotations

from collections.abc import Sequence

from sevens_rules.engine.dealing import Seeding


def seed_hex(number: int) -> str:
    """The seed whose 256 bits are ``number`` (a readable, fixed test seed; real seeds are random)."""
    return f"{number:064x}"


def seeding(number: int, entropy: Sequence[str] = ()) -> Seeding:
    """The seeding of the test seed ``number`` with the given entropy."""
    return Seeding(seed_hex(number), tuple(entropy))
