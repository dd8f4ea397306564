"""Sizzle's Python client package: the generated stubs of the public API and the example client's helpers.

The stubs keep the import paths of the proto packages: `sizzle.auth.v1`, `sizzle.match.v1`,
`sizzle.matchmaking.v1`, `sizzle.rules.v1` (ListGames, GetGame), `sizzle.common.v1` and each game's
`sizzle.games.<game>.v1` (the View and Action messages inside an `Any`). The helpers are those of the
complete example client (clients/minimal_client.py in the Sizzle repository, shipped unchanged as
`sizzle_client.minimal_client`, also the `sizzle-minimal-client` command):

    from sizzle.auth.v1 import auth_service_pb2, auth_service_pb2_grpc
    from sizzle_client import bearer, error_reason, open_channel

    with open_channel("127.0.0.1:50051") as channel:
        auth = auth_service_pb2_grpc.AuthServiceStub(channel)
        guest = auth.CreateGuest(auth_service_pb2.CreateGuestRequest(display_name="ada"), timeout=5)
"""

from sizzle_client.minimal_client import RETRY, bearer, error_reason, final_table, open_channel, play, submit

__all__ = ["RETRY", "bearer", "error_reason", "final_table", "open_channel", "play", "submit"]
