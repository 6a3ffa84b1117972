"""Full states consistent with one seat's information, drawn uniformly: the sampler bots search over.

A seat sees its view (``Game.view``): its own hand, the public cards, every hand's and pile's size. The
cards it does not see lie in *hidden piles* (the other hands, a face-down stock, face-down discards...).
A consistent state puts exactly those cards back into those piles, each pile keeping its size, under
what the rules let the seat infer from what the state keeps:

- trick games with a following rule (the Seven-Up family): a seat that did not follow the led suit in
  a trick of this deal (nor trumped, where trumping instead of following is allowed) holds none of that
  suit, as no card returns to a hand while a deal is played (California Jack's hands draw after every
  trick while the stock lasts: the tricks since the last draw), the game's ``voids_shown``, which its
  checks hold a posted state to too; in California Jack a trick's winner took the stock's face-up card,
  of the trick's trump suit, so it holds one of that suit or played one since (the checks'
  ``drawn_card_issues``: a drawn state that breaks it is drawn again);
- Sedmice: each side's face-down won cards hold as many aces and tens as its public points say;
- the Sjuan family before the first card: where 7H is, from the seat to open (Sjuan, Domino fan tan);
  in Fan Tan, a seat the turn has passed holds no 7; in Domino fan tan, once a seat has drawn, 7H was
  in the stock, a seat that drew holds no 7 but one it has just drawn (and must play), and a seat yet
  to move holds no 7H; once the first card is down, a Domino fan tan seat holding more cards than it was
  dealt, not to act, has drawn and holds no 7, and a seat whose chips count a pass holds no card that
  was playable at every turn since (the other 7s and the first card's neighbours; in free fan tan the
  start rank's cards and the card above the first), or, where its one pass may have come before the
  first card (Fan Tan), no 7;
- My Ship Sails, once a deal is won (between deals, or the match over): each winner declared, so its
  hand is seven cards of one suit.

Which states are drawn depends only on the seat's view and the seed: the hidden cards are taken in the
game's canonical order and the piles in a fixed order, so two states that differ only in hidden cards
give the same samples. The draw is uniform over the consistent assignments of cards to piles, made
exactly by :class:`~.allocation.ConstrainedDeal` (the game's rules decide only which piles a card may
go to). A pile whose order is hidden too (a stock) is shuffled; hands
and discards are kept in the game's canonical order, as the engine keeps them.

A sampled state also gets a fresh seed (and its commitment): the real seed fixes every hidden card.
For the same reason a Seven-Up family state's ``cut`` for the first dealer (drawn from the real seed) is
left empty, as in a match whose first dealer was named.
"""

from __future__ import annotations

import hashlib
import random
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import cache
from itertools import permutations
from typing import Any

from ...schema.my_ship_sails import MyShipSailsChoiceType
from ..card_sets import ALL_CARDS, card_names, card_set
from ..cards import SUITS
from ..dealing import commitment
from ..errors import InconsistentStateError, IssueAt, MatchOverError
from ..models import updated
from ..my_ship_sails_wire import seat_moves
from ..sjuan_position import SEVENS
from .allocation import ConstrainedDeal, weighted_index
from .position import AnyGame


@dataclass(frozen=True)
class Pile:
    """A place holding cards the seat cannot see."""

    field: str
    """The state's field."""
    index: int | None
    """The entry of a per-seat or per-side list; None when the field is the pile itself."""
    size: int
    """Cards hidden in it."""
    ordered: bool
    """Whether the order of its cards is hidden too (a stock: drawn in order)."""
    allowed: Callable[[str], bool] | None = None
    """Which hidden cards it may hold (None: any)."""
    first: int = 0
    """Cards before this position are seen (California Jack's face-up stock card) and stay."""


def rng_for(seed: str | None) -> random.Random:
    """A generator for a client's seed (reproducible), or seeded from the OS's CSPRNG when None."""
    if seed is None:
        return random.Random(secrets.token_bytes(32))
    return random.Random(hashlib.sha256(b"sevens-rules/bots\x00" + seed.encode()).digest())


def hidden_piles(game: AnyGame, state: Any, seat: int) -> list[Pile]:
    """The piles of ``state`` that ``seat`` cannot see, in a fixed order (hands by seat first)."""
    family = _FAMILY.get(game.id)
    if family is None:
        raise KeyError(f"no sampler layout for {game.id}")
    return family(game, state, seat)


