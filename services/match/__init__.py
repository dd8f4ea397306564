"""The match service: live games in a store, seats and tokens, streaming, replays, turn deadlines."""
