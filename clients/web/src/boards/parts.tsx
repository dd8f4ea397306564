// Pieces every board uses: legal actions unpacked once, board spots that act (keyboard and screen
// reader included), and a chooser for a spot that several legal actions name.
import type { ComponentChildren } from "preact";
import { useMemo, useState } from "preact/hooks";
import type { LegalAction } from "../gen/sizzle/rules/v1/rules_service_pb.js";
import { unpack } from "../registry.js";

export interface Option {
  legal: LegalAction;
  kind: string;
  // The chosen oneof case's message (e.g. the Exchange of an Action).
  value: Record<string, unknown>;
}

export function useOptions(legal: LegalAction[]): Option[] {
  return useMemo(() => legal.map((l) => {
    const action = unpack(l.action) as { kind?: { case?: string; value?: Record<string, unknown> } } | undefined;
    return { legal: l, kind: action?.kind?.case ?? "", value: action?.kind?.value ?? {} };
  }), [legal]);
}

export function matching(options: Option[], kind: string, test: (value: any) => boolean = () => true): Option[] {
  return options.filter((o) => o.kind === kind && test(o.value));
}

/** A board element that acts: the one legal action it names, or a choice among several. */
export function Spot({ options, choose, label, children, class: extra = "" }: { options: Option[];
  choose: (options: Option[], label: string) => void; label: string; children: ComponentChildren; class?: string }) {
  if (options.length === 0) return <g class={extra}>{children}</g>;
  const act = () => choose(options, label);
  return (
    <g class={`spot ${extra}`} role="button" tabIndex={0} aria-label={`${label}: ${options.length === 1
      ? options[0].legal.description : `${options.length} choices`}`}
      onClick={act} onKeyDown={(e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); act(); } }}>
      <title>{options.length === 1 ? options[0].legal.description : `${label}: ${options.length} choices`}</title>
      {children}
    </g>
  );
}

/** What a board shows when a spot names several actions: the choices, as buttons. */
export function useChooser(onAct: (a: LegalAction) => void, busy: boolean) {
  const [open, setOpen] = useState<{ options: Option[]; label: string }>();
  const choose = (options: Option[], label: string) => {
    if (busy) return;
    if (options.length === 1) {
      setOpen(undefined);
      onAct(options[0].legal);
    } else {
      setOpen({ options, label });
    }
  };
  const chooser = open && (
    <div class="chooser" role="dialog" aria-label={`Choose: ${open.label}`}>
      <p><strong>{open.label}</strong>: choose one</p>
      {open.options.map((o) => (
        <button type="button" key={o.legal.actionId} disabled={busy} ref={(el) => { if (el && o === open.options[0]) el.focus(); }}
          onClick={() => { setOpen(undefined); onAct(o.legal); }}>{o.legal.description}</button>
      ))}
      <button type="button" class="secondary" onClick={() => setOpen(undefined)}>Cancel</button>
    </div>
  );
  return { choose, chooser };
}

export function Tip({ children }: { children: ComponentChildren }) {
  return <p class="board-tip">{children}</p>;
}
