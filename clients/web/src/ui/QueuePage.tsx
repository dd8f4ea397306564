// A matchmaking ticket as it waits (WatchTicket): the wait so far, when bots fill the table, and
// the match once it is formed.
import { useEffect, useState } from "preact/hooks";
import { explain, isTransient, matchmakingApi, sleep, withToken } from "../api.js";
import { type Ticket, TicketStatus } from "../gen/sizzle/matchmaking/v1/matchmaking_service_pb.js";
import { go } from "../router.js";
import { rememberSeat } from "../session.js";
import { useGuest, useNow } from "./hooks.js";
import { seconds } from "./names.js";
import { SignIn } from "./SignIn.js";

export function QueuePage({ ticketId }: { ticketId: string }) {
  const guest = useGuest();
  const [ticket, setTicket] = useState<Ticket>();
  const [problem, setProblem] = useState("");
  const now = useNow(500);
  useEffect(() => {
    if (!guest) return;
    const abort = new AbortController();
    (async () => {
      while (!abort.signal.aborted) {
        try {
          for await (const update of matchmakingApi.watchTicket({ ticketId },
            { ...withToken(guest.token), timeoutMs: undefined, signal: abort.signal })) {
            const t = update.ticket!;
            setTicket(t);
            if (t.status === TicketStatus.ASSIGNED && t.assignment) {
              rememberSeat(t.assignment.matchId, t.assignment.seat, t.assignment.seatToken);
              go(`/match/${encodeURIComponent(t.assignment.matchId)}`);
              return;
            }
          }
          return;
        } catch (error) {
          if (abort.signal.aborted) return;
          if (!isTransient(error)) {
            setProblem(explain(error));
            return;
          }
          await sleep(500, abort.signal);
        }
      }
    })();
    return () => abort.abort();
  }, [guest?.token, ticketId]);

  if (!guest) return <SignIn purpose="Sign in to see your place in the queue." />;
  const cancel = async () => {
    try {
      const response = await matchmakingApi.cancelTicket({ ticketId }, withToken(guest.token));
      setTicket(response.ticket);
    } catch (error) {
      setProblem(explain(error));
    }
  };
  const waited = ticket ? now - Number(ticket.createdUnixMs) : 0;
  const untilBots = ticket ? Number(ticket.waitDeadlineUnixMs) - now : 0;
  return (
    <section aria-labelledby="queue-page-title">
      <h1 id="queue-page-title">Finding a match{ticket ? ` of ${ticket.gameId.replaceAll("_", " ")}` : ""}</h1>
      {ticket && (
        <div class="card">
          <p role="status" data-testid="ticket-status">{describe(ticket.status)}</p>
          {ticket.status === TicketStatus.WAITING && (
            <>
              <p>Waiting for <strong data-testid="queue-wait">{seconds(waited)}</strong>; your rating {ticket.rating.toFixed(1)}.</p>
              <p>{ticket.allowBots ? `Bots fill the table in ${seconds(untilBots)} if nobody comes.`
                : `The ticket expires in ${seconds(untilBots)}.`}</p>
              <button type="button" onClick={cancel}>Leave the queue</button>
            </>
          )}
        </div>
      )}
      {!ticket && !problem && <p role="status">Joining the queue…</p>}
      {problem && <p role="alert" class="problem">{problem}</p>}
    </section>
  );
}

function describe(status: TicketStatus): string {
  switch (status) {
    case TicketStatus.WAITING: return "In the queue";
    case TicketStatus.ASSIGNED: return "A match is ready";
    case TicketStatus.CANCELLED: return "You left the queue";
    case TicketStatus.EXPIRED: return "Nobody came in time; the ticket expired";
    default: return "Unknown";
  }
}
