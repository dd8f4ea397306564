"""One package per game. Each package's __init__ registers its engine with services.rules.registry."""
