"""Builds the matchmaking service for apps.platform.create_server: the servicer, and the matchmaker
loop and rating keeper that `start` runs beside it (against the MatchService at match_target)."""

from __future__ import annotations

import asyncio
import logging

from services.auth.tokens import TokenSigner
from services.kit.config import Config
from services.kit.loops import Ticker
from services.kit.server import Registration
from services.matchmaking.creator import GrpcMatchCreator
from services.matchmaking.matchmaker import Matchmaker
from services.matchmaking.ratings import TICK_SECONDS as KEEPER_TICK_SECONDS
from services.matchmaking.ratings import RatingKeeper
from services.matchmaking.service import MATCHMAKING_SERVICE, MatchmakingServicer
from services.matchmaking.store import MatchmakingStore, MemoryMatchmakingStore
from services.matchmaking.tickets import Tickets
from services.records.store import RecordsStore
from sizzle.matchmaking.v1 import matchmaking_service_pb2_grpc

log = logging.getLogger("sizzle.matchmaking")


def build_store(config: Config) -> MatchmakingStore:
    if config.redis_url:
        from services.matchmaking.redis_store import RedisMatchmakingStore

        return RedisMatchmakingStore(config.redis_url, config.redis_prefix, cluster=bool(config.redis_cluster))
    return MemoryMatchmakingStore()


class MatchmakingApp:
    """The servicer's registration plus the background loops, started after the server binds."""

    def __init__(self, config: Config, store: MatchmakingStore) -> None:
        self.config = config
        self.store = store
        self.tickets = Tickets(config, store)
        signer = TokenSigner.from_config(config)
        self.registrations = [Registration(matchmaking_service_pb2_grpc.add_MatchmakingServiceServicer_to_server,
                                           MatchmakingServicer(self.tickets, signer), MATCHMAKING_SERVICE)]
        self.creator: GrpcMatchCreator | None = None
        self.keeper: RatingKeeper | None = None
        self.records: RecordsStore | None = None  # the durable records (the ratings' home), when kept
        self.matchmaker: Matchmaker | None = None
        self._tickers: list[Ticker] = []

    async def start(self, match_target: str) -> None:
        self.creator = GrpcMatchCreator(self.config, match_target)
        self.keeper = RatingKeeper(self.config, self.store, self.creator.stub, records=self.records)
        self.matchmaker = Matchmaker(self.config, self.store, self.creator, self.keeper)
        self._tickers = [Ticker("matchmaker", self.matchmaker.cycle_pools, self.config.matchmaking_interval_ms / 1000),
                         Ticker("rating keeper", self.keeper.tick, KEEPER_TICK_SECONDS)]
        for ticker in self._tickers:
            ticker.start()
        log.info("matchmaker %s started against the match service at %s", self.matchmaker.holder, match_target)

    async def stop(self) -> None:
        await asyncio.gather(*(ticker.stop() for ticker in self._tickers))
        if self.keeper is not None:
            await self.keeper.stop()
        if self.matchmaker is not None:  # tables being seated get a moment; the rest the next holder undoes
            await self.matchmaker.drain(timeout=self.config.grace_seconds)
        if self.matchmaker is not None:
            await self.matchmaker.release_leases()  # another replica takes the pools at once
        if self.creator is not None:
            await self.creator.close()
        await self.store.close()


def build_matchmaking(config: Config) -> MatchmakingApp:
    return MatchmakingApp(config, build_store(config))
