// A la carte, the kitchen game: every player's stove (knob, pan, dish or crepe, condiments and
// salt in it), the condiment dispensers, the heating die and the coffee cups. Point at a dispenser
// to season, at the die to roll, at a dish of the supply to take it, at the crepe to flip it.
import { Condiment, type Content, CrepeStatus, CupKind, Phase, type PlayerView, type View } from "../gen/sizzle/games/a_la_carte/v1/a_la_carte_pb.js";
import { seatColor } from "../ui/Seats.js";
import { useContent } from "./content.js";
import { matching, type Option, Spot, Tip, useChooser, useOptions } from "./parts.js";
import type { BoardProps } from "./types.js";

const CONDIMENT_NAMES: Record<number, string> = { [Condiment.PAPRIKA]: "paprika", [Condiment.LEMON]: "lemon",
  [Condiment.PEPPER]: "pepper", [Condiment.HERBS]: "herbs" };
const CONDIMENT_COLORS: Record<number, string> = { [Condiment.PAPRIKA]: "#e03131", [Condiment.LEMON]: "#fcc419",
  [Condiment.PEPPER]: "#343a40", [Condiment.HERBS]: "#37b24d" };
const CUP_NAMES: Record<number, string> = { [CupKind.VICTORY_POINT]: "victory point", [CupKind.SWAP_STOVES]: "swap stoves",
  [CupKind.THREE_SPOONS]: "three spoons", [CupKind.RESEASON]: "re-season", [CupKind.LOWER_HEAT]: "lower heat" };
const PHASES: Record<number, string> = { [Phase.CHOOSE_DISH]: "choose a dish", [Phase.ACTIONS]: "take actions",
  [Phase.CHOOSE_HEAT]: "choose the heat", [Phase.TAKE_CUP]: "take a cup", [Phase.SPOILED]: "the dish spoiled",
  [Phase.CREPE_ROLL]: "roll for the crepe", [Phase.CREPE_FLIP]: "flip the crepe" };
const MAX_HEAT_SHOWN = 8;

function Stove({ player, x, y, mine, toMove, options, choose, content }: { player: PlayerView; x: number; y: number;
  mine: boolean; toMove: boolean; options: Option[]; choose: (o: Option[], label: string) => void; content?: Content }) {
  const stove = player.stove;
  const heat = stove?.heat ?? 0;
  const others = [...matching(options, "swapStoves", (v) => v.seat === player.seat), ...matching(options, "reseason", (v) => v.seat === player.seat),
    ...matching(options, "takeCup", (v) => v.seat === player.seat)];
  const pan = stove?.pan ?? [];
  return (
    <Spot options={others} choose={choose} label={`seat ${player.seat}'s stove`}>
      <rect x={x} y={y} width={196} height={190} rx={12} class={`seat-row ${toMove ? "to-move" : ""}`} stroke={seatColor(player.seat)} />
      <text x={x + 10} y={y + 20} class="label" fill={seatColor(player.seat)}>{mine ? "You" : `Seat ${player.seat}`} · {player.points} pts</text>
      <circle cx={x + 98} cy={y + 96} r={54} class="pan" />
      {stove?.crepe ? <circle cx={x + 98} cy={y + 96} r={40} fill="#ffe8a1" stroke="#e67700" /> : null}
      {stove && stove.dish >= 0 && <DishLabel x={x + 98} y={y + 62} dish={stove.dish} content={content} />}
      {pan.map((count, i) => Array.from({ length: Math.min(count, 8) }, (_, j) => (
        <circle key={`${i}-${j}`} cx={x + 66 + i * 20} cy={y + 90 + j * 7} r={5} fill={CONDIMENT_COLORS[i + 1] ?? "#adb5bd"} stroke="#fff" />
      )))}
      {Array.from({ length: Math.min(stove?.salt ?? 0, 6) }, (_, j) => <rect key={j} x={x + 80 + j * 7} y={y + 130} width={5} height={5} fill="#fff" stroke="#868e96" />)}
      <text x={x + 10} y={y + 170} class="small">heat {heat}</text>
      {Array.from({ length: MAX_HEAT_SHOWN }, (_, k) => (
        <rect key={k} x={x + 60 + k * 16} y={y + 160} width={13} height={12} rx={2} fill={k < heat ? "#f03e3e" : "#e9ecef"} stroke="#868e96" />
      ))}
      <text x={x + 10} y={y + 185} class="small">{player.finished.length} served · {player.stars}★ · crepe {crepeText(player.crepe)}</text>
    </Spot>
  );
}

