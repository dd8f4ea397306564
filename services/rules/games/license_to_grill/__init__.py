"""License to Grill (rulebook 000): cook recipes on one shared grill, rest them and serve them."""

from services.rules.games.license_to_grill.rules import LicenseToGrill
from services.rules.registry import register

ENGINE = register(LicenseToGrill())
