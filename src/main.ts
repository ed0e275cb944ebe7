import cluster from 'node:cluster';
import { loadConfig } from './config/config.js';
import { startServer, type RunningServer } from './bootstrap.js';
import { onPrimaryRequest, reportListening, superviseWorkers } from './cluster.js';
import { reasonOf } from './common/start-failure.js';

async function main(): Promise<void> {
  // This process owns shutdown: the embedded PostgreSQL package stops its server on SIGINT/SIGTERM
  // by itself, which would pull the database from under the bot moves and sweeps still finishing.
  // (Its exit hook stays: a process that dies of an error still stops its PostgreSQL.)
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.removeAllListeners(signal);
  let server: RunningServer | undefined;
  let shutdownTimeoutMs = 15_000;
  let closing = false;
  let signalled = false;
  const shutdown = async (why: string) => {
    if (closing) return;
    closing = true;
    console.log(`${why}: shutting down`);
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
  const onSignal = (signal: string) => {
    // A second signal: the operator does not want to wait.
    if (signalled) {
      console.error(`${signal} again: exiting without waiting for the shutdown`);
      process.exit(1);
    }
    signalled = true;
    void shutdown(signal);
  };
  process.on('SIGINT', () => onSignal('SIGINT'));
  process.on('SIGTERM', () => onSignal('SIGTERM'));
  // A worker: the primary passes its signals on as requests, since this process may have had the
  // same signal itself (one sent to the whole process group): a request and a signal, in either
  // order, are one shutdown.
  onPrimaryRequest({
    shutdown: () => void shutdown('shutdown requested by the primary'),
    exitNow: () => {
      console.error('the primary had a second signal: exiting without waiting for the shutdown');
      process.exit(1);
    },
  });
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
