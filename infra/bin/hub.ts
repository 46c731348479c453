// `npm start`: one hub node with the configuration from the environment. Exits 1 with one message
// naming the variable on bad configuration, before any socket opens; SIGTERM/SIGINT stop it cleanly.
import { loadConfig, redactedConfig, ConfigError } from '../../runtime/config/index.js';
import { createLogger } from '../../runtime/log/index.js';
import { startHub } from './start-hub.js';

let config;
try {
  config = loadConfig();
} catch (err) {
  if (err instanceof ConfigError) {
    process.stderr.write(`burrow: ${err.message}\n`);
    process.exit(1);
  }
  throw err;
}
const log = createLogger({
  level: config.logLevel,
  nodeId: config.nodeId,
  format: config.logFormat,
});
// The whole configuration is one line for collectors; people get it at debug level.
if (config.logFormat === 'json') log.info({ config: redactedConfig(config) }, 'starting');
else {
  log.info(`starting burrow node ${config.nodeId} (LOG_FORMAT=json for JSON lines)`);
  log.debug({ config: redactedConfig(config) }, 'configuration');
}

try {
  const hub = await startHub(config, log);
  let signalled = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (signalled) return;
    signalled = true;
    log.info({ signal }, 'shutting down');
    // Hard stop if something hangs: the operator asked us to go.
    const guard = setTimeout(() => {
      log.error('shutdown timed out');
      process.exit(1);
    }, config.shutdownTimeoutMs + 1500);
    guard.unref();
    hub.stop().then(
      () => process.exit(0),
      (err: unknown) => {
        log.error({ err }, 'shutdown failed');
        process.exit(1);
      }
    );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
} catch (err) {
  // A dependency that cannot be reached or a port that cannot be bound: one line naming the
  // setting, as for a bad configuration; anything else is a bug, with its stack.
  if (err instanceof ConfigError) {
    process.stderr.write(`burrow: ${err.message}\n`);
    process.exit(1);
  }
  log.fatal({ err }, 'start-up failed');
  process.exit(1);
}
