"""Grill Party (rulebook 001): exchange grillables and play condition cards that match the grill."""

from services.rules.games.grill_party.rules import GrillParty
from services.rules.registry import register

ENGINE = register(GrillParty())
