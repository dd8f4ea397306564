// Every game's messages, to unpack the google.protobuf.Any views and actions the server sends.
import { createRegistry, type Message } from "@bufbuild/protobuf";
import { anyUnpack, type Any } from "@bufbuild/protobuf/wkt";
import { file_sizzle_games_a_la_carte_v1_a_la_carte } from "./gen/sizzle/games/a_la_carte/v1/a_la_carte_pb.js";
import { file_sizzle_games_a_la_carte_cards_v1_a_la_carte_cards } from "./gen/sizzle/games/a_la_carte_cards/v1/a_la_carte_cards_pb.js";
import { file_sizzle_games_grill_party_v1_grill_party } from "./gen/sizzle/games/grill_party/v1/grill_party_pb.js";
import { file_sizzle_games_hibachi_v1_hibachi } from "./gen/sizzle/games/hibachi/v1/hibachi_pb.js";
import { file_sizzle_games_license_to_grill_v1_license_to_grill } from "./gen/sizzle/games/license_to_grill/v1/license_to_grill_pb.js";

export const gameRegistry = createRegistry(
  file_sizzle_games_a_la_carte_v1_a_la_carte,
  file_sizzle_games_a_la_carte_cards_v1_a_la_carte_cards,
  file_sizzle_games_grill_party_v1_grill_party,
  file_sizzle_games_hibachi_v1_hibachi,
  file_sizzle_games_license_to_grill_v1_license_to_grill,
);

/** The message an Any holds, or undefined when it is empty or of a type this client does not know. */
export function unpack<T extends Message = Message>(any: Any | undefined): T | undefined {
  if (!any || !any.typeUrl) return undefined;
  try {
    return anyUnpack(any, gameRegistry) as T | undefined;
  } catch {
    return undefined;
  }
}
