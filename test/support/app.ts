import { loadConfig } from '../../src/config/config.js';
import { startServer, type RunningServer } from '../../src/bootstrap.js';
import { createTestDatabase, dropTestDatabase } from '../setup/test-database.js';
import { GqlClient } from './gql.js';

export interface TestApp {
  server: RunningServer;
  url: string;
  databaseUrl: string;
  /** An anonymous client; `player(name)` registers one with a token. */
  anon: GqlClient;
  player(name?: string): Promise<GqlClient>;
  close(): Promise<void>;
}

/**
 * The suites drive many players and matches from one address within seconds: far above the
 * production budgets. The rate-limit suites set the limits they test explicitly.
 */
export const UNLIMITED: Record<string, string> = {
  RATE_LIMIT_HTTP_ADDRESS: 'off',
  RATE_LIMIT_HTTP_PLAYER: 'off',
  RATE_LIMIT_WS_CONNECT: 'off',
  RATE_LIMIT_WS_SUBSCRIBE: 'off',
  RATE_LIMIT_REGISTER: 'off',
  RATE_LIMIT_CREATE_MATCH: 'off',
  RATE_LIMIT_MOVES: 'off',
  RATE_LIMIT_WEBHOOKS: 'off',
  MAX_WAITING_MATCHES: '10000',
};

/**
 * The configuration of one more instance over an existing test database (a second server beside
 * a TestApp, or one started after it stopped): a free port, no migrations, quiet logs, and the
 * budgets of `env` on top of the production defaults.
 */
export function instanceConfig(databaseUrl: string, env: Record<string, string> = {}) {
  return loadConfig({
    LOG_LEVEL: 'silent',
    NODE_ENV: 'test',
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl,
    MIGRATE_ON_START: 'false',
    ...env,
  });
}

/**
 * A real server on a free port over a fresh database copied from the migrated template.
 * `reachDatabaseAt` gives the URL the server connects with (e.g. through a proxy the test controls).
 */
export async function startTestApp(env: Record<string, string> = {}, options: { reachDatabaseAt?: (url: string) => string } = {}): Promise<TestApp> {
  const serverUrl = process.env.TEST_PG_SERVER_URL;
  if (!serverUrl) throw new Error('TEST_PG_SERVER_URL is unset: run the e2e suites through jest (global setup)');
  const databaseUrl = await createTestDatabase(serverUrl);
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    NODE_ENV: 'test',
    ...UNLIMITED,
    ...env,
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: options.reachDatabaseAt?.(databaseUrl) ?? databaseUrl,
    MIGRATE_ON_START: 'false',
  });
  const server = await startServer(config, { logger: false });
  const url = server.url;
  let n = 0;
  return {
    server,
    url,
    databaseUrl,
    anon: new GqlClient(url),
    async player(name = `player${++n}`) {
      const res = await new GqlClient(url).request<{ registerPlayer: { token: string; player: { id: string; name: string } } }>(
        'mutation($name: String!) { registerPlayer(name: $name) { token player { id name } } }',
        { name },
      );
      return new GqlClient(url, res.registerPlayer.token, res.registerPlayer.player);
    },
    async close() {
      await server.close();
      await dropTestDatabase(serverUrl, databaseUrl);
    },
  };
}
