// A la carte, the card game: the deck and the discard pile, the seat's hand by course, and every
// player's served dishes. Point at the deck or the pile to draw, at a course in hand to discard it.
import { Course, Phase, type View } from "../gen/sizzle/games/a_la_carte_cards/v1/a_la_carte_cards_pb.js";
import { seatColor } from "../ui/Seats.js";
import { matching, Spot, Tip, useChooser, useOptions } from "./parts.js";
import type { BoardProps } from "./types.js";

const COURSES = [Course.APPETIZER, Course.MAIN_COURSE, Course.DESSERT];
const COURSE_NAMES: Record<number, string> = { [Course.APPETIZER]: "appetizer", [Course.MAIN_COURSE]: "main course",
  [Course.DESSERT]: "dessert", [Course.UNSPECIFIED]: "card" };
const COURSE_COLORS: Record<number, string> = { [Course.APPETIZER]: "#8ce99a", [Course.MAIN_COURSE]: "#ffa94d",
  [Course.DESSERT]: "#f783ac", [Course.UNSPECIFIED]: "#ced4da" };

function Card({ x, y, course, text, faceDown = false }: { x: number; y: number; course: Course; text?: string; faceDown?: boolean }) {
  return (
    <g>
      <rect x={x} y={y} width={54} height={76} rx={6} fill={faceDown ? "#495057" : COURSE_COLORS[course]} stroke="#212529" />
      <text x={x + 27} y={y + 42} text-anchor="middle" class="small" fill={faceDown ? "#fff" : "#212529"}>
        {text ?? (faceDown ? "Sizzle" : COURSE_NAMES[course])}</text>
    </g>
  );
}

export function CardsBoard({ view, legal, busy, mySeat, onAct }: BoardProps<View>) {
  const options = useOptions(legal);
  const { choose, chooser } = useChooser(onAct, busy);
  const top = view.discardPile[view.discardPile.length - 1];
  const me = view.players.find((p) => p.seat === mySeat);
  const rows = view.players.length;
  const height = 140 + rows * 70;
  const phase = view.phase === Phase.DRAW ? "draw a card" : view.phase === Phase.SERVE ? "serve dishes" :
    view.phase === Phase.DISCARD ? "discard a card" : "";
  return (
    <>
      <svg viewBox={`0 0 640 ${height}`} role="group" aria-label="The kitchen: deck, discard pile and served dishes">
        <text x={10} y={20} class="label">Round {view.round} of {view.roundsLimit || "?"}{phase ? ` · ${phase}` : ""}</text>
        <Spot options={matching(options, "drawFromDeck")} choose={choose} label="the deck">
          <Card x={20} y={34} course={Course.UNSPECIFIED} faceDown text={`deck ${view.deckSize}`} />
        </Spot>
        <Spot options={matching(options, "takeDiscard")} choose={choose} label="the discard pile">
          {top !== undefined ? <Card x={94} y={34} course={top} /> :
            <rect x={94} y={34} width={54} height={76} rx={6} class="empty-slot" />}
          <text x={121} y={124} text-anchor="middle" class="small">pile {view.discardPile.length}</text>
        </Spot>
        {view.players.map((p, i) => {
          const y = 140 + i * 70;
          const served = p.served.reduce((a, b) => a + b, 0);
          return (
            <g key={p.seat}>
              <rect x={4} y={y} width={632} height={62} rx={8} class={`seat-row ${p.seat === view.core?.seatToMove ? "to-move" : ""}`} stroke={seatColor(p.seat)} />
              <text x={14} y={y + 22} class="label" fill={seatColor(p.seat)}>{p.seat === mySeat ? "You" : `Seat ${p.seat}`}</text>
              <text x={14} y={y + 44} class="small">{p.handSize} cards in hand{p.known.some((k) => k > 0) ? ` (known: ${COURSES.map((c, k) => p.known[k] ? `${p.known[k]} ${COURSE_NAMES[c]}` : "").filter(Boolean).join(", ")})` : ""}</text>
              <text x={300} y={y + 22} class="small">{served} dishes served · {p.servedPoints} points</text>
              {Array.from({ length: Math.min(served, 12) }, (_, k) => (
                <rect key={k} x={300 + k * 16} y={y + 32} width={12} height={20} rx={2} fill="#fab005" stroke="#212529" />
              ))}
              {p.hand.length > 0 && <text x={14} y={y + 58} class="small">score now {p.score}</text>}
            </g>
          );
        })}
      </svg>
      {me && me.hand.length > 0 && (
        <div class="hand" role="group" aria-label="Your hand by course">
          {COURSES.map((course, k) => {
            const discards = matching(options, "discard", (v) => v.course === course);
            return Array.from({ length: me.hand[k] ?? 0 }, (_, j) => (
              <button type="button" key={`${course}-${j}`} class="playing-card" style={{ background: COURSE_COLORS[course] }}
                disabled={busy || discards.length === 0} onClick={() => choose(discards, COURSE_NAMES[course])}
                aria-label={discards.length ? `discard a ${COURSE_NAMES[course]}` : `${COURSE_NAMES[course]} in hand`}>
                {COURSE_NAMES[course]}
              </button>
            ));
          })}
        </div>
      )}
      {matching(options, "serve").length > 0 && (
        <div class="hand" role="group" aria-label="Dishes you can serve">
          {matching(options, "serve").map((o) => (
            <button type="button" key={o.legal.actionId} disabled={busy} onClick={() => onAct(o.legal)}>{o.legal.description}</button>
          ))}
        </div>
      )}
      {chooser}
      <Tip>Point at the deck or the discard pile to draw; at a card in your hand to discard it.</Tip>
    </>
  );
}
