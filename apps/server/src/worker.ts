/**
 * Queue worker. Try-ons run in the API process in this build; a queue (REDIS_URL) is
 * refused by configuration, so there is nothing for a separate worker to do.
 */
import { ConfigError, loadConfig } from './config.js';

try {
  loadConfig();
  console.error('Queue mode is not configured: try-ons run inside the API server (npm start). Nothing to do.');
  process.exit(1);
} catch (err) {
  if (err instanceof ConfigError) {
    console.error(err.message);
    process.exit(1);
  }
  throw err;
}
