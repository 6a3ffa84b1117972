"""Wire models of provably fair dealing: a fresh seed with its commitment, and a recomputed deal.

The per-game ``verify`` request is built in :mod:`schema.operations` (it carries the game's options).
"""

from __future__ import annotations

from pydantic import Field

from .common import WireModel
from .scalars import Card, CardList, Commitment, Ordinal, Seat, Seed


class SeedRequest(WireModel):
    """Ask for a fresh seed (the body is an empty object)."""


class FreshSeed(WireModel):
    """A new secret seed from the service's CSPRNG and its public commitment.

    Publish the commitment to the players, collect their entropy, then deal with ``new`` (seed and
    entropy); keep the seed secret until the match is over.
    """

    seed: Seed
    commitment: Commitment


class DealVerification(WireModel):
    """One deal recomputed from a revealed seed, for comparison with the hands that were dealt."""

    commitment_matches: bool = Field(description="Whether the given commitment is the seed's commitment.")
    commitment: Commitment = Field(description="The commitment computed from the given seed.")
    deal_number: Ordinal = Field(description="The deal recomputed (1 for the first).")
    dealer: Seat = Field(
        description="The deal's dealer (for the first deal without a dealer: the game's rule)."
    )
    deck: list[Card] = Field(max_length=52, description="The deal's shuffled deck, top card first.")
    hands: list[CardList] = Field(
        max_length=8,
        description="Each seat's hand as the deal's first state holds it (as the view showed it).",
    )
