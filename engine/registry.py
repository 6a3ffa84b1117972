"""The game registry: every game id and the rules object that plays it."""

from __future__ import annotations

from typing import Any

from .game import Game
from .my_ship_sails import MyShipSails
from .sedmice import Sedmice
from .seven_up import CaliforniaJack, FourHandedSevenUp, SevenUp
from .sevens import Sevens
from .sjuan import DominoFanTan, FanTan, FreeFanTan, Sjuan

GAMES: dict[str, Game[Any, Any, Any, Any, Any, Any]] = {
    game.id: game
    for game in (
        Sjuan(),
        FanTan(),
        FreeFanTan(),
        DominoFanTan(),
        Sevens(),
        SevenUp(),
        FourHandedSevenUp(),
        CaliforniaJack(),
        MyShipSails(),
        Sedmice(),
    )
}
"""Every game, by id, in the order ``GET /v1/games`` lists them."""


def get_game(game_id: str) -> Game[Any, Any, Any, Any, Any, Any]:
    """The game with this id; ``KeyError`` when there is none."""
    return GAMES[game_id]
