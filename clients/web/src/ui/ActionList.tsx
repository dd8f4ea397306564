// The seat's legal actions, as the server lists them (the client never decides legality): one
// button each, grouped by kind, all reachable from the keyboard.
import type { LegalAction } from "../gen/sizzle/rules/v1/rules_service_pb.js";
import { unpack } from "../registry.js";

export function actionKind(action: LegalAction): string {
  const message = unpack(action.action) as { kind?: { case?: string } } | undefined;
  return message?.kind?.case ?? "";
}

function words(kind: string): string {
  return kind ? kind.replace(/([A-Z])/g, " $1").toLowerCase() : "actions";
}

export function ActionList({ legal, busy, onAct }: { legal: LegalAction[]; busy: boolean;
  onAct: (a: LegalAction) => void }) {
  const groups = new Map<string, LegalAction[]>();
  for (const action of legal) {
    const kind = actionKind(action);
    groups.set(kind, [...(groups.get(kind) ?? []), action]);
  }
  return (
    <section class="actions card" aria-labelledby="actions-title" data-testid="legal-actions">
      <h2 id="actions-title">Your move: {legal.length} {legal.length === 1 ? "choice" : "choices"}</h2>
      {[...groups.entries()].map(([kind, actions]) => (
        <fieldset key={kind} class="action-group">
          <legend>{words(kind)}</legend>
          {actions.map((a) => (
            <button key={a.actionId} type="button" disabled={busy} data-action-id={a.actionId}
              onClick={() => onAct(a)}>{a.description || `action ${a.actionId}`}</button>
          ))}
        </fieldset>
      ))}
    </section>
  );
}
