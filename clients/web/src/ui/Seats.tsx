// The table: who sits where, whose turn it is, the clocks, and the result once the match is over.
import { type Match, MatchStatus, SeatKind } from "../gen/sizzle/match/v1/match_service_pb.js";
import { useNow } from "./hooks.js";
import { seatName, seconds } from "./names.js";

export function Seats({ match, mySeat }: { match: Match; mySeat: number }) {
  const now = useNow(500);
  const turnLeft = Number(match.turnDeadlineUnixMs) - now;
  const clockLeft = Number(match.clockDeadlineUnixMs) - now;
  const results = new Map((match.outcome?.results ?? []).map((r) => [r.seat, r]));
  return (
    <section class="seats card" aria-labelledby="seats-title">
      <h2 id="seats-title">Table</h2>
      {match.status === MatchStatus.RUNNING && match.turnDeadlineUnixMs > 0n && (
        <p class={turnLeft < 10000 ? "clock urgent" : "clock"} data-testid="turn-clock">
          Turn clock: {seconds(turnLeft)} left</p>
      )}
      {match.status === MatchStatus.RUNNING && match.clockDeadlineUnixMs > 0n && (
        <p class="clock">Game clock: {seconds(clockLeft)} left</p>
      )}
      <ul>
        {match.seats.map((s) => {
          const result = results.get(s.seat);
          const toMove = match.status === MatchStatus.RUNNING && match.seatToMove === s.seat;
          return (
            <li key={s.seat} class={`${toMove ? "to-move" : ""} ${s.seat === mySeat ? "mine" : ""}`}
              aria-current={toMove ? "step" : undefined}>
              <span class="dot" aria-hidden="true" style={{ background: seatColor(s.seat) }} />
              {seatName(match, s.seat, mySeat)}
              {s.kind === SeatKind.HUMAN && !s.playerId && <em> (open)</em>}
              {toMove && <strong> — to move</strong>}
              {result && <span class="result"> — {result.winner ? "winner, " : ""}place {result.rank}, score {result.score}</span>}
            </li>
          );
        })}
      </ul>
      {match.outcome?.reason && <p data-testid="outcome">Game over: {match.outcome.reason}</p>}
    </section>
  );
}

export const SEAT_COLORS = ["#d9480f", "#1971c2", "#2b8a3e", "#9c36b5", "#e67700", "#0c8599"];

export function seatColor(seat: number): string {
  return seat >= 0 ? SEAT_COLORS[seat % SEAT_COLORS.length] : "#868e96";
}
