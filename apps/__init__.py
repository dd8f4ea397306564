"""The composition root: the entry points (`sizzle` and its commands) and the one place that builds
every process from configuration, the services of services/ with the bots of workers/ (services/
imports nothing from workers/ or clients/; tests/test_import_graph.py holds it)."""
