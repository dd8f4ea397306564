// The five games, and for the chosen one: a match against bots (with friends by a join link), or a
// place in the matchmaking queue.
import { useState } from "preact/hooks";
import { explain, matchApi, matchmakingApi, rulesApi, withToken } from "../api.js";
import { SeatKind } from "../gen/sizzle/match/v1/match_service_pb.js";
import type { GameSpec } from "../gen/sizzle/rules/v1/rules_service_pb.js";
import { go } from "../router.js";
import { rememberSeat } from "../session.js";
import { useGuest, useLoad } from "./hooks.js";
import { DIFFICULTY_NAMES } from "./names.js";
import { SignIn } from "./SignIn.js";

export const GAME_BLURBS: Record<string, string> = {
  license_to_grill: "Fill your grill halves with meat tiles, turn the knobs, serve dishes on the tablecloth.",
  grill_party: "Swap grillables on the central grill and play condition cards that match it.",
  a_la_carte: "Season dishes on your stoves with dice and condiments, flip crepes, drink coffee.",
  a_la_carte_cards: "Draw, discard and serve dishes of three courses from your hand.",
  hibachi: "Throw chips onto the hot plate, buy ingredients where they land, cook recipes.",
};

export function Home() {
  const guest = useGuest();
  const games = useLoad(() => rulesApi.listGames({}, withToken(undefined)), []);
  const [chosen, setChosen] = useState("");
  const game = games.value?.games.find((g) => g.gameId === chosen);
  return (
    <section aria-labelledby="home-title">
      <h1 id="home-title">Cooking board games</h1>
      {!guest && <SignIn purpose="Choose a name to play. Watching live matches needs no name." />}
      {games.error && <p role="alert" class="problem">Cannot list the games: {games.error}</p>}
      <ul class="games" aria-label="Games">
        {games.value?.games.map((g) => (
          <li key={g.gameId}>
            <button type="button" class={`game-card ${chosen === g.gameId ? "chosen" : ""}`}
              aria-pressed={chosen === g.gameId} data-game={g.gameId} onClick={() => setChosen(g.gameId)}>
              <strong>{g.displayName}</strong>
              <span>{g.minPlayers}–{g.maxPlayers} players</span>
              <span class="blurb">{GAME_BLURBS[g.gameId] ?? ""}</span>
            </button>
          </li>
        ))}
      </ul>
      {game && guest && <StartForm key={game.gameId} game={game} token={guest.token} />}
      {game && !guest && <p>Sign in above to play {game.displayName}.</p>}
    </section>
  );
}

function StartForm({ game, token }: { game: GameSpec; token: string }) {
  const [bots, setBots] = useState(Math.max(1, game.minPlayers - 1));
  const [friends, setFriends] = useState(0);
  const [difficulty, setDifficulty] = useState("medium");
  const [turnSeconds, setTurnSeconds] = useState(0);
  const [wait, setWait] = useState(30);
  const [problem, setProblem] = useState("");
  const [busy, setBusy] = useState(false);
  const players = 1 + friends + bots;
  const fits = players >= game.minPlayers && players <= game.maxPlayers;

  const start = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setProblem("");
    try {
      const seats = [
        ...Array.from({ length: 1 + friends }, () => ({ kind: SeatKind.HUMAN })),
        ...Array.from({ length: bots }, () => ({ kind: SeatKind.BOT, difficulty: DIFFICULTY_NAMES[difficulty] })),
      ];
      const created = await matchApi.createMatch({ gameId: game.gameId, seats, turnSeconds }, withToken(token));
      const matchId = created.match!.matchId;
      const joined = await matchApi.joinMatch({ matchId, seat: 0 }, withToken(token));
      rememberSeat(matchId, joined.seat, joined.seatToken);
      go(`/match/${encodeURIComponent(matchId)}`);
    } catch (error) {
      setProblem(explain(error));
    } finally {
      setBusy(false);
    }
  };

  const queue = async () => {
    setBusy(true);
    setProblem("");
    try {
      const created = await matchmakingApi.createTicket({ gameId: game.gameId, allowBots: true, maxWaitSeconds: wait },
        withToken(token));
      go(`/queue/${encodeURIComponent(created.ticket!.ticketId)}`);
    } catch (error) {
      setProblem(explain(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div class="start">
      <form class="card" onSubmit={start} aria-labelledby="start-title">
        <h2 id="start-title">Play {game.displayName}</h2>
        <div class="fields">
          <label>Bots <input type="number" name="bots" min={0} max={game.maxPlayers - 1} value={bots}
            onInput={(e) => setBots(Number((e.target as HTMLInputElement).value))} /></label>
          <label>Bot difficulty
            <select name="difficulty" value={difficulty}
              onChange={(e) => setDifficulty((e.target as HTMLSelectElement).value)}>
              <option value="easy">Easy</option>
              <option value="medium">Medium</option>
              <option value="hard">Hard</option>
            </select>
          </label>
          <label>Friends (join link) <input type="number" name="friends" min={0} max={game.maxPlayers - 1}
            value={friends} onInput={(e) => setFriends(Number((e.target as HTMLInputElement).value))} /></label>
          <label>Seconds a turn (0: no limit) <input type="number" name="turn-seconds" min={0} max={3600}
            value={turnSeconds} onInput={(e) => setTurnSeconds(Number((e.target as HTMLInputElement).value))} /></label>
        </div>
        <p class={fits ? "hint" : "problem"}>
          {players} players{fits ? "" : `: ${game.displayName} needs ${game.minPlayers} to ${game.maxPlayers}`}
        </p>
        <button type="submit" disabled={busy || !fits}>Start the match</button>
      </form>
      <div class="card" role="group" aria-labelledby="queue-title">
        <h2 id="queue-title">Find a match</h2>
        <p>Wait for people near your rating; bots fill the empty seats when the wait runs out.</p>
        <label>Longest wait, seconds <input type="number" name="max-wait" min={1} max={600} value={wait}
          onInput={(e) => setWait(Number((e.target as HTMLInputElement).value))} /></label>
        <button type="button" disabled={busy} onClick={queue}>Join the queue</button>
      </div>
      {problem && <p role="alert" class="problem">{problem}</p>}
    </div>
  );
}
