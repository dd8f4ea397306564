// The page: a header with the player and the navigation, and the page the hash names.
import { useRoute } from "../router.js";
import { signOut } from "../session.js";
import { useGuest } from "./hooks.js";
import { Home } from "./Home.js";
import { JoinPage } from "./JoinPage.js";
import { Leaderboard } from "./Leaderboard.js";
import { Live } from "./Live.js";
import { MatchPage } from "./MatchPage.js";
import { QueuePage } from "./QueuePage.js";
import { ReplayPage } from "./ReplayPage.js";

export function App() {
  const route = useRoute();
  const guest = useGuest();
  const page = (() => {
    switch (route.page) {
      case "match": return <MatchPage key={route.arg} matchId={route.arg} />;
      case "join": return <JoinPage key={route.arg} matchId={route.arg} />;
      case "replay": return <ReplayPage key={route.arg} matchId={route.arg} />;
      case "queue": return <QueuePage key={route.arg} ticketId={route.arg} />;
      case "live": return <Live />;
      case "leaderboard": return <Leaderboard gameId={route.arg} />;
      default: return <Home />;
    }
  })();
  return (
    <>
      <a class="skip" href="#main" onClick={(e) => { e.preventDefault(); document.getElementById("main")?.focus(); }}>
        Skip to the page
      </a>
      <header class="top">
        <a class="brand" href="#/">Sizzle</a>
        <nav aria-label="Main">
          <a href="#/" aria-current={route.page === "home" ? "page" : undefined}>Play</a>
          <a href="#/live" aria-current={route.page === "live" ? "page" : undefined}>Live matches</a>
          <a href="#/leaderboard" aria-current={route.page === "leaderboard" ? "page" : undefined}>Leaderboard</a>
        </nav>
        {guest && (
          <div class="who">
            <span>Signed in as <strong data-testid="player-name">{guest.name}</strong></span>
            <button type="button" class="link" onClick={signOut}>Sign out</button>
          </div>
        )}
      </header>
      <main id="main" tabIndex={-1}>{page}</main>
    </>
  );
}
