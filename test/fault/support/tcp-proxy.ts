// A TCP forwarder standing in for a load balancer in front of the hub nodes: an agent that knows
// one address reconnects through it to whichever node it points at after a node dies.
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';

export interface TcpProxy {
  /** http://127.0.0.1:<port> of the proxy. */
  readonly url: string;
  /** New connections go to this port from now on (open ones stay where they are). */
  retarget(port: number): void;
  close(): Promise<void>;
}

export async function startTcpProxy(targetPort: number): Promise<TcpProxy> {
  let target = targetPort;
  const open = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(target, '127.0.0.1');
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
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    retarget: (p) => void (target = p),
    close: () =>
      new Promise<void>((r) => {
        for (const s of open) s.destroy();
        server.close(() => r());
      }),
  };
}
