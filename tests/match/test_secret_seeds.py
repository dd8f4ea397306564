"""A seed the server chose stays secret while the match runs: it deals keyed draws (a black-box audit
recovered a Hibachi match's seed, and every hidden card, from one chip's landing point when draws were
plain splitmix64), and the finished match still replays exactly from GetReplay's seed through the
public RulesService, as a third-party client replays it."""

from __future__ import annotations

import time

import grpc

from sizzle.match.v1 import match_service_pb2 as mpb
from sizzle.rules.v1 import rules_service_pb2 as rpb
from sizzle.rules.v1 import rules_service_pb2_grpc
from tests.match.players import BOT, Player
from tests.servers import ServerThread


def finished(player: Player, seed: int = 0) -> mpb.GetReplayResponse:
    match = player.create("hibachi", [BOT, BOT], seed=seed)
    deadline = time.monotonic() + 120
    while player.stub.GetMatch(mpb.GetMatchRequest(match_id=match.match_id), timeout=5).match.status != \
            mpb.MATCH_STATUS_FINISHED:
        assert time.monotonic() < deadline, "the bots did not finish"
        time.sleep(0.05)
    return player.stub.GetReplay(mpb.GetReplayRequest(match_id=match.match_id), timeout=10)


def replayed_view(channel: grpc.Channel, replay: mpb.GetReplayResponse, keyed: bool) -> bytes:
    """The public view at the end, made by RulesService from the seed and the logged actions."""
    rules = rules_service_pb2_grpc.RulesServiceStub(channel)
    state = rules.NewGame(rpb.NewGameRequest(game_id=replay.match.game_id, num_players=replay.num_players,
                                             options=replay.match.options, seed=replay.seed, keyed_draws=keyed),
                          timeout=5).state
    for step in replay.steps:
        if step.action.type_url:
            state = rules.ApplyAction(rpb.ApplyActionRequest(state=state, seat=step.seat, structured=step.action),
                                      timeout=5).state
    return rules.GetView(rpb.GetViewRequest(state=state, seat=-1), timeout=5).view.value


def test_a_server_chosen_seed_deals_keyed_draws_and_replays_exactly(platform: ServerThread) -> None:
    with grpc.insecure_channel(platform.target) as channel:
        host = Player.guest(channel, "host")
        replay = finished(host)
        assert replay.complete and replay.keyed_draws and replay.match.rules_version.endswith("+keyed")
        final = host.stub.GetMatch(mpb.GetMatchRequest(match_id=replay.match.match_id), timeout=5).view.value
        assert replayed_view(channel, replay, keyed=True) == final
        try:  # the same seed drawn plainly is another game: its first throws land elsewhere
            plain = replayed_view(channel, replay, keyed=False)
        except grpc.RpcError:
            plain = b""
        assert plain != final
        # A seed the creator chose is known to it anyway (joining needs accept_fixed_seed): plain draws,
        # which tools and tests reproduce with the engine's defaults.
        fixed = finished(host, seed=12345)
        assert not fixed.keyed_draws and not fixed.match.rules_version.endswith("+keyed")
        assert replayed_view(channel, fixed, keyed=False) == host.stub.GetMatch(
            mpb.GetMatchRequest(match_id=fixed.match.match_id), timeout=5).view.value