def _other_hands(state: Any, seat: int, allowed: Sequence[Callable[[str], bool] | None] = ()) -> list[Pile]:
    return [
        Pile("hands", other, len(hand), False, allowed[other] if allowed else None)
        for other, hand in enumerate(state.hands)
        if other != seat
    ]


def _sjuan_piles(game: AnyGame, state: Any, seat: int) -> list[Pile]:
    # Before the first card, the seat to open says where 7H is (RULINGS 1): Sjuan's opener holds it; in
    # Domino fan tan the opener holds it unless the opener is left of the dealer, who opens when 7H is in
    # the stock. In Fan Tan, the seats the turn has passed before the first card held no 7 (the game's
    # opening_passes). Once it is down, the chips count each seat's passes though not when they came: a
    # seat that passed holds none of the cards the game's cards_passes_rule_out names.
    n = len(state.hands)
    domino = game.id == "domino-fan-tan"
    opener = state.turn if not state.table and state.phase == "play" else None
    if opener is not None and not domino:
        passed, opening = game.opening_passes(state)  # type: ignore[attr-defined]  # (the Sjuan family's)
        if passed:
            cannot_open = _without_cards(frozenset(card_names(opening)))
            return [
                Pile("hands", other, len(hand), False, cannot_open if other in passed else None)
                for other, hand in enumerate(state.hands)
                if other != seat
            ]
    if domino and any(len(hand) != state.options.hand_size for hand in state.hands):
        opener = None  # someone drew before the first card: the turn has moved on from the opener
    places_of_7h: set[tuple[str, int | None]] | None = None
    if opener is not None and game.id in ("sjuan", "domino-fan-tan"):
        places_of_7h = {("hands", opener)}
        if domino and opener == (state.dealer + 1) % n:
            places_of_7h.add(("stock", None))
    ruled_out = _ruled_out_by_passes(game, state, seat)
    piles = [
        Pile(
            "hands", other, len(hand), False, ruled_out[other] or _opening_rule(places_of_7h, "hands", other)
        )
        for other, hand in enumerate(state.hands)
        if other != seat
    ]
    if domino:
        piles.append(Pile("stock", None, len(state.stock), True, _opening_rule(places_of_7h, "stock", None)))
    return piles


def _ruled_out_by_passes(game: AnyGame, state: Any, seat: int) -> list[Callable[[str], bool] | None]:
    """Per seat, which cards it may hold for the passes it paid for (None: any; every seat before the
    first card and between deals). A position set up by hand may have dealt other short hands than the
    rules deal, so that a short hand's chip reads as a pass: when no arrangement of the hidden cards then
    fits, the passes are read as any seat's chip may be a short hand's (what the checks hold every state
    to, so the real cards fit it)."""
    n = len(state.hands)
    hidden = ALL_CARDS & ~card_set(state.hands[seat]) & ~card_set(state.table)
    others = [other for other in range(n) if other != seat]
    room = sum(len(state.hands[other]) for other in others) + len(getattr(state, "stock", ()))
    readings = (game.cards_passes_rule_out, game.cards_passes_surely_rule_out)  # type: ignore[attr-defined]
    for reading in readings:
        ruled_out = reading(state)
        # The rules are nested (a pass before the first card rules out part of what a later one does), so
        # Hall's condition is one count per rule: the hidden cards it names fit in the piles not barred
        # from all of them (every pile but the hands of the seats whose rule takes in this one).
        if all(
            (hidden & rule).bit_count()
            <= room - sum(len(state.hands[o]) for o in others if rule & ~ruled_out[o] == 0)
            for rule in {ruled_out[other] for other in others} - {0}
        ):
            return [_without_cards(frozenset(card_names(rule))) if rule else None for rule in ruled_out]
    return [None] * n


def _opening_rule(
    places_of_7h: set[tuple[str, int | None]] | None, field: str, index: int | None
) -> Callable[[str], bool] | None:
    if places_of_7h is None or (field, index) in places_of_7h:
        return None
    return _not_7h


def _not_7h(card: str) -> bool:
    return card != "7H"


def _sevens_piles(game: AnyGame, state: Any, seat: int) -> list[Pile]:
    # Sevens lets a seat pass holding a playable card (its first three passes): a pass says nothing.
    return _other_hands(state, seat)


