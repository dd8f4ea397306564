"""A la carte, the kitchen game (rulebook 002, second part): heat, season, coffee, crepes and stars."""

from services.rules.games.a_la_carte.rules import ALaCarte
from services.rules.registry import register

ENGINE = register(ALaCarte())
