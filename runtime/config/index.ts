export { loadConfig, redactedConfig, ConfigError } from './load.js';
export {
  ConfigSchema,
  type Config,
  type EmbeddingsSettings,
  type GeocoderSettings,
  type MailSettings,
  type OfficialAgentSettings,
  type QueueConfig,
  type SearchSettings,
  type WebfetchSettings,
} from './schema.js';
