import { ConfigError, loadConfig } from './config/config.js';
import { startServer, type RunningServer } from './bootstrap.js';

/** One line a human can act on, instead of a stack trace, for the failures an operator causes. */
function reasonOf(e: unknown): string {
  const err = e as NodeJS.ErrnoException & { address?: string; port?: number };
  if (e instanceof ConfigError) return e.message;
  if (err.code === 'EADDRINUSE') return `port ${err.port ?? ''} is already in use (set PORT)`;
  if (err.code === 'EACCES') return `no permission to listen on port ${err.port ?? ''} (set PORT)`;
  if (err.code === 'ECONNREFUSED' || err.code === 'ENOTFOUND' || err.code === 'EAI_AGAIN')
    return `cannot reach the database: ${err.message} (check DATABASE_URL)`;
  if (typeof err.code === 'string' && /^(28|3D|08)/.test(err.code)) return `database refused the connection: ${err.message} (check DATABASE_URL)`;
  const message = (err.message ?? String(e)).replace(/\s*\n\s*/g, ' ').trim();
  if (/reach database server|database .* does not exist|authentication failed/i.test(message))
    return `cannot reach the database: ${message} (check DATABASE_URL)`;
  return message;
}

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
