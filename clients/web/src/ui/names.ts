// Words for people: seats, difficulties, statuses, durations.
import { Difficulty, type Match, MatchStatus, SeatKind } from "../gen/sizzle/match/v1/match_service_pb.js";

export const DIFFICULTY_NAMES: Record<string, Difficulty> = {
  easy: Difficulty.EASY, medium: Difficulty.MEDIUM, hard: Difficulty.HARD,
};

export function difficultyName(d: Difficulty): string {
  return d === Difficulty.EASY ? "easy" : d === Difficulty.HARD ? "hard" : "medium";
}

export function seatName(match: Match | undefined, seat: number, mySeat = -1): string {
  if (seat < 0) return "the game";
  const s = match?.seats[seat];
  const who = !s ? `seat ${seat}` : s.kind === SeatKind.BOT
    ? `${difficultyName(s.difficulty)} bot${s.takenOver ? ` (for ${s.displayName || "a player who left"})` : ""}`
    : s.displayName || "open seat";
  return seat === mySeat ? `you (${who})` : `${who}, seat ${seat}`;
}

export function statusName(status: MatchStatus): string {
  return status === MatchStatus.WAITING ? "waiting for players" : status === MatchStatus.RUNNING ? "being played"
    : status === MatchStatus.FINISHED ? "finished" : "unknown";
}

export function seconds(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  return s >= 60 ? `${Math.floor(s / 60)} min ${s % 60} s` : `${s} s`;
}
