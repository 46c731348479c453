export { loadConfig, redactedConfig, ConfigError } from './load.js';
export {
  ConfigSchema,
  type Config,
  type EmbeddingsSettings,
  type GeocoderSettings,
  type MailSettings,
  type McpSettings,
  type OfficialAgentSettings,
  type PublicDataSettings,
  type QueueConfig,
  type SearchSettings,
  type SecSettings,
  type UpstreamSettings,
  type WebfetchSettings,
} from './schema.js';
