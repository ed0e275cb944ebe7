import { loadConfig } from './config/config.js';
import { startServer, type RunningServer } from './bootstrap.js';
import { reasonOf } from './common/start-failure.js';

async function main(): Promise<void> {
  let server: RunningServer | undefined;
  try {
    const config = loadConfig(process.env);
    server = await startServer(config);
    const port = new URL(server.url).port;
    console.log(
      `straight-dominoes listening on ${server.url}/graphql (bound to ${config.host}:${port}; database: ${server.database.embedded ? 'embedded' : 'DATABASE_URL'})`,
    );
  } catch (e) {
    console.error(`cannot start: ${reasonOf(e)}`);
    process.exit(1);
  }
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    console.log(`${signal}: shutting down`);
    await server?.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

void main();
