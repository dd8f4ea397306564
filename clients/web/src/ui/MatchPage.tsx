// One match: played from a seat (with its seat token), or watched as a spectator. The board and the
// legal actions come from the server's view; the stream keeps both current.
import { useEffect, useMemo, useState } from "preact/hooks";
import type { Any } from "@bufbuild/protobuf/wkt";
import { explain, matchApi, withToken } from "../api.js";
import { Board } from "../boards/Board.js";
import { MatchFollower, type MatchSnapshot } from "../follow.js";
import { MatchStatus, SeatKind } from "../gen/sizzle/match/v1/match_service_pb.js";
import type { LegalAction } from "../gen/sizzle/rules/v1/rules_service_pb.js";
import { paceMs } from "../router.js";
import { forgetSeat, seatFor } from "../session.js";
import { ActionList } from "./ActionList.js";
import { EventLog } from "./EventLog.js";
import { useGuest } from "./hooks.js";
import { seatName, statusName } from "./names.js";
import { Seats } from "./Seats.js";

function useSnapshot(follower: MatchFollower): MatchSnapshot {
  const [snapshot, setSnapshot] = useState(follower.snapshot);
  useEffect(() => follower.subscribe(setSnapshot), [follower]);
  return snapshot;
}

export function MatchPage({ matchId }: { matchId: string }) {
  const guest = useGuest();
  const ticket = seatFor(matchId);
  const token = ticket?.token ?? guest?.token;
  const mySeat = ticket?.seat ?? -1;
  const follower = useMemo(() => new MatchFollower(matchId, token, mySeat, paceMs()), [matchId, token, mySeat]);
  useEffect(() => {
    follower.start();
    return () => follower.stop();
  }, [follower]);
  const snap = useSnapshot(follower);
  const match = snap.match;
  const myTurn = !!match && match.status === MatchStatus.RUNNING && mySeat >= 0 && match.seatToMove === mySeat
    && snap.legal.length > 0;
  const act = (a: LegalAction | { structured: Any }) =>
    void follower.submit("structured" in a ? { structured: a.structured } : { actionId: a.actionId });

  const openSeats = match?.seats.filter((s) => s.kind === SeatKind.HUMAN && !s.playerId).length ?? 0;
  const shareLink = `${window.location.origin}${window.location.pathname}#/join/${encodeURIComponent(matchId)}`;
  const turnLine = !match ? "Connecting…"
    : match.status === MatchStatus.FINISHED ? "The match is over."
      : match.status === MatchStatus.WAITING ? `Waiting for ${openSeats} more ${openSeats === 1 ? "player" : "players"}.`
        : myTurn ? "Your turn."
          : `${seatName(match, match.seatToMove, mySeat)} to move${snap.pending ? ` (${snap.pending} moves to show)` : ""}.`;

  return (
    <section class="match" aria-labelledby="match-title">
      <h1 id="match-title">{match ? match.gameId.replaceAll("_", " ") : "Match"}
        <span class="sub"> {mySeat >= 0 ? `· you play seat ${mySeat}` : "· watching"}</span></h1>
      <p class="status-line" role="status" aria-live="polite" data-testid="turn">
        {turnLine}
        {match && <span class="hint"> Move {String(match.version)} · {statusName(match.status)}</span>}
      </p>
      {snap.connection === "reconnecting" && <p role="status" class="warn" data-testid="reconnecting">
        Connection lost; reconnecting… {snap.problem}</p>}
      {snap.connection === "failed" && <p role="alert" class="problem">{snap.problem}</p>}
      {snap.problem && snap.connection !== "failed" && snap.connection !== "reconnecting" &&
        <p role="alert" class="problem">{snap.problem}</p>}
      {match && match.status === MatchStatus.WAITING && openSeats > 0 && (
        <div class="card share">
          <label for="share-link">Share this link with a friend to fill an open seat</label>
          <div class="row">
            <input id="share-link" readOnly value={shareLink} onFocus={(e) => (e.target as HTMLInputElement).select()} />
            <button type="button" onClick={() => void navigator.clipboard?.writeText(shareLink)}>Copy</button>
          </div>
        </div>
      )}
      <div class="match-grid">
        <div class="board-col">
          {match && snap.view && (
            <Board gameId={match.gameId} view={snap.view} legal={myTurn ? snap.legal : []} busy={snap.submitting}
              mySeat={mySeat} match={match} onAct={act} />
          )}
          {myTurn && <ActionList legal={snap.legal} busy={snap.submitting} onAct={act} />}
          {snap.rendering && (
            <details class="card">
              <summary>The board as text</summary>
              <pre class="rendering" data-testid="rendering">{snap.rendering}</pre>
            </details>
          )}
        </div>
        <div class="side-col">
          {match && <Seats match={match} mySeat={mySeat} />}
          {match?.status === MatchStatus.FINISHED && (
            <p class="card"><a href={`#/replay/${encodeURIComponent(matchId)}`} data-testid="replay-link">Step through the replay</a></p>
          )}
          {match && mySeat >= 0 && match.status === MatchStatus.RUNNING && <LeaveButton matchId={matchId} token={token} />}
          <EventLog log={snap.log} match={match} mySeat={mySeat} />
        </div>
      </div>
    </section>
  );
}

function LeaveButton({ matchId, token }: { matchId: string; token?: string }) {
  const [problem, setProblem] = useState("");
  const leave = async () => {
    if (!confirm("Leave the match? A bot plays your seat from then on.")) return;
    try {
      await matchApi.leaveMatch({ matchId }, withToken(token));
      forgetSeat(matchId); // the seat token's stream ends (WRONG_SEAT): watch on as a spectator
    } catch (error) {
      setProblem(explain(error));
    }
  };
  return (
    <p>
      <button type="button" class="secondary" onClick={leave}>Leave the match</button>
      {problem && <span role="alert" class="problem"> {problem}</span>}
    </p>
  );
}
