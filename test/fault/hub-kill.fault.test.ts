// Fault (a): kill -9 of a hub node under steady load from 200 WebSocket agents (two hub processes
// on a 3-node NATS cluster). The agents on the killed node reconnect to the other one, the other
// node takes the killed node's partitions over, and every acknowledged message still reaches its
// recipient once per task, in order per sender, with its task terminal.
import { afterAll, beforeAll, describe, it } from 'vitest';
import { startFaultCluster, type FaultCluster } from './support/fault-cluster.js';
import { expectNoLossNoDuplicates, runLoadScenario } from './support/load-scenario.js';

let cluster: FaultCluster;

beforeAll(async () => {
  cluster = await startFaultCluster('hubkill', { hubs: 2 });
  await cluster.waitOwnership();
});

afterAll(async () => {
  await cluster?.close();
});

describe('kill -9 of a hub node under load', () => {
  it('loses no acknowledged message, creates no duplicate task, keeps FIFO, leaves no task open', async () => {
    const r = await runLoadScenario('hub-kill', cluster, async (fleet) => {
      const victim = cluster.live()[0]!;
      const onVictim = fleet.agents.filter((a) => a.connectedTo === victim.url).length;
      const killedAt = Date.now();
      await cluster.stopHub(victim, 'SIGKILL');
      // The survivor owns every partition once the victim's locks expire.
      await cluster.waitOwnership({ eachOwnsOne: false, ms: 30_000 });
      const failoverMs = Date.now() - killedAt;
      // And every agent that was on the victim is connected again (to the survivor).
      const survivor = cluster.live()[0]!.url;
      const deadline = Date.now() + 30_000;
      while (fleet.agents.some((a) => a.wantOnline && a.connectedTo !== survivor)) {
        if (Date.now() > deadline) throw new Error('agents did not reconnect to the survivor');
        await new Promise((r) => setTimeout(r, 200));
      }
      return {
        killed: victim.nodeId,
        agentsOnKilled: onVictim,
        failoverMs,
        reconnectedMs: Date.now() - killedAt,
      };
    });
    expectNoLossNoDuplicates(r, 2000);
  });
});
