// Ratings: the leaderboard of a game (best first) and the player's own rating.
import { matchmakingApi, rulesApi, withToken } from "../api.js";
import { go } from "../router.js";
import { useGuest, useLoad } from "./hooks.js";

export function Leaderboard({ gameId }: { gameId: string }) {
  const guest = useGuest();
  const games = useLoad(() => rulesApi.listGames({}, withToken(undefined)), []);
  const game = gameId || games.value?.games[0]?.gameId || "";
  const board = useLoad(async () => game ? matchmakingApi.listLeaderboard({ gameId: game, pageSize: 20 }, withToken(undefined)) : undefined, [game]);
  const mine = useLoad(async () => game && guest ? matchmakingApi.getRating({ gameId: game }, withToken(guest.token)) : undefined,
    [game, guest?.token]);
  return (
    <section aria-labelledby="board-title">
      <h1 id="board-title">Leaderboard</h1>
      <label>Game{" "}
        <select value={game} onChange={(e) => go(`/leaderboard/${(e.target as HTMLSelectElement).value}`)}>
          {games.value?.games.map((g) => <option key={g.gameId} value={g.gameId}>{g.displayName}</option>)}
        </select>
      </label>
      {mine.value?.rating && (
        <p data-testid="my-rating">Your rating: {mine.value.rating.ordinal.toFixed(1)} (μ {mine.value.rating.mu.toFixed(1)},
          σ {mine.value.rating.sigma.toFixed(1)}), {mine.value.rating.matchesPlayed} rated matches
          {mine.value.rating.rank ? `, place ${mine.value.rating.rank}` : ""}.</p>
      )}
      {board.value && (
        <table class="leaderboard">
          <caption>{board.value.total} rated players</caption>
          <thead><tr><th scope="col">Place</th><th scope="col">Player</th><th scope="col">Rating</th><th scope="col">Matches</th></tr></thead>
          <tbody>
            {board.value.entries.map((r) => (
              <tr key={r.playerId} class={r.playerId === guest?.playerId ? "me" : ""}>
                <td>{r.rank}</td><td>{r.displayName || r.playerId}</td><td>{r.ordinal.toFixed(1)}</td><td>{r.matchesPlayed}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {board.value && board.value.entries.length === 0 && <p>Nobody has played a rated match of this game yet.</p>}
      {board.error && <p role="alert" class="problem">{board.error}</p>}
    </section>
  );
}
