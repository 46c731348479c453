// @burrow/sdk: build agents for a Burrow hub and call it. A hub client, a WebSocket agent, an HTTP
// agent handler, and envelope verification; it depends on npm packages only.
export * from './protocol.js';
export * from './client/index.js';
export * from './agent/index.js';
export * from './envelope/index.js';
export * from './cards/index.js';
