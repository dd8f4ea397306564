// A finished match step by step. The replay (GetReplay) has the seed and every action once the match
// is over; the board at each step is the rules service's public view of the state rebuilt from
// them (NewGame, then ApplyAction per step), computed as the viewer steps and kept.
import { useEffect, useRef, useState } from "preact/hooks";
import type { Message } from "@bufbuild/protobuf";
import { explain, matchApi, rulesApi, withToken } from "../api.js";
import { Board } from "../boards/Board.js";
import type { GetReplayResponse } from "../gen/sizzle/match/v1/match_service_pb.js";
import type { GameState } from "../gen/sizzle/rules/v1/rules_service_pb.js";
import { unpack } from "../registry.js";
import { EventLog } from "./EventLog.js";
import { useGuest } from "./hooks.js";
import { Seats } from "./Seats.js";

interface Shown {
  view?: Message;
  rendering: string;
}

export function ReplayPage({ matchId }: { matchId: string }) {
  const guest = useGuest();
  const [replay, setReplay] = useState<GetReplayResponse>();
  const [problem, setProblem] = useState("");
  const [step, setStep] = useState(0);
  const [shown, setShown] = useState<Shown>({ rendering: "" });
  const [busy, setBusy] = useState(false);
  const states = useRef<GameState[]>([]);

  useEffect(() => {
    matchApi.getReplay({ matchId }, withToken(guest?.token)).then(async (r) => {
      if (r.complete) {  // the first board before the controls: a step needs the state it starts from
        const created = await rulesApi.newGame({ gameId: r.match!.gameId, numPlayers: r.numPlayers,
          options: r.match!.options, seed: r.seed, keyedDraws: r.keyedDraws }, withToken(undefined));
        states.current = [created.state!];
        await show(0);
      }
      setStep(0);
      setReplay(r);
    }).catch((error: unknown) => setProblem(explain(error)));
  }, [matchId]);

  const stateAt = async (index: number): Promise<GameState> => {
    const r = replay ?? undefined;
    while (states.current.length <= index) {
      const i = states.current.length - 1;
      const entry = r!.steps[i];
      const before = states.current[i];
      if (entry.action && entry.action.typeUrl) {
        const after = await rulesApi.applyAction({ state: before, seat: entry.seat,
          action: { case: "structured", value: entry.action } }, withToken(undefined));
        states.current.push(after.state!);
      } else {
        states.current.push(before);
      }
    }
    return states.current[index];
  };

  const show = async (index: number) => {
    const state = states.current[index] ?? await stateAt(index);
    const view = await rulesApi.getView({ state, seat: -1 }, withToken(undefined));
    setShown({ view: unpack(view.view), rendering: view.rendering });
  };

  const goTo = async (index: number) => {
    if (!replay || busy) return;
    const target = Math.max(0, Math.min(replay.steps.length, index));
    setBusy(true);
    try {
      await stateAt(target);
      await show(target);
      setStep(target);
    } catch (error) {
      setProblem(explain(error));
    } finally {
      setBusy(false);
    }
  };

  if (problem) return <p role="alert" class="problem">Cannot show the replay: {problem}</p>;
  if (!replay) return <p role="status">Loading the replay…</p>;
  const match = replay.match!;
  const total = replay.steps.length;
  const log = replay.steps.slice(0, step).flatMap((s) =>
    s.events.map((e) => ({ version: Number(s.version), seat: e.seat, text: e.text })));
  const keys = (e: KeyboardEvent) => {
    if (e.key === "ArrowRight") { e.preventDefault(); void goTo(step + 1); }
    if (e.key === "ArrowLeft") { e.preventDefault(); void goTo(step - 1); }
    if (e.key === "Home") { e.preventDefault(); void goTo(0); }
    if (e.key === "End") { e.preventDefault(); void goTo(total); }
  };
  return (
    <section class="match replay" aria-labelledby="replay-title">
      <h1 id="replay-title">Replay: {match.gameId.replaceAll("_", " ")}</h1>
      {!replay.complete && <p>The full replay, board included, is ready once the match ends. What happened so far:</p>}
      {replay.complete && (
        <div class="card replay-controls" role="group" aria-label="Replay controls" onKeyDown={keys}>
          <button type="button" onClick={() => goTo(0)} disabled={busy || step === 0} aria-label="To the start">⏮</button>
          <button type="button" onClick={() => goTo(step - 1)} disabled={busy || step === 0} aria-label="One step back">◀</button>
          <span role="status" aria-live="polite" data-testid="replay-step">Step {step} of {total}</span>
          <button type="button" onClick={() => goTo(step + 1)} disabled={busy || step >= total} aria-label="One step forward">▶</button>
          <button type="button" onClick={() => goTo(total)} disabled={busy || step >= total} aria-label="To the end">⏭</button>
          <input type="range" min={0} max={total} value={step} aria-label="Step"
            onChange={(e) => goTo(Number((e.target as HTMLInputElement).value))} />
        </div>
      )}
      <div class="match-grid">
        <div class="board-col">
          {shown.view && <Board gameId={match.gameId} view={shown.view} legal={[]} busy mySeat={-1} match={match}
            onAct={() => undefined} />}
          {shown.rendering && <details class="card"><summary>The board as text</summary>
            <pre class="rendering">{shown.rendering}</pre></details>}
        </div>
        <div class="side-col">
          <Seats match={match} mySeat={-1} />
          <EventLog log={replay.complete ? log : replay.steps.flatMap((s) => s.events.map((e) =>
            ({ version: Number(s.version), seat: e.seat, text: e.text })))} match={match} mySeat={-1} />
        </div>
      </div>
    </section>
  );
}
