"""`make bench`: the performance targets, each measured against a baseline in the same run and
reported as a ratio. Never timed unit tests."""
