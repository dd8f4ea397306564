"""GetMatch read masks: the paths a `read_mask` may name, and the masks this project's own callers use."""

from __future__ import annotations

from google.protobuf import field_mask_pb2

# The paths a GetMatch read mask may name; `legal_actions.action_id` is the legal ids alone, without
# their structured actions and descriptions. An empty mask fills every field (the full legal actions).
READ_PATHS = ("match", "seat", "view", "rendering", "legal_actions", "legal_actions.action_id")

MATCH_ONLY = field_mask_pb2.FieldMask(paths=["match"])  # the match resource alone
# What a bot reads: the match, its view and its legal ids (no rendering, no descriptions).
BOT_READ = field_mask_pb2.FieldMask(paths=["match", "view", "legal_actions.action_id"])
