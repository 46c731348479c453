// The three JSON-RPC dialects the hub speaks (decisions.md §1): the hub's own on POST /a2a and the
// agent WebSocket, and standard A2A v1.0 or v0.3 on /agents/:agentId/a2a, by A2A-Version header.

export const Dialects = { hub: 'hub', v1: 'v1', v03: 'v0.3' } as const;
export type Dialect = (typeof Dialects)[keyof typeof Dialects];

/** The dialects of the standard (per-agent) endpoint. */
export type StandardDialect = Exclude<Dialect, 'hub'>;
