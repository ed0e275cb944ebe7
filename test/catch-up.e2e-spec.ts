import { PrismaService } from '../src/database/prisma.service.js';
import { startTestApp, type TestApp } from './support/app.js';
import { longMatch, oneMove } from './support/moves.js';
import { RawWs } from './support/raw-ws.js';

const CATCH_UP = `subscription($id: ID!) { matchEvents(matchId: $id, afterSeq: 0) {
  seq type move { seq seat type tile { high low } end points count }
  match { version turn rounds { number status moves { seq seat type tile { high low } end points count } } }
} }`;

describe('matchEvents catch-up', () => {
  let app: TestApp;
  beforeAll(async () => (app = await startTestApp({ METRICS: 'true', METRICS_TOKEN: 'metrics-token-for-the-tests' })));
  afterAll(() => app.close());

  it('reads the match, its rounds included, once per batch of events, not once per event', async () => {
    const [a, b] = [await app.player(), await app.player()];
    const { id, bySeat } = await longMatch(a, b);
    const prisma = app.server.app.get(PrismaService);
    while ((await prisma.match.findUniqueOrThrow({ where: { id } })).lastEventSeq < 60) await oneMove(bySeat, id);
    const events = (await prisma.match.findUniqueOrThrow({ where: { id } })).lastEventSeq;

    const before = prisma.statements;
    const ws = new RawWs(app.url);
    await ws.ready();
    ws.subscribe('c', CATCH_UP, { id });
    await ws.until(() => ws.of('c').length >= events);
    const sent = ws.of('c').map((m) => (m.payload as { data: { matchEvents: { seq: number; match: { version: number } } } }).data.matchEvents);
    expect(sent.map((e) => e.seq)).toEqual(Array.from({ length: events }, (_, i) => i + 1));
    // One batch: every event carries the same match, read once (the match, its events, its finished rounds).
    expect(new Set(sent.map((e) => e.match.version)).size).toBe(1);
    expect(prisma.statements - before).toBeLessThanOrEqual(4);
    ws.terminate();
  });
});
