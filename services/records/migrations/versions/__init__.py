"""The records database's revisions, oldest first."""
