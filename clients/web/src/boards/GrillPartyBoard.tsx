// Grill Party: the central grill, every player's stock, plate, deck and score pile, and the seat's
// hand. Point at a grillable to take it (then pick what to give back), at a card to play or tuck it.
import { type Content, Grillable, Phase, type View } from "../gen/sizzle/games/grill_party/v1/grill_party_pb.js";
import { seatColor } from "../ui/Seats.js";
import { useContent } from "./content.js";
import { matching, Spot, Tip, useChooser, useOptions } from "./parts.js";
import type { BoardProps } from "./types.js";

const KINDS = [Grillable.FISH, Grillable.STEAK, Grillable.SAUSAGE, Grillable.CORN];
const NAMES: Record<number, string> = { [Grillable.FISH]: "fish", [Grillable.STEAK]: "steak",
  [Grillable.SAUSAGE]: "sausage", [Grillable.CORN]: "corn", [Grillable.UNSPECIFIED]: "empty plate" };
const COLORS: Record<number, string> = { [Grillable.FISH]: "#74c0fc", [Grillable.STEAK]: "#c92a2a",
  [Grillable.SAUSAGE]: "#e8590c", [Grillable.CORN]: "#fcc419", [Grillable.UNSPECIFIED]: "#dee2e6" };

function Piece({ kind, x, y, r = 11 }: { kind: Grillable; x: number; y: number; r?: number }) {
  return <circle cx={x} cy={y} r={r} fill={COLORS[kind]} stroke="#212529" stroke-width={1.5} />;
}

export function GrillPartyBoard({ view, legal, busy, mySeat, onAct, gameId }: BoardProps<View>) {
  const content = useContent<Content>(gameId);
  const cardName = (id: number) => content?.cards.find((c) => c.id === id)?.name ?? `card ${id}`;
  const options = useOptions(legal);
  const { choose, chooser } = useChooser(onAct, busy);
  const exchanges = matching(options, "exchange");
  const players = view.players;
  const width = 640;
  const rowHeight = 78;
  const height = 150 + players.length * rowHeight;
  const me = players.find((p) => p.seat === mySeat);
  const phaseText = view.phase === Phase.EXCHANGE ? "exchange a grillable" : view.phase === Phase.PLAY
    ? "play condition cards" : view.phase === Phase.TUCK ? "tuck cards, then draw" : "";
  return (
    <>
      <svg viewBox={`0 0 ${width} ${height}`} role="group" aria-label="The grill and the players' stocks">
        <rect x={170} y={10} width={300} height={110} rx={18} class="grill" />
        <text x={320} y={30} text-anchor="middle" class="label light">Central grill</text>
        {KINDS.map((kind, i) => {
          const count = view.grill[i] ?? 0;
          const take = exchanges.filter((o) => o.value.fromGrill && o.value.take === kind);
          return (
            <Spot key={kind} options={take} choose={choose} label={`take ${NAMES[kind]} from the grill`}>
              <rect x={185 + i * 70} y={40} width={60} height={70} rx={8} class="slot" />
              {Array.from({ length: Math.min(count, 8) }, (_, j) => <Piece kind={kind} x={200 + i * 70 + (j % 2) * 28} y={55 + Math.floor(j / 2) * 14} r={9} />)}
              <text x={215 + i * 70} y={106} text-anchor="middle" class="small light">{NAMES[kind]} ×{count}</text>
            </Spot>
          );
        })}
        {players.map((p, row) => {
          const y = 140 + row * rowHeight;
          return (
            <g key={p.seat} aria-label={`seat ${p.seat}`}>
              <rect x={4} y={y} width={width - 8} height={rowHeight - 8} rx={8} class={`seat-row ${p.seat === view.core?.seatToMove ? "to-move" : ""}`}
                stroke={seatColor(p.seat)} />
              <text x={14} y={y + 20} class="label" fill={seatColor(p.seat)}>{p.seat === mySeat ? "You" : `Seat ${p.seat}`}</text>
              <text x={14} y={y + 40} class="small">hand {p.handSize} · deck {p.deckSize}</text>
              <text x={14} y={y + 58} class="small">score pile {p.scorePileSize}{p.topCard !== undefined ? ` · top: ${cardName(p.topCard)}` : ""}</text>
              <text x={170} y={y + 20} class="small">plate</text>
              <Piece kind={p.plate} x={184} y={y + 42} r={12} />
              {KINDS.map((kind, i) => {
                const take = exchanges.filter((o) => !o.value.fromGrill && o.value.fromSeat === p.seat && o.value.take === kind);
                const count = p.stock[i] ?? 0;
                return (
                  <Spot key={kind} options={take} choose={choose} label={`take ${NAMES[kind]} from seat ${p.seat}`}>
                    <rect x={220 + i * 60} y={y + 6} width={56} height={56} rx={6} class="slot light-slot" />
                    {Array.from({ length: Math.min(count, 6) }, (_, j) =>
                      <Piece kind={kind} x={234 + i * 60 + (j % 3) * 14} y={y + 18 + Math.floor(j / 3) * 14} r={7} />)}
                    <text x={248 + i * 60} y={y + 56} class="small" text-anchor="middle">{NAMES[kind]} {count}</text>
                  </Spot>
                );
              })}
              <text x={470} y={y + 20} class="small">{p.seat === view.core?.seatToMove ? `to move: ${phaseText}` : ""}</text>
            </g>
          );
        })}
      </svg>
      {me && me.hand.length > 0 && (
        <div class="hand" role="group" aria-label="Your hand">
          {me.hand.map((card) => {
            const plays = [...matching(options, "playCard", (v) => v.card === card), ...matching(options, "tuckCard", (v) => v.card === card)];
            const name = cardName(card);
            return (
              <button type="button" key={card} class="playing-card" disabled={busy || plays.length === 0}
                onClick={() => choose(plays, name)} aria-label={plays.length ? `${name}: ${plays.map((o) => o.legal.description).join("; ")}`
                  : `${name} (not playable now)`}>
                <span>{name}</span>
                <span class="card-id">{plays.length ? plays.map((o) => o.kind === "tuckCard" ? "tuck" : "play").join(" / ") : "not playable now"}</span>
              </button>
            );
          })}
        </div>
      )}
      {chooser}
      <Tip>Point at a grillable on the grill or in another stock to take it; then choose what to give back.</Tip>
    </>
  );
}
