// The platform's public services over the Connect protocol (binary), from the page's own origin:
// the web port serves both this client and the API (docs/web.md). Errors carry the server's
// google.rpc.ErrorInfo reason, which the client branches on (never on message text).
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-web";
import { BinaryReader, WireType } from "@bufbuild/protobuf/wire";
import { AuthService } from "./gen/sizzle/auth/v1/auth_service_pb.js";
import { MatchService } from "./gen/sizzle/match/v1/match_service_pb.js";
import { MatchmakingService } from "./gen/sizzle/matchmaking/v1/matchmaking_service_pb.js";
import { RulesService } from "./gen/sizzle/rules/v1/rules_service_pb.js";

const transport = createConnectTransport({ baseUrl: window.location.origin, useBinaryFormat: true });

export const authApi = createClient(AuthService, transport);
export const matchApi = createClient(MatchService, transport);
export const matchmakingApi = createClient(MatchmakingService, transport);
export const rulesApi = createClient(RulesService, transport);

/** Call options that carry a token ("authorization: Bearer ..."), and a timeout for unary calls. */
export function withToken(token: string | undefined, timeoutMs = 10000): { headers?: HeadersInit; timeoutMs?: number } {
  return token ? { headers: { Authorization: `Bearer ${token}` }, timeoutMs } : { timeoutMs };
}

/** The ErrorInfo reason of a refusal ("ILLEGAL_ACTION"), or "" when the error carries none. */
export function reasonOf(error: unknown): string {
  const err = ConnectError.from(error);
  for (const detail of err.details) {
    if (!("type" in detail) || detail.type !== "google.rpc.ErrorInfo" || !(detail.value instanceof Uint8Array)) continue;
    const reader = new BinaryReader(detail.value);
    while (reader.pos < reader.len) {
      const [field, wireType] = reader.tag();
      if (field === 1 && wireType === WireType.LengthDelimited) return reader.string();
      reader.skip(wireType);
    }
  }
  return "";
}

/** A refusal in words for people: the server's message, and its reason. */
export function explain(error: unknown): string {
  const err = ConnectError.from(error);
  const reason = reasonOf(err);
  return reason ? `${err.rawMessage} (${reason})` : `${err.rawMessage || Code[err.code]}`;
}

/** Whether a failed call never reached a decision of the server, and may simply be made again. */
export function isTransient(error: unknown): boolean {
  const err = ConnectError.from(error);
  const reason = reasonOf(err);
  if (reason) return reason === "STORE_UNAVAILABLE" || reason === "QUOTA_EXCEEDED";
  return [Code.Unavailable, Code.DeadlineExceeded, Code.Internal, Code.Unknown, Code.Canceled,
    Code.ResourceExhausted, Code.Aborted].includes(err.code);
}

export function requestId(): string {
  return crypto.randomUUID();
}

export const sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => { clearTimeout(timer); resolve(); }, { once: true });
  });
