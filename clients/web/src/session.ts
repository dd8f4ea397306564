// Who this browser is: the player's token (a guest's or an account's), and the seat tokens of the matches it sits at,
// kept in localStorage so a reload, or a second tab of the same seat, acts for the same seat.
import { authApi, withToken } from "./api.js";

export interface Guest {
  playerId: string;
  token: string;
  name: string;
  expiresMs: number;
}

export interface SeatTicket {
  seat: number;
  token: string;
}

const GUEST_KEY = "sizzle.guest";
const seatKey = (matchId: string) => `sizzle.seat.${matchId}`;

function read<T>(key: string): T | undefined {
  try {
    const raw = localStorage.getItem(key);
    return raw ? (JSON.parse(raw) as T) : undefined;
  } catch {
    return undefined;
  }
}

export function currentGuest(): Guest | undefined {
  const guest = read<Guest>(GUEST_KEY);
  return guest && guest.expiresMs > Date.now() + 60_000 ? guest : undefined;
}

export async function signInAsGuest(name: string): Promise<Guest> {
  const response = await authApi.createGuest({ displayName: name.trim() }, withToken(undefined));
  const guest = { playerId: response.playerId, token: response.token, name: name.trim(),
    expiresMs: Number(response.expiresUnixMs) };
  localStorage.setItem(GUEST_KEY, JSON.stringify(guest));
  window.dispatchEvent(new Event("sizzle-session"));
  return guest;
}

/** Signs in with an account (AuthService.Login), or creates it first (Register). */
export async function signInWithAccount(username: string, password: string, register: boolean): Promise<Guest> {
  const request = { username: username.trim(), password };
  const response = register ? await authApi.register(request, withToken(undefined))
    : await authApi.login(request, withToken(undefined));
  const player = { playerId: response.playerId, token: response.token, name: response.username,
    expiresMs: Number(response.expiresUnixMs) };
  localStorage.setItem(GUEST_KEY, JSON.stringify(player));
  window.dispatchEvent(new Event("sizzle-session"));
  return player;
}

export function signOut(): void {
  localStorage.removeItem(GUEST_KEY);
  window.dispatchEvent(new Event("sizzle-session"));
}

export function seatFor(matchId: string): SeatTicket | undefined {
  return read<SeatTicket>(seatKey(matchId));
}

export function rememberSeat(matchId: string, seat: number, token: string): void {
  localStorage.setItem(seatKey(matchId), JSON.stringify({ seat, token }));
}

/** Drops a seat the player left: its token acts for nothing any more, so the page follows the match as a spectator. */
export function forgetSeat(matchId: string): void {
  localStorage.removeItem(seatKey(matchId));
  window.dispatchEvent(new Event("sizzle-session"));
}