function DishLabel({ x, y, dish, content }: { x: number; y: number; dish: number; content?: Content }) {
  const d = content?.dishes.find((candidate) => candidate.id === dish);
  if (!d) return <text x={x} y={y} text-anchor="middle" class="small light">dish #{dish}</text>;
  const needs = d.needs.map((n) => `${n.count} ${CONDIMENT_NAMES[n.condiment] ?? "?"}`).join(", ");
  return (
    <g>
      <text x={x} y={y} text-anchor="middle" class="small light">{d.name}</text>
      <text x={x} y={y + 13} text-anchor="middle" class="small light">heat {d.heatMin}–{d.heatMax}, burns at {d.burntAt}</text>
      {needs && <text x={x} y={y + 26} text-anchor="middle" class="small light">{needs}</text>}
    </g>
  );
}

function crepeText(status: CrepeStatus): string {
  return status === CrepeStatus.IN_PAN ? "in pan" : status === CrepeStatus.FINISHED ? "done" : status === CrepeStatus.BURNT ? "burnt" : "unused";
}

export function AlaCarteBoard({ view, legal, busy, mySeat, onAct, gameId }: BoardProps<View>) {
  const content = useContent<Content>(gameId);
  const options = useOptions(legal);
  const { choose, chooser } = useChooser(onAct, busy);
  const perRow = 3;
  const rows = Math.ceil(view.players.length / perRow);
  const top = 130;
  const height = top + rows * 200;
  const roll = [...matching(options, "rollDie"), ...matching(options, "chooseHeat")];
  const crepe = [...matching(options, "flipCrepe"), ...matching(options, "stopFlipping"), ...matching(options, "placeCrepe")];
  return (
    <>
      <svg viewBox={`0 0 640 ${height}`} role="group" aria-label="The kitchen: stoves, dispensers, die and cups">
        <text x={10} y={20} class="label">{PHASES[view.phase] ?? ""}{view.actionsLeft ? ` · ${view.actionsLeft} actions left` : ""}</text>
        {view.dispensers.map((d, i) => {
          const season = [...matching(options, "season", (v) => v.dispenser === d.condiment),
            ...matching(options, "reseason", (v) => v.dispenser === d.condiment)];
          return (
            <Spot key={i} options={season} choose={choose} label={`the ${CONDIMENT_NAMES[d.condiment] ?? "condiment"} dispenser`}>
              <rect x={10 + i * 80} y={32} width={66} height={84} rx={10} fill="#f8f9fa" stroke={CONDIMENT_COLORS[d.condiment] ?? "#868e96"} stroke-width={3} />
              <text x={43 + i * 80} y={52} text-anchor="middle" class="small">{CONDIMENT_NAMES[d.condiment] ?? "?"}</text>
              <text x={43 + i * 80} y={76} text-anchor="middle" class="label">{d.pieces}</text>
              <text x={43 + i * 80} y={100} text-anchor="middle" class="small">salt {d.salt}</text>
            </Spot>
          );
        })}
        <Spot options={roll} choose={choose} label="the heating die">
          <rect x={350} y={40} width={64} height={64} rx={12} fill="#fff" stroke="#212529" stroke-width={2} />
          <text x={382} y={80} text-anchor="middle" class="label">{view.lastFace ? `${view.lastFace}` : "?"}</text>
          <text x={382} y={118} text-anchor="middle" class="small">die</text>
        </Spot>
        <Spot options={crepe} choose={choose} label="the crepe">
          <circle cx={470} cy={72} r={32} fill="#ffe8a1" stroke="#e67700" stroke-width={2} />
          <text x={470} y={76} text-anchor="middle" class="small">crepe</text>
          <text x={470} y={118} text-anchor="middle" class="small">flips {view.flipsThisTurn}</text>
        </Spot>
        <g aria-label="coffee tray">
          <text x={530} y={52} class="small">cups on tray</text>
          {view.tray.map((count, i) => <text key={i} x={530} y={70 + i * 13} class="small">{CUP_NAMES[i + 1] ?? i}: {count}</text>)}
        </g>
        {view.players.map((p, i) => (
          <Stove key={p.seat} player={p} x={8 + (i % perRow) * 210} y={top + Math.floor(i / perRow) * 200} mine={p.seat === mySeat}
            toMove={p.seat === view.core?.seatToMove} options={options} choose={choose} content={content} />
        ))}
      </svg>
      {matching(options, "chooseDish").length > 0 && (
        <div class="hand" role="group" aria-label="Dishes in the supply">
          {matching(options, "chooseDish").map((o) => (
            <button type="button" key={o.legal.actionId} class="playing-card" disabled={busy} onClick={() => onAct(o.legal)}>
              {o.legal.description}</button>
          ))}
        </div>
      )}
      {chooser}
      <Tip>Point at a dispenser to season your dish, at the die to roll, at another stove for a coffee break.</Tip>
    </>
  );
}
