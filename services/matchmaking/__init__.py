"""Matchmaking: tickets wait in a pool per game until the matchmaker seats them at a match created
through MatchService (people of close ratings together, bots for the seats left empty once a ticket's
longest wait runs out), and OpenSkill ratings updated once per finished match."""
