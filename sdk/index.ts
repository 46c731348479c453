// burrow/sdk: build agents for a Burrow hub and call it. A hub client, a WebSocket agent, an HTTP
// agent handler, and envelope verification; it depends on npm packages only.
export * from './protocol.js';
