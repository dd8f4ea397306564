// Matches being played (to watch as a spectator) and finished ones (to replay).
import { matchApi, withToken } from "../api.js";
import { type Match, MatchStatus } from "../gen/sizzle/match/v1/match_service_pb.js";
import { useLoad } from "./hooks.js";

export function Live() {
  const running = useLoad(() => matchApi.listMatches({ status: MatchStatus.RUNNING, pageSize: 50 }, withToken(undefined)), []);
  const finished = useLoad(() => matchApi.listMatches({ status: MatchStatus.FINISHED, pageSize: 20 }, withToken(undefined)), []);
  return (
    <section aria-labelledby="live-title">
      <h1 id="live-title">Live matches</h1>
      <button type="button" onClick={() => { running.reload(); finished.reload(); }}>Refresh</button>
      <h2>Being played</h2>
      <MatchList matches={running.value?.matches} link="match" verb="Watch" empty="No match is being played." />
      <h2>Finished</h2>
      <MatchList matches={finished.value?.matches} link="replay" verb="Replay" empty="No match has finished yet." />
      {(running.error || finished.error) && <p role="alert" class="problem">{running.error || finished.error}</p>}
    </section>
  );
}

function MatchList({ matches, link, verb, empty }: { matches?: Match[]; link: string; verb: string; empty: string }) {
  if (!matches) return <p>Loading…</p>;
  if (matches.length === 0) return <p>{empty}</p>;
  return (
    <ul class="matches">
      {matches.map((m) => (
        <li key={m.matchId}>
          <a href={`#/${link}/${encodeURIComponent(m.matchId)}`} data-match={m.matchId}>
            {verb} {m.gameId.replaceAll("_", " ")}
          </a>{" "}
          <span class="hint">{m.seats.map((s) => s.displayName || (s.kind === 2 ? "bot" : "open")).join(", ")}
            {" · "}move {String(m.version)}</span>
        </li>
      ))}
    </ul>
  );
}
