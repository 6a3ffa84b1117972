"""Checking a finished match's dealing: recompute any deal from the revealed seed.

After the match the seed is revealed (in ``score`` and every view). :func:`verify_deal` recomputes the
commitment and one deal from the seed, the players' entropy and the match parameters, so a player can
check that the commitment they saw before the first deal belongs to the seed and that the hands they were
dealt are the ones the seed and their own entropy produce.
"""

from __future__ import annotations

import hmac
from collections import Counter
from collections.abc import Sequence
from typing import Any

from ..schema.common import WireModel
from ..schema.dealing import DealVerification
from .dealing import DEAL, Seeding
from .errors import InvalidRequestError, IssueAt, RulesError
from .game import Game
from .registry import GAMES


class EntropyNotAgreedError(RulesError):
    """The entropy a match shows is not exactly the list its players agreed on."""

    code = "entropy/not-agreed"
    title = "Entropy not agreed"
    argument = "entropy"


def check_agreed_entropy(entropy: Sequence[str], agreed: Sequence[str]) -> None:
    """Refuse ``entropy`` unless it is exactly ``agreed``: every string that is not agreed (a seed
    holder's own, which it could choose until a deal suited it), every agreed string that is missing, and
    the order (the strings are mixed in order) are named."""
    if list(entropy) == list(agreed):
        return
    issues: list[IssueAt] = []
    unmatched = Counter(agreed)  # each agreed string matches one shown string, duplicates counted
    shown_in_order: list[str] = []  # the shown strings that are agreed ones, as shown
    for index, text in enumerate(entropy):
        if unmatched[text]:
            unmatched[text] -= 1
            shown_in_order.append(text)
        elif text in unmatched:
            issues.append(IssueAt((index,), "more times than in the agreed list: an extra string"))
        else:
            issues.append(IssueAt((index,), "not in the agreed list: an extra string"))
    unshown = Counter(entropy)
    agreed_in_order: list[str] = []  # the agreed strings that are shown, as agreed
    for index, text in enumerate(agreed):
        if unshown[text]:
            unshown[text] -= 1
            agreed_in_order.append(text)
        else:
            issues.append(IssueAt((), f"the agreed string at index {index} is missing"))
    if shown_in_order != agreed_in_order:  # beside any extra or missing string
        issues.append(IssueAt((), "the agreed strings in another order (they are mixed in order)"))
    raise EntropyNotAgreedError(
        "The entropy is not exactly the list the players agreed on: this deal cannot be trusted.", issues
    )


def verify_deal(
    game: Game[Any, Any, Any, Any, Any, Any] | str,
    players: int,
    seed: str,
    commitment: str,
    entropy: Sequence[str] = (),
    deal_number: int = 1,
    dealer: int | None = None,
    options: WireModel | None = None,
    agreed_entropy: Sequence[str] | None = None,
) -> DealVerification:
    """Recompute deal ``deal_number`` of a match of ``game`` (an instance or a game id).

    ``dealer`` is the deal's dealer; it may be omitted for the first deal only, which then follows the
    game's rule exactly as ``new`` does (the Seven-Up family cuts). ``options`` default to the game's.
    With ``agreed_entropy``, ``entropy`` must be exactly that list (:func:`check_agreed_entropy`).
    """
    if agreed_entropy is not None:
        check_agreed_entropy(entropy, agreed_entropy)
    rules = GAMES[game] if isinstance(game, str) else game
    if options is None:
        options = rules.models.options()
    rules.check_players(players)
    last = rules.last_deal_number(options, players)
    if deal_number > last:
        raise InvalidRequestError(
            f"A match of {rules.name} with these options has at most {last} deals: deal {deal_number} is "
            "never dealt.",
            [IssueAt((), f"must be at most {last}")],
            argument="deal_number",
        )
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
        options,
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
