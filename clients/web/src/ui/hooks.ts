// Small hooks: the signed-in guest, a ticking clock, and an async loader.
import { useEffect, useState } from "preact/hooks";
import { currentGuest, type Guest } from "../session.js";

export function useGuest(): Guest | undefined {
  const [guest, setGuest] = useState(currentGuest());
  useEffect(() => {
    const changed = () => setGuest(currentGuest());
    window.addEventListener("sizzle-session", changed);
    window.addEventListener("storage", changed);
    return () => {
      window.removeEventListener("sizzle-session", changed);
      window.removeEventListener("storage", changed);
    };
  }, []);
  return guest;
}

export function useNow(everyMs = 1000): number {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}

export interface Loaded<T> {
  value?: T;
  error?: string;
  loading: boolean;
}

export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): Loaded<T> & { reload: () => void } {
  const [state, setState] = useState<Loaded<T>>({ loading: true });
  const [round, setRound] = useState(0);
  useEffect(() => {
    let live = true;
    setState((s) => ({ ...s, loading: true }));
    load().then((value) => live && setState({ value, loading: false }),
      (error: unknown) => live && setState({ error: error instanceof Error ? error.message : String(error), loading: false }));
    return () => { live = false; };
  }, [...deps, round]);
  return { ...state, reload: () => setRound((r) => r + 1) };
}