def _seven_up_piles(game: AnyGame, state: Any, seat: int) -> list[Pile]:
    hidden_own = game.hand_hidden(state, seat)  # type: ignore[attr-defined]
    rolling_stock = game.id == "california-jack"
    voids = game.voids_shown(state)  # type: ignore[attr-defined]  # (the Seven-Up family's)
    allowed = [_without_suits(void) if void else None for void in voids]
    piles = [
        Pile("hands", other, len(hand), False, allowed[other])
        for other, hand in enumerate(state.hands)
        if other != seat or hidden_own
    ]
    piles += [
        Pile("discarded", other, len(cards), False)
        for other, cards in enumerate(state.discarded)
        if other != seat and cards
    ]
    face_up = 1 if rolling_stock and state.stock else 0
    piles.append(Pile("stock", None, len(state.stock) - face_up, True, None, face_up))
    return piles


@cache
def _without_cards(cards: frozenset[str]) -> Callable[[str], bool]:
    return lambda card: card not in cards


@cache
def _without_suits(suits: frozenset[str]) -> Callable[[str], bool]:
    return lambda card: card[1] not in suits


def _is_point_card(card: str) -> bool:
    return card[0] in "AT"


def _is_plain_card(card: str) -> bool:
    return card[0] not in "AT"


def _sedmice_piles(game: AnyGame, state: Any, seat: int) -> list[Pile]:
    piles = _other_hands(state, seat)
    piles.append(Pile("stock", None, len(state.stock), True))
    # the won cards lie face down; their points (aces and tens, 10 each) are public
    for side, cards in enumerate(state.taken):
        point_cards = sum(map(_is_point_card, cards))
        piles.append(Pile("taken", side, point_cards, True, _is_point_card))
        piles.append(Pile("taken", side, len(cards) - point_cards, True, _is_plain_card))
    return piles


def _my_ship_sails_piles(game: AnyGame, state: Any, seat: int) -> list[Pile]:
    return [*_other_hands(state, seat), Pile("unused", None, len(state.unused), True)]


def _declared_suits(game: AnyGame, state: Any, seat: int, piles: list[Pile]) -> list[list[Pile]]:
    """My Ship Sails between deals and once the match is over: every winner of the deal just ended
    declared, so its hand is seven cards of one suit (two winners never share a suit: seven and seven
    are more than a suit's thirteen). One layout per way to give the other winners distinct suits, each
    winner's hand holding that suit only; the layouts' assignments never overlap, so drawing a layout in
    proportion to its count, then an assignment of it, is uniform over them all."""
    ended = state.phase in ("deal_over", "match_over") and state.deals
    winners = [w for w in state.deals[-1].winners if w != seat] if ended else []
    if not winners:
        return [piles]
    layouts = []
    for suits in permutations(SUITS, len(winners)):
        rule_of = dict(zip(winners, suits, strict=True))
        layouts.append(
            [
                replace(pile, allowed=_only_suit(rule_of[pile.index]))
                if pile.field == "hands" and pile.index in rule_of
                else pile
                for pile in piles
            ]
        )
    return layouts


@cache
def _only_suit(suit: str) -> Callable[[str], bool]:
    return lambda card: card[1] == suit


def _drawn_before_the_first_card(game: AnyGame, state: Any, seat: int, piles: list[Pile]) -> list[list[Pile]]:
    """Domino fan tan before the first card, once a seat has drawn: 7H was in the stock, a seat that drew
    holds no 7 but one it has just drawn, a seat yet to move holds no 7H (the game's
    ``sevens_after_draws``). A hand that holds exactly one 7, or at most one, has one layout per 7 it may
    be (and one with none): that 7 goes to it alone."""
    if state.table or state.phase != "play" or state.turn is None:
        return [piles]
    if all(len(hand) == state.options.hand_size for hand in state.hands):
        return [piles]  # nobody drew: the opener says where 7H is (_sjuan_piles)
    allowed = game.sevens_after_draws(state)  # type: ignore[attr-defined]  # (Domino fan tan's)
    if allowed is None:
        return []  # a turn the draws do not reach: no state is consistent
    hidden_sevens = [card for card in card_names(SEVENS) if card not in state.hands[seat]]
    counted = next(
        (p for p in piles if p.field == "hands" and allowed[p.index] is not None and 1 in allowed[p.index]),
        None,
    )
    choices: list[str | None] = []
    if counted is None or 0 in allowed[counted.index]:
        choices.append(None)
    if counted is not None:
        choices += hidden_sevens
    layouts = []
    for chosen in choices:
        taken = frozenset() if chosen is None else frozenset((chosen,))
        layout = []
        for pile in piles:
            if pile is counted:
                rule = _sevens_rule(taken, frozenset())
            elif pile.field == "hands":
                counts = allowed[pile.index]
                rule = (
                    _sevens_rule(None, taken | {"7H"}) if counts is None else _sevens_rule(frozenset(), taken)
                )
            else:
                rule = _sevens_rule(None, taken)
            layout.append(replace(pile, allowed=rule))
        layouts.append(layout)
    return layouts


