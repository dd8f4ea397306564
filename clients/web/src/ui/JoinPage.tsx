// A join link (#/join/MATCH): sign in if needed, take an open seat, then play.
import { useEffect, useState } from "preact/hooks";
import { explain, matchApi, withToken } from "../api.js";
import { go } from "../router.js";
import { rememberSeat, seatFor } from "../session.js";
import { useGuest } from "./hooks.js";
import { SignIn } from "./SignIn.js";

export function JoinPage({ matchId }: { matchId: string }) {
  const guest = useGuest();
  const [problem, setProblem] = useState("");
  useEffect(() => {
    if (!guest) return;
    if (seatFor(matchId)) {
      go(`/match/${encodeURIComponent(matchId)}`);
      return;
    }
    matchApi.joinMatch({ matchId }, withToken(guest.token)).then((joined) => {
      rememberSeat(matchId, joined.seat, joined.seatToken);
      go(`/match/${encodeURIComponent(matchId)}`);
    }, (error: unknown) => setProblem(explain(error)));
  }, [guest?.token, matchId]);
  return (
    <section aria-labelledby="join-title">
      <h1 id="join-title">Join a match</h1>
      {!guest && <SignIn purpose="A friend invited you to a match. Choose a name to take your seat." />}
      {guest && !problem && <p role="status">Taking a seat…</p>}
      {problem && (
        <>
          <p role="alert" class="problem">Could not join: {problem}</p>
          <p><a href={`#/match/${encodeURIComponent(matchId)}`}>Watch the match instead</a></p>
        </>
      )}
    </section>
  );
}
