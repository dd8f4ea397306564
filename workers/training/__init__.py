"""Training of the bots' ONNX policies: search teacher, imitation, export, tournament (torch: the
`train` extra; nothing under workers/bots or services imports this package)."""
