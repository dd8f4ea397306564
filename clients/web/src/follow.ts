// Follows one match: WatchMatch from the whole log (-1) on; when the stream breaks it waits a little
// and watches again from the last version it showed, so nothing is missed or shown twice. Updates
// of other seats (bots) are shown one at a time at a pace a person can follow; the seat's own
// turn is shown at once. Submits retry a transient failure with the same request id (the server
// answers a repeated id with its first answer), so a retry never plays twice.
import { Code, ConnectError } from "@connectrpc/connect";
import type { Message } from "@bufbuild/protobuf";
import type { Event } from "./gen/sizzle/common/v1/common_pb.js";
import { type Match, MatchStatus, type WatchMatchResponse } from "./gen/sizzle/match/v1/match_service_pb.js";
import type { LegalAction } from "./gen/sizzle/rules/v1/rules_service_pb.js";
import type { Any } from "@bufbuild/protobuf/wkt";
import { explain, isTransient, matchApi, reasonOf, requestId, sleep, withToken } from "./api.js";
import { unpack } from "./registry.js";

export interface LoggedEvent {
  version: number;
  seat: number;
  text: string;
}

export interface MatchSnapshot {
  match?: Match;
  view?: Message;
  rendering: string;
  legal: LegalAction[];
  seat: number;
  log: LoggedEvent[];
  connection: "connecting" | "live" | "reconnecting" | "ended" | "failed";
  problem: string;
  submitting: boolean;
  pending: number;
}

const FIRST_DELAY_MS = 250;
const MAX_DELAY_MS = 4000;
const MAX_LOG = 500;

export class MatchFollower {
  snapshot: MatchSnapshot = { rendering: "", legal: [], seat: -1, log: [], connection: "connecting", problem: "",
    submitting: false, pending: 0 };
  private listeners = new Set<(s: MatchSnapshot) => void>();
  private queue: WatchMatchResponse[] = [];
  private abort = new AbortController();
  private lastVersion = -1n;
  private draining = false;
  reconnects = 0;

  constructor(readonly matchId: string, readonly token: string | undefined, readonly mySeat: number,
              readonly paceMs: number) {}

  subscribe(listener: (s: MatchSnapshot) => void): () => void {
    this.listeners.add(listener);
    listener(this.snapshot);
    return () => this.listeners.delete(listener);
  }

  private publish(change: Partial<MatchSnapshot>): void {
    this.snapshot = { ...this.snapshot, ...change };
    for (const listener of this.listeners) listener(this.snapshot);
  }

  start(): void {
    void this.watch();
  }

  stop(): void {
    this.abort.abort();
  }

  // Aborts one watch stream (a new one per connection); `abort` ends the following for good.
  private streamAbort = new AbortController();

  private async watch(): Promise<void> {
    let delay = FIRST_DELAY_MS;
    while (!this.abort.signal.aborted) {
      this.streamAbort = new AbortController();
      const signal = AbortSignal.any([this.abort.signal, this.streamAbort.signal]);
      try {
        const stream = matchApi.watchMatch({ matchId: this.matchId, fromVersion: this.lastVersion },
          { ...withToken(this.token), timeoutMs: undefined, signal });
        for await (const update of stream) {
          delay = FIRST_DELAY_MS;
          if (this.snapshot.connection !== "live") this.publish({ connection: "live", problem: "" });
          const version = update.match?.version ?? this.lastVersion;
          if (version <= this.lastVersion) continue;
          this.lastVersion = version;
          this.queue.push(update);
          void this.drain();
        }
        if (this.abort.signal.aborted) return;
        if (this.streamAbort.signal.aborted) throw new Error("connection dropped");
        // The stream ends when the match ends.
        this.publish({ connection: "ended" });
        return;
      } catch (error) {
        if (this.abort.signal.aborted) return;
        const dropped = this.streamAbort.signal.aborted;
        if (!dropped && !isTransient(error)) {
          this.publish({ connection: "failed", problem: explain(error) });
          return;
        }
        this.reconnects += 1;
        this.publish({ connection: "reconnecting", problem: dropped ? "" : explain(error) });
        await sleep(delay, this.abort.signal);
        delay = Math.min(delay * 2, MAX_DELAY_MS);
      }
    }
  }

  /** Shows queued updates in order: another seat's move waits `paceMs` after the previous one. */
  private async drain(): Promise<void> {
    if (this.draining) return;
    this.draining = true;
    try {
      let shown = 0;
      while (this.queue.length > 0 && !this.abort.signal.aborted) {
        const update = this.queue.shift()!;
        const byOthers = update.events.some((e) => e.seat >= 0 && e.seat !== this.mySeat);
        if (shown > 0 && byOthers && this.paceMs > 0 && this.snapshot.match?.status === MatchStatus.RUNNING) {
          this.publish({ pending: this.queue.length + 1 });
          await sleep(this.paceMs, this.abort.signal);
        }
        this.show(update);
        shown += 1;
      }
      this.publish({ pending: 0 });
    } finally {
      this.draining = false;
    }
  }

  private show(update: WatchMatchResponse): void {
    const version = Number(update.match?.version ?? 0n);
    const entries = update.events.map((e: Event) => ({ version, seat: e.seat,
      text: e.secretText ? `${e.text} (${e.secretText})` : e.text }));
    const log = [...this.snapshot.log, ...entries].slice(-MAX_LOG);
    this.publish({ match: update.match, view: unpack(update.view), rendering: update.rendering,
      legal: this.queue.length === 0 ? update.legalActions : [], seat: update.seat, log });
  }

  get showingLatest(): boolean {
    return this.queue.length === 0;
  }

  /** Submits one action for the seat (by id, or structured), retrying transient failures. */
  async submit(action: { actionId?: number; structured?: Any }): Promise<string> {
    if (!this.token || this.snapshot.submitting || !this.snapshot.match) return "";
    const id = requestId();
    const expectedVersion = this.snapshot.match.version;
    this.publish({ submitting: true, problem: "" });
    try {
      for (let attempt = 0; ; attempt++) {
        try {
          const actionCase = action.structured
            ? { case: "structured" as const, value: action.structured }
            : { case: "actionId" as const, value: action.actionId ?? 0 };
          await matchApi.submitAction({ matchId: this.matchId, action: actionCase, expectedVersion, requestId: id },
            withToken(this.token));
          // The stream brings the new view; until then the old legal actions must not be offered.
          if (this.snapshot.match?.version === expectedVersion) this.publish({ legal: [] });
          return "";
        } catch (error) {
          const reason = reasonOf(error);
          if (reason === "STALE_VERSION") return ""; // the stream is about to show the newer version
          if (attempt < 5 && isTransient(error) && ConnectError.from(error).code !== Code.ResourceExhausted) {
            await sleep(300 * (attempt + 1), this.abort.signal);
            continue;
          }
          const problem = explain(error);
          this.publish({ problem });
          return problem;
        }
      }
    } finally {
      this.publish({ submitting: false });
    }
  }
}
