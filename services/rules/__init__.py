"""Rules engines of every game and the stateless RulesService that serves them."""
