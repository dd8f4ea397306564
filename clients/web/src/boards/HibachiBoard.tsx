// Hibachi: the hot plate with its spaces (from the game's content) and every chip where it landed,
// face up or down; the chefs' money, hands and recipes. Choose a chip, then aim with the pointer
// anywhere on the plate (or pick a space from the keyboard): the server draws where it lands.
import { create } from "@bufbuild/protobuf";
import { anyPack } from "@bufbuild/protobuf/wkt";
import { useState } from "preact/hooks";
import { ActionSchema, ChipStatus, type Content, Ingredient, Phase, type View } from "../gen/sizzle/games/hibachi/v1/hibachi_pb.js";
import { seatColor } from "../ui/Seats.js";
import { useContent } from "./content.js";
import { matching, Spot, Tip, useChooser, useOptions } from "./parts.js";
import type { BoardProps } from "./types.js";

const PHASES: Record<number, string> = { [Phase.THROWING]: "throwing", [Phase.CLEANING]: "cleaning: activating chips" };

export function HibachiBoard({ view, legal, busy, mySeat, onAct, gameId }: BoardProps<View>) {
  const content = useContent<Content>(gameId);
  const options = useOptions(legal);
  const { choose, chooser } = useChooser(onAct, busy);
  const throws = matching(options, "throw");
  const values = [...new Set(throws.map((o) => o.value.chipValue as number))].sort((a, b) => a - b);
  const [chosen, setChosen] = useState<number>();
  const chip = chosen !== undefined && values.includes(chosen) ? chosen : values[0];
  const board = content?.board;
  const width = board?.width ?? 600;
  const height = board?.height ?? 400;
  const edge = board?.edgeWidth ?? 20;
  const radius = content?.chipOuterRadius ?? 18;

  const throwAt = (x: number, y: number) => {
    if (chip === undefined || busy) return;
    const action = create(ActionSchema, { kind: { case: "throw", value: { chipValue: chip, aimX: x, aimY: y } } });
    onAct({ structured: anyPack(ActionSchema, action) });
  };
  const aim = (e: MouseEvent) => {
    if (chip === undefined) return;
    const svg = e.currentTarget as SVGSVGElement;
    const point = svg.createSVGPoint();
    point.x = e.clientX;
    point.y = e.clientY;
    const local = point.matrixTransform(svg.getScreenCTM()!.inverse());
    throwAt(Math.round(local.x), Math.round(local.y));
  };
  const spaceActions = (id: number) => options.filter((o) => o.kind !== "throw" && o.kind !== "cook" && o.kind !== "doNothing"
    && (o.legal.description.includes(`[${board?.spaces[id]?.name}]`) || spaceOf(o.value, board?.spaces[id]?.ingredient)));
  return (
    <>
      {values.length > 0 && (
        <div class="hand" role="group" aria-label="Choose the chip to throw">
          {values.map((v) => (
            <button type="button" key={v} aria-pressed={v === chip} class={v === chip ? "chosen" : ""} onClick={() => setChosen(v)}>
              throw {v} yen chip</button>
          ))}
          <span class="hint">then point at the plate and click to throw</span>
        </div>
      )}
      <svg viewBox={`0 0 ${width} ${height}`} role="group" aria-label="The hot plate" onClick={throws.length ? aim : undefined}
        class={throws.length ? "aiming" : ""} data-testid="hibachi-plate">
        <rect x={0} y={0} width={width} height={height} rx={edge} class="plate-edge" />
        <rect x={edge} y={edge} width={width - 2 * edge} height={height - 2 * edge} rx={edge / 2} class="plate" />
        {board?.spaces.map((s) => {
          const here = spaceActions(s.id);
          const aimHere = chip !== undefined ? throws.filter((o) => o.value.chipValue === chip
            && Math.abs((o.value.aimX as number) - s.centreX) < s.halfWidth && Math.abs((o.value.aimY as number) - s.centreY) < s.halfHeight) : [];
          return (
            <Spot key={s.id} options={[...aimHere, ...here]} choose={choose} label={s.name}>
              <rect x={s.centreX - s.halfWidth} y={s.centreY - s.halfHeight} width={2 * s.halfWidth} height={2 * s.halfHeight}
                rx={s.cornerRadius} class={`space kind-${s.kind}`} />
              <text x={s.centreX} y={s.centreY} text-anchor="middle" class="label light">{s.name}</text>
            </Spot>
          );
        })}
        {view.chips.filter((c) => c.status === ChipStatus.ON_BOARD || c.status === ChipStatus.INVALID).map((c, i) => (
          <g key={i} aria-label={`seat ${c.owner}'s chip ${c.value !== undefined ? `of ${c.value}` : "face down"}`}>
            <circle cx={c.x} cy={c.y} r={radius} fill={seatColor(c.owner)} stroke="#fff" stroke-width={3}
              opacity={c.status === ChipStatus.INVALID ? 0.45 : 0.95} />
            <circle cx={c.x} cy={c.y} r={content?.chipHoleRadius ?? 5} fill="#212529" />
            <text x={c.x} y={c.y - radius - 4} text-anchor="middle" class="small light">{c.faceUp && c.value !== undefined ? c.value : c.value !== undefined ? `(${c.value})` : "?"}</text>
          </g>
        ))}
      </svg>
      <div class="chefs">
        {view.players.map((p) => (
          <p key={p.seat} class={p.seat === view.core?.seatToMove ? "to-move" : ""}>
            <span class="dot" style={{ background: seatColor(p.seat) }} aria-hidden="true" />
            <strong>{p.seat === mySeat ? "You" : `Seat ${p.seat}`}</strong>: {p.money} yen · {p.handSize} cards
            {p.hand.some((n) => n > 0) ? ` (${p.hand.map((n, i) => n ? `${n} ${content?.ingredients[i] !== undefined ? Ingredient[content.ingredients[i]].toLowerCase() : i}` : "").filter(Boolean).join(", ")})` : ""}
            {" "}· {p.throwsLeft} throws left · cooked {p.cooked.length}: {p.cooked.map((r) => content?.recipes[r]?.name ?? `#${r}`).join(", ") || "none"}
          </p>
        ))}
        <p>Round {view.round} · {PHASES[view.phase] ?? ""} · recipes on show: {view.recipesOnShow.map((r) => content?.recipes[r]?.name ?? `#${r}`).join(", ")}</p>
      </div>
      {chooser}
      <Tip>Choose a chip, then click the plate to throw it where you aim; the spaces also take Enter from the keyboard.</Tip>
    </>
  );
}

function spaceOf(value: Record<string, unknown>, ingredient: Ingredient | undefined): boolean {
  return ingredient !== undefined && ingredient !== Ingredient.UNSPECIFIED && value.ingredient === ingredient;
}
