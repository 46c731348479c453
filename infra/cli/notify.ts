// Best-effort broadcasts from the CLI to running hub nodes over core NATS (subjects.agentChanged,
// subjects.keyRevoked), so they drop cached agents and keys at once instead of at TTL expiry.
import { connect } from '@nats-io/transport-node';
import { encodeJson } from '../../runtime/bus/index.js';
import type { CliIo, Notice } from './context.js';

export interface NotifierOptions {
  servers: readonly string[];
  /** The whole attempt (connect, publish, flush) gives up after this long. */
  timeoutMs: number;
  io: CliIo;
}

/** A notify() for CliContext: publishes the notices, or warns on stderr and carries on. */
export function createNatsNotifier(
  opts: NotifierOptions
): (notices: readonly Notice[]) => Promise<void> {
  return async (notices) => {
    if (notices.length === 0) return;
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`no answer within ${opts.timeoutMs} ms`)),
        opts.timeoutMs
      );
    });
    const attempt = publishAll(opts.servers, opts.timeoutMs, notices);
    try {
      await Promise.race([attempt, deadline]);
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      opts.io.err(
        `burrow: warning: could not notify hub nodes over NATS (${reason}); ` +
          'they pick up the change when their caches expire (about 30 s)'
      );
      // The attempt may still be connecting; let it finish (or fail) on its own, quietly.
      attempt.catch(() => undefined);
    } finally {
      clearTimeout(timer);
    }
  };
}

async function publishAll(
  servers: readonly string[],
  timeoutMs: number,
  notices: readonly Notice[]
): Promise<void> {
  const nc = await connect({
    servers: [...servers],
    name: 'burrow-cli',
    timeout: timeoutMs,
    reconnect: false,
    maxReconnectAttempts: 0,
  });
  try {
    for (const n of notices) nc.publish(n.subject, encodeJson(n.payload));
    await nc.flush();
  } finally {
    await nc.close();
  }
}
