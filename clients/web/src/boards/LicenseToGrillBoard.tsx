// License to Grill: the grill (Warming Rack above the Main Grill, meat half left of the line,
// veggie half right), the two knobs, each player's Prepare and Rest areas with their tiles and
// track cubes, the recipes on show and the tablecloth. Tiles are placed by pointing: choose a
// rotation, then the square for the tile's top-left corner; the server lists the squares allowed.
import { useState } from "preact/hooks";
import { ActionKind, type Content, Phase, type Player, Spot as TileSpot, type View } from "../gen/sizzle/games/license_to_grill/v1/license_to_grill_pb.js";
import { seatColor } from "../ui/Seats.js";
import { useContent } from "./content.js";
import { matching, type Option, Spot, Tip, useChooser, useOptions } from "./parts.js";
import type { BoardProps } from "./types.js";

const CELL = 22;

/** The squares of a tile drawing turned `quarter` times clockwise, as [row, col] pairs. */
export function tileSquares(drawing: string[], quarter: number): [number, number][] {
  let grid = drawing.map((row) => [...row].map((c) => c === "#"));
  for (let q = 0; q < ((quarter % 4) + 4) % 4; q++) {
    const rows = grid.length;
    const cols = grid[0]?.length ?? 0;
    grid = Array.from({ length: cols }, (_, r) => Array.from({ length: rows }, (_, c) => grid[rows - 1 - c][r]));
  }
  const squares: [number, number][] = [];
  grid.forEach((row, r) => row.forEach((on, c) => { if (on) squares.push([r, c]); }));
  return squares;
}

function Tile({ drawing, rotation, row, col, x, y, color, label }: { drawing: string[]; rotation: number; row: number;
  col: number; x: number; y: number; color: string; label: string }) {
  return (
    <g aria-label={label}>
      <title>{label}</title>
      {tileSquares(drawing, rotation).map(([r, c]) => (
        <rect key={`${r}-${c}`} x={x + (col + c) * CELL + 1} y={y + (row + r) * CELL + 1} width={CELL - 2} height={CELL - 2}
          rx={3} fill={color} stroke="#212529" />
      ))}
    </g>
  );
}

/** A grid whose squares act when a legal Place names them as the tile's corner (at the chosen rotation). */
function Grid({ rows, cols, x, y, places, rotation, choose, label, shade }: { rows: number; cols: number; x: number; y: number;
  places: Option[]; rotation: number; choose: (o: Option[], label: string) => void; label: string; shade?: (r: number, c: number) => string }) {
  return (
    <g aria-label={label}>
      {Array.from({ length: rows }, (_, r) => Array.from({ length: cols }, (_, c) => {
        const here = places.filter((o) => o.value.row === r && o.value.col === c && o.value.rotation === rotation);
        return (
          <Spot key={`${r}-${c}`} options={here} choose={choose} label={`${label}, row ${r + 1}, column ${c + 1}`} class={here.length ? "target" : ""}>
            <rect x={x + c * CELL} y={y + r * CELL} width={CELL} height={CELL} class="cell" fill={shade?.(r, c) ?? "#f1f3f5"} />
          </Spot>
        );
      }))}
    </g>
  );
}

