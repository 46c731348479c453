// What the `burrow` commands are given by the composition root (infra/bin/burrow.ts): the database,
// a best-effort notifier for other hub nodes, the card fetcher, the geocoder, and where to print.
import type { Db } from '../db/index.js';
import type { Geocoder } from '../geo/index.js';

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
}
