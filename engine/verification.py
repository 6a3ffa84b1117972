"""Checking a finished match's dealing: recompute any deal from the revealed seed.

After the match the seed is revealed (in ``score`` and every view). :func:`verify_deal` recomputes the
commitment and one deal from the seed, the players' entropy and the match parameters, so a player can
check that the commitment they saw before the first deal belongs to the seed and that the hands they were
dealt are the ones the seed and their own entropy produce.
"""

from __future__ import annotations

import hmac
from collections.abc import Sequence
from typing import Any

from sevens_rules.engine.dealing import DEAL, Seeding
from sevens_rules.engine.errors import InvalidRequestError, IssueAt
from sevens_rules.engine.game import Game
from sevens_rules.engine.registry import GAMES
from sevens_rules.schema.common import WireModel
from sevens_rules.schema.dealing import DealVerification


def verify_deal(
    game: Game[Any, Any, Any, Any, Any, Any] | str,
    players: int,
    seed: str,
    commitment: str,
    entropy: Sequence[str] = (),
    deal_number: int = 1,
    dealer: int | None = None,
    options: WireModel | None = None,
) -> DealVerification:
    """Recompute deal ``deal_number`` of a match of ``game`` (an instance or a game id).

    ``dealer`` is the deal's dealer; it may be omitted for the first deal only, which then follows the
    game's rule exactly as ``new`` does (the Seven-Up family cuts). ``options`` default to the game's.
    """
    rules = GAMES[game] if isinstance(game, str) else game
    if dealer is None and deal_number != 1:
        raise InvalidRequestError(
            f"Name the dealer of deal {deal_number}: only the first deal's dealer follows from the seed.",
            [IssueAt((), "required for a deal after the first")],
            argument="dealer",
        )
    seeding = Seeding(seed, tuple(entropy))
    deck = seeding.shuffled(rules.deck, rules.id, deal_number, DEAL)
    # The first deal goes through ``new`` exactly as the match did (shuffle and cut included); a later
    # deal is dealt from its recomputed deck by the same code, with its dealer.
    state = rules.new(
        players,
        options if options is not None else rules.models.options(),
        seeding,
        None if deal_number == 1 else deck,
        dealer,
    )
    return DealVerification(
        commitment_matches=hmac.compare_digest(seeding.commitment, commitment),
        commitment=seeding.commitment,
        deal_number=deal_number,
        dealer=state.dealer,
        deck=deck,
        hands=state.hands,
    )
