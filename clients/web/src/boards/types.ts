// What every board is given: the seat's view (the game's View message), the legal actions (empty
// when it is not the seat's turn, and for spectators), and how to act.
import type { Message } from "@bufbuild/protobuf";
import type { Any } from "@bufbuild/protobuf/wkt";
import type { Match } from "../gen/sizzle/match/v1/match_service_pb.js";
import type { LegalAction } from "../gen/sizzle/rules/v1/rules_service_pb.js";

export interface BoardProps<V extends Message = Message> {
  gameId: string;
  view: V;
  legal: LegalAction[];
  busy: boolean;
  mySeat: number;
  match: Match;
  onAct: (action: LegalAction | { structured: Any }) => void;
}
