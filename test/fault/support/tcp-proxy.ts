// A TCP forwarder standing in for a load balancer in front of the hub nodes: an agent that knows
// one address reconnects through it to whichever node it points at after a node dies. The netns
// harness uses one to let hubs in namespaces reach PostgreSQL, which listens on 127.0.0.1 only.
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';

export interface TcpProxy {
  readonly port: number;
  /** http://<listenHost>:<port> of the proxy. */
  readonly url: string;
  /** New connections go to this port from now on (open ones stay where they are). */
  retarget(port: number): void;
  close(): Promise<void>;
}

/** `listenHost`/`targetHost` default to 127.0.0.1 (the netns harness listens on a bridge address). */
export async function startTcpProxy(
  targetPort: number,
  opts: { listenHost?: string; targetHost?: string } = {}
): Promise<TcpProxy> {
  const listenHost = opts.listenHost ?? '127.0.0.1';
  let target = targetPort;
  const open = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(target, opts.targetHost ?? '127.0.0.1');
    open.add(client).add(upstream);
    const end = () => {
      client.destroy();
      upstream.destroy();
      open.delete(client);
      open.delete(upstream);
    };
    client.pipe(upstream);
    upstream.pipe(client);
    for (const s of [client, upstream]) {
      s.on('error', end);
      s.on('close', end);
    }
  });
  await new Promise<void>((r) => server.listen(0, listenHost, r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${listenHost}:${port}`,
    port,
    retarget: (p) => void (target = p),
    close: () =>
      new Promise<void>((r) => {
        for (const s of open) s.destroy();
        server.close(() => r());
      }),
  };
}
