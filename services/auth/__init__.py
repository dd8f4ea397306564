"""Identity beyond guests: accounts with a username and a password (services/auth/accounts.py).
Tokens and the AuthService servicer live in services/match/ (tokens.py, service.py) for now."""
