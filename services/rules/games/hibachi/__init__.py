"""Hibachi: Fired Up! (rulebook 003): throw chips onto the grill board, then activate them to buy and
sell ingredients and cook recipes; first to three recipes."""

from services.rules.games.hibachi.rules import Hibachi
from services.rules.registry import register

ENGINE = register(Hibachi())
