"""The Textual terminal client: a seat's table (or a spectator's), and the replay viewer."""
