// The shell: sign-in when no key is held, else the navigation and the page the fragment names.
import { useEffect, useState } from 'preact/hooks';
import { onKeyRefused } from './api';
import { AgentsPage } from './pages/agents';
import { ClusterPage } from './pages/cluster';
import { CreditsPage } from './pages/credits';
import { DirectoryPage } from './pages/directory';
import { TaskDetail, TasksPage } from './pages/tasks';
import { UsagePage } from './pages/usage';
import { WebhooksPage } from './pages/webhooks';
import { href, useRoute } from './route';
import { clearSession, loadSession, type Session } from './session';
import { SignIn } from './sign-in';

const PAGES = [
  ['agents', 'Agents'],
  ['webhooks', 'Webhooks'],
  ['usage', 'Usage and messages'],
  ['credits', 'Alerts and credits'],
  ['tasks', 'Tasks'],
  ['directory', 'Directory'],
] as const;

export function App() {
  const [session, setSession] = useState<Session | null>(loadSession);
  const [reason, setReason] = useState<string>();
  const [page = 'agents', arg] = useRoute();

  useEffect(
    () =>
      onKeyRefused(() => {
        clearSession();
        setSession(null);
        setReason('The hub refused the admin key (wrong, revoked or rotated). Sign in again.');
      }),
    []
  );

  if (!session)
    return <SignIn reason={reason} onSignedIn={(s) => (setReason(undefined), setSession(s))} />;

  const pages: ReadonlyArray<readonly [string, string]> = session.adminToken
    ? [...PAGES, ['cluster', 'Cluster']]
    : PAGES;
  const signOut = () => {
    clearSession();
    setSession(null);
  };
  let body;
  switch (page) {
    case 'webhooks':
      body = <WebhooksPage />;
      break;
    case 'usage':
      body = <UsagePage />;
      break;
    case 'credits':
      body = <CreditsPage />;
      break;
    case 'tasks':
      body = arg ? <TaskDetail id={arg} /> : <TasksPage />;
      break;
    case 'directory':
      body = <DirectoryPage />;
      break;
    case 'cluster':
      body = session.adminToken ? (
        <ClusterPage />
      ) : (
        <p>The Cluster page needs the operator token.</p>
      );
      break;
    default:
      body = <AgentsPage />;
  }
  return (
    <div class="shell">
      <button type="button" class="skip" onClick={() => document.getElementById('main')?.focus()}>
        Skip to content
      </button>
      <header>
        <span class="brand">Burrow</span>
        <nav aria-label="Pages">
          {pages.map(([id, label]) => (
            <a key={id} href={href(id)} aria-current={id === page ? 'page' : undefined}>
              {label}
            </a>
          ))}
        </nav>
        <button type="button" class="link" onClick={signOut}>
          Sign out
        </button>
      </header>
      <main id="main" tabIndex={-1}>
        {body}
      </main>
    </div>
  );
}
