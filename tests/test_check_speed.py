"""The shortcuts the consistency checks take for speed give the answers of the slow ways they replace.

Every posted plain state is checked on every request, so the checks answer the common, consistent case
first; these tests compare each shortcut with a direct statement of the rule over random inputs.
"""

from __future__ import annotations

import random
from collections import Counter

from sevens_rules.engine.cards import FULL_DECK, PIQUET_DECK, RANKS, SUITS
from sevens_rules.engine.game import conservation_issues, holds_deck_once
from sevens_rules.engine.models import updated
from sevens_rules.engine.registry import GAMES
from sevens_rules.engine.sjuan import SjuanFamily
from tests.playout import playout

SEVEN = RANKS.index("7")


def _is_one_row_through_seven(ranks: list[int]) -> bool:
    # the rule as RULINGS §1 states it: a suit's cards on the table are one unbroken row through its 7
    return SEVEN in ranks and max(ranks) - min(ranks) + 1 == len(ranks)


def test_table_rows_are_checked_as_unbroken_runs_through_the_seven() -> None:
    game = GAMES["fan-tan"]
    assert isinstance(game, SjuanFamily)
    rng = random.Random(7)
    state, _ = next(playout(game, 4, seed=3))
    broken = 0
    for _ in range(3000):
        table = []
        for suit in SUITS:  # per suit: nothing, a row through the 7, or any cards at all
            kind = rng.randrange(3)
            if kind == 1:
                low, high = rng.randint(0, SEVEN), rng.randint(SEVEN, len(RANKS) - 1)
                table += [RANKS[rank] + suit for rank in range(low, high + 1)]
            elif kind == 2:
                table += [rank + suit for rank in RANKS if rng.random() < 0.5]
        rng.shuffle(table)
        found = {issue.message[4] for issue in game.table_issues(updated(state, table=table))}
        expected = {
            s
            for s in SUITS
            if (ranks := [RANKS.index(c[0]) for c in table if c[1] == s])
            and not _is_one_row_through_seven(ranks)
        }
        assert found == expected, table
        broken += bool(expected)
    assert 0 < broken < 3000  # both kinds of table were tried


def test_holding_the_deck_once_is_what_the_full_conservation_check_accepts() -> None:
    rng = random.Random(11)
    for deck in (FULL_DECK, PIQUET_DECK):
        for trial in range(2000):
            cards = list(deck)
            rng.shuffle(cards)
            kind = trial % 5
            if kind == 1:
                cards[rng.randrange(len(cards))] = rng.choice(cards)  # a card twice, one missing
            elif kind == 2:
                cards.pop(rng.randrange(len(cards)))
            elif kind == 3:
                cards.append(rng.choice(FULL_DECK))  # one card too many (maybe not of this deck)
            elif kind == 4 and deck is PIQUET_DECK:
                cards[0] = "2C"  # not in the 32-card deck
            cuts = sorted(rng.sample(range(len(cards) + 1), 3))
            lists = [cards[: cuts[0]], cards[cuts[0] : cuts[1]], cards[cuts[1] : cuts[2]], cards[cuts[2] :]]
            exact = Counter(cards) == Counter(deck)
            assert holds_deck_once(lists, deck) == exact
            located = [(("pile", i), cards_) for i, cards_ in enumerate(lists)]
            assert (conservation_issues(located, deck) == []) == exact
