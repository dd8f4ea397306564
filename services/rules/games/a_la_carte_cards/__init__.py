"""A la carte, the card game (rulebook 002, first part): collect complete dishes by drawing and discarding."""

from services.rules.games.a_la_carte_cards.rules import ALaCarteCards
from services.rules.registry import register

ENGINE = register(ALaCarteCards())
