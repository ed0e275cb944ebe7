import cluster from 'node:cluster';
import { loadConfig } from './config/config.js';
import { startServer, type RunningServer } from './bootstrap.js';
import { reportListening, superviseWorkers } from './cluster.js';
import { reasonOf } from './common/start-failure.js';

async function main(): Promise<void> {
  // This process owns shutdown: the embedded PostgreSQL package stops its server on SIGINT/SIGTERM
  // by itself, which would pull the database from under the bot moves and sweeps still finishing.
  // (Its exit hook stays: a process that dies of an error still stops its PostgreSQL.)
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.removeAllListeners(signal);
  let server: RunningServer | undefined;
  let shutdownTimeoutMs = 15_000;
  let closing = false;
  const shutdown = async (signal: string) => {
    // A second signal while closing: the operator does not want to wait.
    if (closing) {
      console.error(`${signal} again: exiting without waiting for the shutdown`);
      process.exit(1);
    }
    closing = true;
    console.log(`${signal}: shutting down`);
    // Whatever hangs (a query on a connection whose peer vanished, a sweep awaiting it), the process ends.
    setTimeout(() => {
      console.error(`shutdown: not done after ${shutdownTimeoutMs} ms (SHUTDOWN_TIMEOUT_MS); exiting`);
      process.exit(1);
    }, shutdownTimeoutMs).unref();
    try {
      await server?.close();
      process.exit(0);
    } catch (e) {
      console.error(`shutdown: ${reasonOf(e)}`);
      process.exit(1);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  try {
    const config = loadConfig(process.env);
    shutdownTimeoutMs = config.shutdownTimeoutMs;
    if (config.workers > 1 && cluster.isPrimary) return await superviseWorkers(config.workers);
    server = await startServer(config);
    const port = new URL(server.url).port;
    if (cluster.isWorker) return reportListening(server.url);
    console.log(
      `straight-dominoes listening on ${server.url}/graphql (bound to ${config.host}:${port}; database: ${server.database.embedded ? 'embedded' : 'DATABASE_URL'})`,
    );
  } catch (e) {
    console.error(`cannot start: ${reasonOf(e)}`);
    process.exit(1);
  }
}

void main();
