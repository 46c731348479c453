// Sign in with the tenant admin key (checked with GET /api/agents), and optionally the operator's
// ADMIN_TOKEN (checked with GET /debug/cluster). Both are kept in sessionStorage only.
import { useState } from 'preact/hooks';
import { get, operatorGet, describe } from './api';
import { Busy, ErrorNotice } from './parts/notice';
import { clearSession, saveSession, type Session } from './session';

export function SignIn({
  onSignedIn,
  reason,
}: {
  onSignedIn: (s: Session) => void;
  reason?: string;
}) {
  const [key, setKey] = useState('');
  const [token, setToken] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>(reason);

  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    const session: Session = { key: key.trim(), adminToken: token.trim() || null };
    saveSession(session);
    try {
      await get('/api/agents');
      if (session.adminToken) await operatorGet('/debug/cluster');
      onSignedIn(session);
    } catch (err) {
      clearSession();
      setError(describe(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <main class="signin">
      <h1>Burrow dashboard</h1>
      <form onSubmit={(e) => void submit(e)} aria-describedby="signin-help">
        <p id="signin-help">
          Sign in with your tenant admin key (<code>burrow keys create-admin --tenant NAME</code>).
          It stays in this tab's session storage and is sent only to this hub.
        </p>
        <label for="admin-key">Tenant admin key</label>
        <input
          id="admin-key"
          type="password"
          autoComplete="off"
          required
          value={key}
          onInput={(e) => setKey(e.currentTarget.value)}
        />
        <label for="admin-token">
          Operator token (ADMIN_TOKEN, optional: adds the Cluster page)
        </label>
        <input
          id="admin-token"
          type="password"
          autoComplete="off"
          value={token}
          onInput={(e) => setToken(e.currentTarget.value)}
        />
        <button type="submit" disabled={busy}>
          Sign in
        </button>
        <Busy when={busy} label="Checking the key…" />
        <ErrorNotice error={error} />
      </form>
    </main>
  );
}
