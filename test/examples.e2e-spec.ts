import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { startTestApp, type TestApp } from './support/app.js';

const run = promisify(execFile);

/**
 * The two complete clients of docs/clients.md, run as a client author would run them, against a
 * real server: each plays a match against a server bot to its end.
 */
describe('the example clients play a match to its end', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app.close();
  });

  const env = () => ({ ...process.env, GRAPHQL_URL: `${app.url}/graphql`, TARGET_SCORE: '50' });

  async function finishedMatch(stdout: string): Promise<{ matchId: string; status: string; winner: number; scores: number[] }> {
    const result = JSON.parse(stdout.trim().split('\n').at(-1)!) as { matchId: string; status: string; winner: number; scores: number[] };
    expect(result.status).toBe('FINISHED');
    // The server agrees: the match is over, with a winner holding at least the target.
    const { match } = await app.anon.request<{ match: { status: string; winner: { index: number; score: number } } }>(
      'query($id: ID!) { match(id: $id) { status winner { index score } } }',
      { id: result.matchId },
    );
    expect(match.status).toBe('FINISHED');
    expect(match.winner.index).toBe(result.winner);
    expect(match.winner.score).toBeGreaterThanOrEqual(50);
    return result;
  }

  it('examples/bot.mjs (graphql-ws, living on myTurns)', async () => {
    const { stdout } = await run(process.execPath, ['examples/bot.mjs'], { env: env(), timeout: 120_000 });
    await finishedMatch(stdout);
  });

  it('examples/curl-session.sh (curl and jq)', async () => {
    const { stdout } = await run('bash', ['examples/curl-session.sh'], { env: env(), timeout: 120_000 });
    await finishedMatch(stdout);
  });
});
