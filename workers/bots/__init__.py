"""Bots: the bot interface, baseline bots, the ONNX policy runtime and the Celery tasks."""