export function LicenseToGrillBoard({ view, legal, busy, mySeat, onAct, gameId, match }: BoardProps<View>) {
  const content = useContent<Content>(gameId);
  const options = useOptions(legal);
  const { choose, chooser } = useChooser(onAct, busy);
  const places = matching(options, "place");
  const rotations = [...new Set(places.map((o) => o.value.rotation as number))].sort();
  const [picked, setPicked] = useState(0);
  const rotation = rotations.includes(picked) ? picked : rotations[0] ?? 0;
  if (!content) return <p>Loading the grill…</p>;
  const grill = content.grill!;
  const grillRows = grill.warmingRackRows + grill.mainGrillRows;
  const recipes = content.recipes;
  const prepare = content.prepareArea!;
  const rest = content.restArea!;
  const numPlayers = view.players.length;
  const tableCols = content.tablecloth?.lengths.find((l) => l.players === numPlayers)?.cols ?? content.tablecloth?.rows[0]?.length ?? 0;
  const tableRows = content.tablecloth?.rows.length ?? 0;
  const pending = view.pendingKind;
  const target = places.length === 0 ? "" : pending === ActionKind.PREPARE ? "prepare" : pending === ActionKind.REST ? "rest"
    : pending === ActionKind.SERVE ? "table" : "grill";
  const knob = (index: number) => content.knobs?.settings[index]?.name ?? String(index);

  const gx = 10;
  const gy = 40;
  const grillWidth = grill.cols * CELL;
  const tableY = gy + grillRows * CELL + 40;
  const playersY = tableY + tableRows * CELL + 40;
  const boardHeight = Math.max(prepare.rows, rest.rows) * CELL + 70;
  const height = playersY + numPlayers * boardHeight;
  const width = Math.max(grillWidth + 220, tableCols * CELL + 20, (prepare.cols + rest.cols) * CELL + 260);
  const ownRecipes = (p: Player, spot: TileSpot) => p.recipes.filter((r) => r.spot === spot);
  const chooseRecipe = (card: number) => options.filter((o) => o.kind !== "place" && (o.value as { card?: number }).card === card);
  return (
    <>
      {rotations.length > 1 && (
        <div class="hand" role="group" aria-label="Rotation of the tile">
          {rotations.map((r) => (
            <button type="button" key={r} aria-pressed={r === rotation} class={r === rotation ? "chosen" : ""} onClick={() => setPicked(r)}>
              turn {r * 90}°</button>
          ))}
          <span class="hint">then point at the square for the tile's top-left corner</span>
        </div>
      )}
      <svg viewBox={`0 0 ${width} ${height}`} role="group" aria-label="The grill, the tablecloth and the player boards">
        <text x={gx} y={20} class="label">Grill · meat knob {knob(view.meatKnob)} · veggie knob {knob(view.veggieKnob)}</text>
        <Grid rows={grillRows} cols={grill.cols} x={gx} y={gy} places={target === "grill" ? places : []} rotation={rotation} choose={choose}
          label="the grill" shade={(r, c) => (r < grill.warmingRackRows ? "#fff3bf" : c < grill.meatCols ? "#ffc9c9" : "#d3f9d8")} />
        <line x1={gx + grill.meatCols * CELL} y1={gy - 6} x2={gx + grill.meatCols * CELL} y2={gy + grillRows * CELL + 6} stroke="#212529" stroke-width={3} />
        <line x1={gx} y1={gy + grill.warmingRackRows * CELL} x2={gx + grillWidth} y2={gy + grill.warmingRackRows * CELL} stroke="#495057" stroke-dasharray="4 3" />
        {view.players.flatMap((p, seat) => ownRecipes(p, TileSpot.GRILL).map((r) => (
          <Tile key={`${seat}-${r.card}`} drawing={recipes[r.card]?.tile ?? []} rotation={r.rotation} row={r.row} col={r.col} x={gx} y={gy}
            color={seatColor(seat)} label={`${recipes[r.card]?.name}, seat ${seat}, grill track ${r.grillCube + 1}`} />
        )))}
        <g aria-label="recipes on show">
          <text x={gx + grillWidth + 20} y={gy + 4} class="small">On show (meat {view.meatCoolerSize} / veggie {view.veggieCoolerSize} in the coolers)</text>
          {[...view.meatOnShow, ...view.veggieOnShow].map((card, i) => (
            <Spot key={card} options={matching(options, "prepare", (v) => v.card === card)} choose={choose} label={recipes[card]?.name ?? `recipe ${card}`}>
              <rect x={gx + grillWidth + 20} y={gy + 12 + i * 24} width={190} height={20} rx={4} class="recipe-card" />
              <text x={gx + grillWidth + 26} y={gy + 26 + i * 24} class="small">{recipes[card]?.name ?? card}</text>
            </Spot>
          ))}
        </g>
        <text x={gx} y={tableY - 8} class="label">Tablecloth</text>
        <Grid rows={tableRows} cols={tableCols} x={gx} y={tableY} places={target === "table" ? places : []} rotation={rotation} choose={choose}
          label="the tablecloth" shade={(r, c) => (content.tablecloth?.rows[r]?.[c] ?? ".") === "." ? "#f8f9fa" : "#e5dbff"} />
        {content.tablecloth?.rows.map((row, r) => [...row.slice(0, tableCols)].map((symbol, c) => symbol !== "." && (
          <text key={`${r}-${c}`} x={gx + c * CELL + CELL / 2} y={tableY + r * CELL + 15} text-anchor="middle" class="small">{symbol}</text>
        )))}
        {view.table.map((piece, i) => (
          <Tile key={i} drawing={recipes[piece.card]?.tile ?? []} rotation={piece.rotation} row={piece.row} col={piece.col} x={gx} y={tableY}
            color={seatColor(piece.seat)} label={`${recipes[piece.card]?.name}, served by seat ${piece.seat}`} />
        ))}
        {view.players.map((p, seat) => {
          const y = playersY + seat * boardHeight;
          const px = gx;
          const rx = gx + prepare.cols * CELL + 30;
          const mine = seat === mySeat;
          return (
            <g key={seat} aria-label={`seat ${seat}'s board`}>
              <rect x={2} y={y - 4} width={width - 4} height={boardHeight - 8} rx={8} class={`seat-row ${seat === view.core?.seatToMove ? "to-move" : ""}`} stroke={seatColor(seat)} />
              <text x={px + 4} y={y + 14} class="label" fill={seatColor(seat)}>{mine ? "You" : match.seats[seat]?.displayName || `Seat ${seat}`} · {p.score} points · {p.served.length} served</text>
              <Grid rows={prepare.rows} cols={prepare.cols} x={px} y={y + 24} places={mine && target === "prepare" ? places : []} rotation={rotation}
                choose={choose} label={`seat ${seat}'s Prepare area`} />
              {ownRecipes(p, TileSpot.PREPARE).map((r) => (
                <Tile key={r.card} drawing={recipes[r.card]?.tile ?? []} rotation={r.rotation} row={r.row} col={r.col} x={px} y={y + 24}
                  color={seatColor(seat)} label={`${recipes[r.card]?.name} being prepared`} />
              ))}
              <Grid rows={rest.rows} cols={rest.cols} x={rx} y={y + 24} places={mine && target === "rest" ? places : []} rotation={rotation}
                choose={choose} label={`seat ${seat}'s Rest area`} />
              {ownRecipes(p, TileSpot.REST).map((r) => (
                <Tile key={r.card} drawing={recipes[r.card]?.tile ?? []} rotation={r.rotation} row={r.row} col={r.col} x={rx} y={y + 24}
                  color={seatColor(seat)} label={`${recipes[r.card]?.name} resting`} />
              ))}
              {p.recipes.map((r, k) => {
                const acts = mine ? chooseRecipe(r.card) : [];
                const recipe = recipes[r.card];
                return (
                  <Spot key={r.card} options={acts} choose={choose} label={recipe?.name ?? `recipe ${r.card}`}>
                    <text x={rx + rest.cols * CELL + 20} y={y + 34 + k * 16} class="small">
                      {recipe?.name ?? r.card}: prepare {r.prepareCube}/{recipe?.prepareTrack.length ?? "?"}
                      {r.grillCube >= 0 ? ` · grill ${r.grillCube}/${recipe?.grillTrack.length ?? "?"}` : ""}
                      {r.restCube >= 0 ? ` · rest ${r.restCube}/${recipe?.restTrack.length ?? "?"}` : ""}
                      {r.seasonCubes ? ` · season ${r.seasonCubes}` : ""}{r.sauceCubes ? ` · sauce ${r.sauceCubes}` : ""}
                      {acts.length ? " ▸" : ""}
                    </text>
                  </Spot>
                );
              })}
            </g>
          );
        })}
      </svg>
      {chooser}
      <Tip>{view.phase === Phase.PLACE ? "Choose a rotation, then point at the highlighted square where the tile's top-left corner goes."
        : "Point at a recipe on show to prepare it, at one of yours for its next step; the list below has every choice."}</Tip>
    </>
  );
}
