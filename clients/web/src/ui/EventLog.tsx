// What happened, in words, newest last; screen readers hear new lines as they come.
import { useEffect, useRef } from "preact/hooks";
import type { Match } from "../gen/sizzle/match/v1/match_service_pb.js";
import type { LoggedEvent } from "../follow.js";
import { seatName } from "./names.js";

export function EventLog({ log, match, mySeat, title = "What happened" }: { log: LoggedEvent[]; match?: Match;
  mySeat: number; title?: string }) {
  const list = useRef<HTMLOListElement>(null);
  useEffect(() => {
    const el = list.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [log.length]);
  return (
    <section class="log card" aria-labelledby="log-title">
      <h2 id="log-title">{title}</h2>
      <ol ref={list} aria-live="polite" aria-relevant="additions" data-testid="event-log">
        {log.map((e, i) => (
          <li key={i} class={e.seat === mySeat ? "mine" : ""}>
            <span class="who">{seatName(match, e.seat, mySeat)}:</span> {e.text}
          </li>
        ))}
      </ol>
    </section>
  );
}
