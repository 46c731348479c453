// The signed-in keys live in sessionStorage only: gone when the tab closes, never in a URL, a
// cookie or localStorage, and sent only as an Authorization header to this origin.
const KEY = 'burrow.adminKey';
const TOKEN = 'burrow.adminToken';

export interface Session {
  /** The tenant admin key. */
  readonly key: string;
  /** The operator's ADMIN_TOKEN, when given: adds the Cluster page. */
  readonly adminToken: string | null;
}

export function loadSession(): Session | null {
  const key = sessionStorage.getItem(KEY);
  return key ? { key, adminToken: sessionStorage.getItem(TOKEN) } : null;
}

export function saveSession(s: Session): void {
  sessionStorage.setItem(KEY, s.key);
  if (s.adminToken) sessionStorage.setItem(TOKEN, s.adminToken);
  else sessionStorage.removeItem(TOKEN);
}

export function clearSession(): void {
  sessionStorage.removeItem(KEY);
  sessionStorage.removeItem(TOKEN);
}
