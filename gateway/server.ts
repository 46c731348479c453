// The hub's HTTP gateway on uWebSockets.js: builds the app and its routes, then listens, stops
// accepting, drains and closes as the Gateway contract in deps.ts says. uWS stays in gateway/.
import uWS, { type TemplatedApp, type us_listen_socket } from 'uWebSockets.js';
import { UnavailableError } from '../runtime/errors/index.js';
import type { Gateway, GatewayDeps } from './deps.js';
import { InFlight } from './http/in-flight.js';
import { RouteTable } from './http/route-table.js';
import { builtInRoutes, type RouteRegistrar } from './routes/index.js';

export interface GatewayOptions {
  /**
   * More routes, added after the built-in ones (health, metrics, /a2a, debug) and before the
   * 404/405 fallbacks. Adding a method and pattern that is already taken throws.
   */
  readonly routes?: readonly RouteRegistrar[];
}

/** App.close() exists at run time in this uWS build but is missing from its type definitions. */
type ClosableApp = TemplatedApp & { close?: () => void };

export function createGateway(deps: GatewayDeps, opts: GatewayOptions = {}): Gateway {
  const log = deps.log.child({ component: 'gateway' });
  const scoped: GatewayDeps = { ...deps, log };
  const inFlight = new InFlight();
  const app: ClosableApp = uWS.App();
  const table = new RouteTable(app, {
    log,
    metrics: deps.metrics,
    bodyLimitBytes: deps.config.bodyLimitBytes,
    inFlight,
  });
  builtInRoutes(table, scoped);
  for (const register of opts.routes ?? []) register(table, scoped);
  table.seal();

  let listenSocket: us_listen_socket | undefined;
  let boundPort: number | undefined;

  const stopAccepting = (): void => {
    if (listenSocket === undefined) return;
    uWS.us_listen_socket_close(listenSocket);
    listenSocket = undefined;
  };

  return {
    listen() {
      if (listenSocket !== undefined && boundPort !== undefined) return Promise.resolve(boundPort);
      const { host, port } = deps.config;
      return new Promise<number>((resolve, reject) => {
        app.listen(host, port, (socket) => {
          if (socket === false) {
            reject(new UnavailableError(`Cannot listen on ${host}:${port}`));
            return;
          }
          listenSocket = socket;
          boundPort = uWS.us_socket_local_port(socket);
          log.debug({ host, port: boundPort, routes: table.routes() }, 'gateway listening');
          resolve(boundPort);
        });
      });
    },

    stopAccepting,

    async drain(timeoutMs) {
      const idle = await inFlight.idle(timeoutMs);
      if (!idle) log.warn({ inFlight: inFlight.size, timeoutMs }, 'drain timed out');
    },

    routes: () => table.routes(),

    close() {
      stopAccepting();
      // Closing the app ends keep-alive connections too; their pending responses see onAborted.
      app.close?.();
    },
  };
}
