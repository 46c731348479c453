export { loadConfig, redactedConfig, ConfigError } from './load.js';
export { ConfigSchema, type Config } from './schema.js';
