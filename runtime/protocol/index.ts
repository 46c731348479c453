// The hub's protocol package: the internal model shared by every wire dialect.
export * from './model.js';
