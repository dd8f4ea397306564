"""Tests of the bots: heuristic registry, ONNX policy runtime, shipped models, training and tournament."""
