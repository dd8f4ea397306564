// Hash routes, so every page (and a join link) is a plain URL the web port serves as index.html:
// #/ (play), #/match/ID, #/join/ID, #/replay/ID, #/queue/TICKET, #/live, #/leaderboard/GAME.
import { useEffect, useState } from "preact/hooks";

export interface Route {
  page: string;
  arg: string;
}

export function parseRoute(hash: string): Route {
  const [page = "", arg = ""] = hash.replace(/^#\/?/, "").split("?")[0].split("/");
  try {
    return { page: page || "home", arg: decodeURIComponent(arg) };
  } catch {
    return { page: "home", arg: "" }; // a malformed escape (a link like #/join/%) is no id: the home page
  }
}

export function useRoute(): Route {
  const [route, setRoute] = useState(parseRoute(window.location.hash));
  useEffect(() => {
    const changed = () => setRoute(parseRoute(window.location.hash));
    window.addEventListener("hashchange", changed);
    return () => window.removeEventListener("hashchange", changed);
  }, []);
  return route;
}

export function go(path: string): void {
  window.location.hash = path;
}

/** The pause between two moves of other seats (bots) shown in turn, ms: `?pace=` on the page's URL. */
export function paceMs(): number {
  const pace = new URLSearchParams(window.location.search).get("pace");
  const value = pace === null ? NaN : Number(pace);
  return Number.isFinite(value) && value >= 0 ? value : 900;
}
