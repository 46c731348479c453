// Fault (c): a PostgreSQL restart under steady load from 200 WebSocket agents. The hubs use a
// private PostgreSQL instance started for this file (never the machine's shared server), restarted
// with pg_ctl mid-load: every connection is cut. JetStream holds the tasks, PostgreSQL the
// directory, keys and the task index; every acknowledged message still reaches its recipient once
// per task, in order per sender, with its task terminal (also in the tasks table, re-projected).
import { afterAll, beforeAll, describe, it } from 'vitest';
import { startFaultCluster, type FaultCluster } from './support/fault-cluster.js';
import { expectNoLossNoDuplicates, runLoadScenario } from './support/load-scenario.js';
import { startPrivatePostgres, type PrivatePostgres } from './support/private-postgres.js';

let pg: PrivatePostgres;
let cluster: FaultCluster;

beforeAll(async () => {
  pg = await startPrivatePostgres();
  cluster = await startFaultCluster('pgrestart', { hubs: 2, databaseUrl: pg.url('burrow_fault') });
  await cluster.waitOwnership();
});

afterAll(async () => {
  await cluster?.close();
  pg?.stop();
});

describe('PostgreSQL restart under load', () => {
  it('loses no acknowledged message, creates no duplicate task, keeps FIFO, leaves no task open', async () => {
    const r = await runLoadScenario('postgres-restart', cluster, async () => {
      const at = Date.now();
      pg.restart();
      const restartMs = Date.now() - at;
      // The hubs' health turns ok again once their pools reconnect.
      const deadline = Date.now() + 30_000;
      for (;;) {
        const ok = await Promise.all(
          cluster.live().map((h) =>
            fetch(`${h.url}/health`).then(
              (res) => res.status === 200,
              () => false
            )
          )
        );
        if (ok.every(Boolean)) break;
        if (Date.now() > deadline) throw new Error('hubs not healthy 30 s after the restart');
        await new Promise((r) => setTimeout(r, 250));
      }
      return { restartMs, healthyAfterMs: Date.now() - at };
    });
    expectNoLossNoDuplicates(r, 2000);
  });
});