@cache
def _sevens_rule(sevens: frozenset[str] | None, excluded: frozenset[str]) -> Callable[[str], bool]:
    """A pile that takes no card of ``excluded``, and of the 7s only ``sevens`` (None: any)."""
    return lambda card: card not in excluded and (sevens is None or card[0] != "7" or card in sevens)


def _one_layout(game: AnyGame, state: Any, seat: int, piles: list[Pile]) -> list[list[Pile]]:
    return [piles]


_LAYOUTS: dict[str, Callable[[AnyGame, Any, int, list[Pile]], list[list[Pile]]]] = {
    "my-ship-sails": _declared_suits,
    "domino-fan-tan": _drawn_before_the_first_card,
}
"""Games where what the seat may infer is one of several alternatives, each a set of pile rules (the
others: the piles' own rules, one layout)."""


_FAMILY: dict[str, Callable[[AnyGame, Any, int], list[Pile]]] = {
    "sjuan": _sjuan_piles,
    "fan-tan": _sjuan_piles,
    "free-fan-tan": _sjuan_piles,
    "domino-fan-tan": _sjuan_piles,
    "sevens": _sevens_piles,
    "seven-up": _seven_up_piles,
    "four-handed-seven-up": _seven_up_piles,
    "california-jack": _seven_up_piles,
    "my-ship-sails": _my_ship_sails_piles,
    "sedmice": _sedmice_piles,
}


