// Cluster (operator, ADMIN_TOKEN): the answering node's view from GET /debug/cluster (members,
// the owner of each partition, what this node holds, actors per partition, queues, connections)
// and a state machine drawn from GET /debug/machines/:id/graph.
import { useState } from 'preact/hooks';
import { operatorGet } from '../api';
import { MachineGraph } from '../parts/machine-graph';
import { Busy, ErrorNotice } from '../parts/notice';
import { useLoad } from '../parts/use-load';

interface ClusterView {
  nodeId: string;
  partitions: number;
  owned: number[];
  owners?: Array<string | null>;
  live: string[];
  members: Array<{
    nodeId: string;
    publicUrl?: string;
    startedAt?: number;
    draining?: boolean;
    lastSeenMs: number;
  }>;
  actors: Array<{ partition: string; actors: number }>;
  connections: number;
  pools?: Array<{ agentId: string }>;
}

export function ClusterPage() {
  const cluster = useLoad(() => operatorGet<ClusterView>('/debug/cluster'), []);
  const machines = useLoad(() => operatorGet<{ machines: string[] }>('/debug/machines'), []);
  const [machine, setMachine] = useState('task');
  const graph = useLoad(
    () => operatorGet<string>(`/debug/machines/${encodeURIComponent(machine)}/graph`),
    [machine]
  );
  const c = cluster.data;
  const totalActors = c?.actors.reduce((n, a) => n + a.actors, 0) ?? 0;
  return (
    <section aria-labelledby="cluster-h">
      <h1 id="cluster-h">Cluster</h1>
      <button type="button" onClick={cluster.reload}>
        Refresh
      </button>
      <ErrorNotice error={cluster.error} />
      <Busy when={cluster.loading} label="Asking the node…" />
      {c ? (
        <>
          <p>
            Answered by node <strong class="mono">{c.nodeId}</strong>: {c.owned.length} of{' '}
            {c.partitions} partitions held here, {totalActors} live actors, {c.connections}{' '}
            WebSocket connections.
          </p>
          <div class="table-wrap">
            <table>
              <caption>Nodes ({c.live.length} live)</caption>
              <thead>
                <tr>
                  <th scope="col">Node</th>
                  <th scope="col">URL</th>
                  <th scope="col">State</th>
                  <th scope="col">Last heartbeat</th>
                  <th scope="col">Partitions</th>
                </tr>
              </thead>
              <tbody>
                {c.members.map((m) => (
                  <tr key={m.nodeId}>
                    <th scope="row" class="mono">
                      {m.nodeId}
                    </th>
                    <td class="mono">{m.publicUrl ?? ''}</td>
                    <td>
                      {m.draining ? 'draining' : c.live.includes(m.nodeId) ? 'live' : 'expired'}
                    </td>
                    <td>{(m.lastSeenMs / 1000).toFixed(1)} s ago</td>
                    <td>{c.owners?.filter((o) => o === m.nodeId).length ?? '–'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <h2>Partitions</h2>
          <ol class="partitions" start={0}>
            {(c.owners ?? []).map((owner, p) => {
              const actors = c.actors.find(
                (a) => Number(a.partition.replace(/\D/g, '')) === p
              )?.actors;
              return (
                <li key={p} class={c.owned.includes(p) ? 'here' : ''} title={`partition ${p}`}>
                  <span class="mono">p{String(p).padStart(2, '0')}</span>
                  <span class="mono small">{owner ?? 'no owner'}</span>
                  {actors !== undefined ? <span class="small">{actors} actors</span> : null}
                </li>
              );
            })}
          </ol>
        </>
      ) : null}
      <h2>State machines</h2>
      <ErrorNotice error={machines.error ?? graph.error} />
      <label class="inline">
        Machine{' '}
        <select value={machine} onChange={(e) => setMachine(e.currentTarget.value)}>
          {(machines.data?.machines ?? ['task']).map((m) => (
            <option key={m}>{m}</option>
          ))}
        </select>
      </label>
      {graph.data ? <MachineGraph text={graph.data} title={machine} /> : null}
    </section>
  );
}
