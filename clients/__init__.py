"""Sizzle's own clients: the terminal client for people (`sizzle play`, `watch`, `replay`) and the
minimal client that shows third parties how to play through the API with generated stubs only."""