class Sampler:
    """Draws states consistent with ``seat``'s information in ``state`` (set up once, drawn often)."""

    def __init__(self, game: AnyGame, state: Any, seat: int) -> None:
        self.game, self.state, self.seat = game, state, seat
        self.piles = hidden_piles(game, state, seat)
        # the hidden cards as a set, in canonical order: what the seat cannot see, never where they are
        hidden: set[str] = set()
        for name, index, first in {(p.field, p.index, p.first) for p in self.piles}:
            value = getattr(state, name)
            hidden.update((value if index is None else value[index])[first:])
        cards = sorted(hidden, key=_deck_order(game.deck).__getitem__)
        layouts = _LAYOUTS.get(game.id, _one_layout)(game, state, seat, self.piles)
        deals = [
            ConstrainedDeal(cards, [pile.size for pile in layout], [pile.allowed for pile in layout])
            for layout in layouts
        ]
        self.deals = [deal for deal in deals if deal.total]
        """The alternatives the seat cannot tell apart, each with its consistent assignments (most games
        have one)."""
        if not self.deals:
            # the engine's checks passed, yet no arrangement of the hidden cards fits what the seat sees:
            # the state is one play cannot reach all the same
            raise InconsistentStateError(
                f"No state is consistent with what seat {seat} may see.",
                [IssueAt((), f"no arrangement of the cards seat {seat} cannot see fits its view")],
            )

    def assignment(self, rng: random.Random) -> list[list[str]]:
        """The hidden cards of each pile, drawn uniformly among consistent assignments."""
        deals = self.deals
        if len(deals) > 1:
            return deals[weighted_index([deal.total for deal in deals], rng)].assignment(rng)
        return deals[0].assignment(rng)

    def draw(self, rng: random.Random, fresh_seed: bool = True) -> Any:
        """One consistent state. Without ``fresh_seed`` (a search, which never plays past the deal) its
        seed is zeros and its commitment left as it was: no real seed in it, and no hash to compute."""
        placed = self.assignment(rng)
        if self.game.id == "my-ship-sails":
            # a seat that has chosen holds a hand with as many possible choices as its moves: hands are
            # kept in proportion to that count (at most 8: seven passes and a declaration)
            while not self._choices_accept(placed, rng):
                placed = self.assignment(rng)
        order = self._order
        fields: dict[str, Any] = {}
        for pile, cards in zip(self.piles, placed, strict=True):
            if pile.ordered:
                rng.shuffle(cards)
            else:
                cards.sort(key=order.__getitem__)
            current = fields.get(pile.field)
            if current is None:
                value = getattr(self.state, pile.field)
                current = fields[pile.field] = (
                    list(value[: pile.first]) if pile.index is None else [list(v) for v in value]
                )
                if pile.index is not None:
                    for other in self.piles:
                        if other.field == pile.field and other.index is not None:
                            current[other.index] = []
            if pile.index is None:
                current += cards
            else:
                current[pile.index] += cards
        for side in fields.get("taken", ()):
            rng.shuffle(side)  # both piles of a side's won cards: one face-down pile, in any order
        if fresh_seed:
            new_seed = f"{rng.getrandbits(256):064x}"
            fields["seed"] = new_seed
            fields["commitment"] = commitment(new_seed)
        else:
            fields["seed"] = ZERO_SEED
        if getattr(self.state, "cut", None):
            # the Seven-Up cut is drawn from the match's seed, which no fresh seed repeats; a state without
            # one (a match whose first dealer was named) is a state the engine accepts
            fields["cut"] = []
        if self.game.id == "my-ship-sails":
            fields["pending"] = self._pending(fields["hands"], rng)
        return updated(self.state, **fields)

    @property
    def _order(self) -> dict[str, int]:
        return _deck_order(self.game.deck)

    def _choices_accept(self, placed: list[list[str]], rng: random.Random) -> bool:
        weight = 1.0
        for pile, cards in zip(self.piles, placed, strict=True):
            if pile.field == "hands" and self.state.pending[pile.index] is not None:
                hand = tuple(sorted(cards, key=self._order.__getitem__))
                weight *= len(seat_moves(hand, pile.index)) / MOST_CHOICES
        return weight == 1.0 or rng.random() < weight

    def _pending(self, hands: list[list[str]], rng: random.Random) -> list[Any]:
        """Other seats' secret choices of this step, drawn among the moves their sampled hands allow."""
        pending = list(self.state.pending)
        for other, choice in enumerate(pending):
            if other == self.seat or choice is None:
                continue
            moves = seat_moves(tuple(hands[other]), other)
            move = moves[rng.randrange(len(moves))]
            pending[other] = type(choice)(type=MyShipSailsChoiceType(move.type.value), card=move.card)
        return pending


ZERO_SEED = "0" * 64
"""The seed of a search's determinizations (never read: a playout ends with the deal)."""

MOST_CHOICES = 8
"""The most choices a My Ship Sails seat has in a step: pass any of seven cards, or declare."""


@cache
def _deck_order(deck: tuple[str, ...]) -> dict[str, int]:
    return {card: i for i, card in enumerate(deck)}


ATTEMPTS = 1000
"""Draws a sample may take before it gives up finding a state the engine accepts."""


def sample_states(game: AnyGame, state: Any, seat: int, count: int, seed: str | None) -> list[Any]:
    """``count`` states consistent with ``seat``'s information in ``state`` (reproducible for ``seed``).

    Each drawn state is checked by the engine as a posted one is, and drawn again if refused: every
    inference the engine's consistency check makes beyond the sampler's own is kept too, and the states
    stay uniform among those the engine accepts. A finished match is refused (:class:`MatchOverError`):
    every view of it shows the real seed, from which every deal's cards follow, so no state with other
    hidden cards is one the seat cannot tell from the real one."""
    if game.over(state):
        raise MatchOverError(
            "The match is over: every seat's view shows its seed, from which the cards dealt follow, so "
            "no state with other hidden cards is one the seat cannot tell from the real one.",
            [],
        )
    sampler = Sampler(game, state, seat)
    rng = rng_for(seed)
    states = []
    for _ in range(count):
        for _ in range(ATTEMPTS):
            drawn = sampler.draw(rng)
            if not game.consistency_issues(drawn):
                states.append(drawn)
                break
        else:
            raise RuntimeError(f"no consistent {game.id} state found in {ATTEMPTS} draws")
    return states
