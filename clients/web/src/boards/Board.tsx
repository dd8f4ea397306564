// The board of the match's game, drawn from the seat's view; a game without a board of its own gets
// the text rendering only (MatchPage shows it under every board).
import type { Message } from "@bufbuild/protobuf";
import { AlaCarteBoard } from "./AlaCarteBoard.js";
import { CardsBoard } from "./CardsBoard.js";
import { GrillPartyBoard } from "./GrillPartyBoard.js";
import { HibachiBoard } from "./HibachiBoard.js";
import { LicenseToGrillBoard } from "./LicenseToGrillBoard.js";
import type { BoardProps } from "./types.js";

const BOARDS: Record<string, (props: BoardProps<any>) => preact.JSX.Element> = {
  license_to_grill: LicenseToGrillBoard,
  grill_party: GrillPartyBoard,
  a_la_carte: AlaCarteBoard,
  a_la_carte_cards: CardsBoard,
  hibachi: HibachiBoard,
};

export function Board(props: BoardProps<Message>) {
  const Drawn = BOARDS[props.gameId];
  if (!Drawn) return <p class="card">This client has no board for {props.gameId}; the text view is below.</p>;
  return (
    <figure class="board card" aria-label={`${props.gameId.replaceAll("_", " ")} board`} data-testid="board"
      data-game={props.gameId}>
      <Drawn {...props} />
    </figure>
  );
}
