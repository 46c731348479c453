// What the `burrow` commands are given by the composition root (infra/bin/burrow.ts): the database,
// a best-effort notifier for other hub nodes, the card fetcher, the geocoder, and where to print.
import type { Db } from '../db/index.js';
import type { Geocoder } from '../geo/index.js';
import type { RemoteHub } from './remote.js';

export interface CliIo {
  /** One line of results on stdout. */
  out(line: string): void;
  /** One line of diagnostics on stderr. */
  err(line: string): void;
}

export interface Notice {
  subject: string;
  payload: unknown;
}

export interface CliContext {
  /** The database, created and migrated on first use (so `--help` needs none). */
  db(): Promise<Db>;
  /**
   * Tell running hub nodes that cached state changed. Best effort: never throws, warns on stderr
   * when NATS cannot be reached (cached copies then expire on their own within their TTL).
   */
  notify(notices: readonly Notice[]): Promise<void>;
  /** The agent card served at `<url>/.well-known/agent.json`; throws a HubError naming the URL. */
  fetchCard(url: string): Promise<object>;
  /**
   * Resolves `location:<address>` tags, chosen as the hub chooses (infra/geo createGeocoder: the
   * offline gazetteer, or the GEOCODER_URL service when configured).
   */
  geocoder: Geocoder;
  io: CliIo;
  /**
   * `burrow mcp`: the defaults (BURROW_URL, BURROW_API_KEY) and the stdio server itself; absent
   * where no MCP server can be run (tests of the other commands).
   */
  /**
   * The commands against a running hub's API (send, tasks, queue): their defaults (BURROW_URL,
   * BURROW_API_KEY), and the fetch they use (tests may pass their own).
   */
  hub?: {
    defaultUrl: string;
    defaultKey: string | undefined;
    fetch?: typeof globalThis.fetch;
  };
  /**
   * Set by the program when `burrow --url <hub>` is given: the management commands then call the
   * hub's API with `--key` instead of the database (and `db()` refuses).
   */
  remote?: RemoteHub;
  mcp?: {
    defaultUrl: string;
    defaultKey: string | undefined;
    /** Serves MCP on stdin/stdout until the client closes stdin. */
    serve(opts: { url: string; apiKey: string }): Promise<void>;
  };
}
