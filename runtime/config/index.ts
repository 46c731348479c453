export { loadConfig, redactedConfig, ConfigError } from './load.js';
export { ConfigSchema, type Config, type GeocoderSettings, type QueueConfig } from './schema.js';
