export { loadConfig, redactedConfig, ConfigError } from './load.js';
export { ConfigSchema, type Config, type QueueConfig } from './schema.js';
