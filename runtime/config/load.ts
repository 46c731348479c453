// The only reader of process.env. Everything else receives a Config.
import { z } from 'zod';
import { ConfigSchema, toConfig, SECRET_KEYS, type Config } from './schema.js';

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  constructor(
    message: string,
    readonly variables: readonly string[]
  ) {
    super(message);
  }
}

/** Pure: parse an environment into a frozen Config, or throw ConfigError naming the variables. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  // Empty strings mean "unset" so that `FOO= npm start` falls back to the default.
  const cleaned: Record<string, string> = {};
  for (const key of Object.keys(ConfigSchema.shape)) {
    const v = env[key];
    if (v !== undefined && v !== '') cleaned[key] = v;
  }
  const parsed = ConfigSchema.safeParse(cleaned);
  if (!parsed.success) {
    const variables = [...new Set(parsed.error.issues.map((i) => String(i.path[0] ?? '?')))];
    throw new ConfigError(
      `invalid configuration: ${variables.join(', ')}\n${z.prettifyError(parsed.error)}`,
      variables
    );
  }
  return toConfig(parsed.data);
}

/** The config as it may be logged: secrets replaced. */
export function redactedConfig(config: Config): Record<string, unknown> {
  const out: Record<string, unknown> = { ...config };
  for (const k of SECRET_KEYS) if (out[k] !== undefined) out[k] = '[redacted]';
  return out;
}
