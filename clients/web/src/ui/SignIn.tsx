// Signing in: as a guest (a name, and a player token from AuthService.CreateGuest), or with an
// account (Login, or Register for a new one).
import { useState } from "preact/hooks";
import { explain } from "../api.js";
import { signInAsGuest, signInWithAccount } from "../session.js";

export function SignIn({ purpose }: { purpose: string }) {
  const [name, setName] = useState("");
  const [problem, setProblem] = useState("");
  const [busy, setBusy] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setProblem("");
    try {
      await signInAsGuest(name);
    } catch (error) {
      setProblem(explain(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div class="card signin">
    <form class="signin" onSubmit={submit} aria-labelledby="signin-title">
      <h2 id="signin-title">Sign in as a guest</h2>
      <p>{purpose}</p>
      <label for="guest-name">Your name</label>
      <input id="guest-name" name="name" value={name} maxLength={32} required autoComplete="nickname"
        onInput={(e) => setName((e.target as HTMLInputElement).value)} />
      <button type="submit" disabled={busy || !name.trim()}>Sign in</button>
      <p class="hint">A guest keeps its name in this browser only.</p>
      {problem && <p role="alert" class="problem">{problem}</p>}
    </form>
    <AccountSignIn />
    </div>
  );
}

function AccountSignIn() {
  const [username, setUsername] = useState("");
  const [password, setPassword] = useState("");
  const [problem, setProblem] = useState("");
  const [busy, setBusy] = useState(false);
  const go = async (register: boolean) => {
    setBusy(true);
    setProblem("");
    try {
      await signInWithAccount(username, password, register);
    } catch (error) {
      setProblem(explain(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <details class="account">
      <summary>Or sign in with an account</summary>
      <label for="account-name">Username</label>
      <input id="account-name" value={username} maxLength={32} autoComplete="username"
        onInput={(e) => setUsername((e.target as HTMLInputElement).value)} />
      <label for="account-password">Password (8 characters or more)</label>
      <input id="account-password" type="password" value={password} maxLength={128} autoComplete="current-password"
        onInput={(e) => setPassword((e.target as HTMLInputElement).value)} />
      <div class="row">
        <button type="button" disabled={busy || !username.trim() || password.length < 8} onClick={() => go(false)}>Log in</button>
        <button type="button" class="secondary" disabled={busy || !username.trim() || password.length < 8}
          onClick={() => go(true)}>Create the account</button>
      </div>
      {problem && <p role="alert" class="problem">{problem}</p>}
    </details>
  );
}
