import { BoardPictureService } from '../src/board/board-picture.service.js';
import { RecordService } from '../src/history/record.service.js';
import { startTestApp, type TestApp } from './support/app.js';
import { driveMatch } from './support/driver.js';
import { M_CREATE, M_JOIN, type MatchT } from './support/fragments.js';

/** GET /matches/:id/board.svg, the web client's files at / and the IDE page at GET /graphql. */
describe('board pictures and web pages over HTTP', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app.close();
  });

  const get = (path: string, headers: Record<string, string> = {}) => fetch(`${app.url}${path}`, { headers });

  it('draws the layout, scores and turn after any move; only a finished match is cacheable', async () => {
    const [a, b] = [await app.player('Ada'), await app.player('Bob')];
    const { createMatch } = await a.request<{ createMatch: MatchT }>(M_CREATE, { input: { seats: 2, rules: { targetScore: 30 } } });
    const id = createMatch.id;
    await b.request(M_JOIN, { id });

    const live = await get(`/matches/${id}/board.svg`);
    expect(live.status).toBe(200);
    expect(live.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    expect(live.headers.get('cache-control')).toBe('no-cache');
    // Opened by itself it is a document: nothing in it may run or load.
    expect(live.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
    const liveSvg = await live.text();
    expect(liveSvg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(liveSvg).toContain('Ada 0 · Bob 0');
    expect(liveSvg).toMatch(/To move: (Ada|Bob)/);

    const { final } = await driveMatch(
      new Map([
        [0, a],
        [1, b],
      ]),
      id,
    );
    const rounds = final.rounds;
    const firstPlay = rounds[0].moves.find((m) => m.type === 'PLAY')!;
    const early = await (await get(`/matches/${id}/board.svg?seq=${firstPlay.seq}`)).text();
    // One tile on the layout after the lead; its halves are in its title.
    expect(early.match(/<g class="tile/g)).toHaveLength(1);
    expect(early).toContain(`<title>${firstPlay.tile!.high}-${firstPlay.tile!.low}`);
    expect(early).toContain(`after move ${firstPlay.seq}`);

    const done = await get(`/matches/${id}/board.svg`);
    expect(done.headers.get('cache-control')).toMatch(/max-age=\d+/);
    const doneSvg = await done.text();
    const names = ['Ada', 'Bob'];
    for (const t of final.teams) expect(doneSvg).toContain(`${names[t.index]} ${t.score}`);
    expect(doneSvg).toContain(`Finished: ${names[final.winner!.index]} won`);
    const lastRound = rounds[rounds.length - 1];
    expect(doneSvg.match(/<g class="tile/g)).toHaveLength(lastRound.moves.filter((m) => m.type === 'PLAY').length);
  });

  it('answers 400 for a malformed id or seq and 404 for an unknown match or move', async () => {
    expect((await get('/matches/not-a-uuid/board.svg')).status).toBe(400);
    const a = await app.player('Ada');
    const { createMatch } = await a.request<{ createMatch: MatchT }>(M_CREATE, { input: { seats: 2 } });
    for (const seq of ['0', '-1', 'x', '1.5']) {
      const res = await get(`/matches/${createMatch.id}/board.svg?seq=${seq}`);
      expect(res.status).toBe(400);
      expect(((await res.json()) as { code: string }).code).toBe('BAD_USER_INPUT');
    }
    const unknown = await get('/matches/00000000-0000-4000-8000-000000000000/board.svg');
    expect(unknown.status).toBe(404);
    const noMove = await get(`/matches/${createMatch.id}/board.svg?seq=1`);
    expect(noMove.status).toBe(404);
    expect(((await noMove.json()) as { message: string }).message).toMatch(/no move 1/);
  });

  it('answers what Fastify or Nest refuse before a route runs with a code too: a broken path, an overlong id, a method or path there is no route for', async () => {
    const id = '00000000-0000-4000-8000-000000000000';
    const refusals: [string, string, number, string][] = [
      ['GET', '/matches/%E0%A4%A/board.svg', 400, 'BAD_REQUEST'],
      ['GET', `/matches/${'a'.repeat(5000)}/record`, 414, 'BAD_REQUEST'],
      ['POST', `/matches/${id}/record`, 404, 'NOT_FOUND'],
      ['DELETE', `/matches/${id}/board.svg`, 404, 'NOT_FOUND'],
      ['GET', '/nope', 404, 'NOT_FOUND'],
      ['POST', '/', 404, 'NOT_FOUND'],
      ['GET', '/gr%zzaphql', 400, 'BAD_REQUEST'],
    ];
    for (const [method, path, status, code] of refusals) {
      const res = await fetch(`${app.url}${path}`, { method });
      const body = (await res.json()) as Record<string, unknown>;
      expect({ path: path.slice(0, 40), status: res.status, body }).toEqual({
        path: path.slice(0, 40),
        status,
        body: { code, message: expect.any(String) },
      });
      // Every answer's headers, those sent before any hook runs included; the path the client chose is not repeated at length.
      expect([res.headers.get('x-content-type-options'), res.headers.get('x-frame-options')]).toEqual(['nosniff', 'SAMEORIGIN']);
      expect((body.message as string).length).toBeLessThanOrEqual(201);
    }
    // On /graphql, as a GraphQL answer.
    for (const method of ['PUT', 'DELETE', 'PATCH']) {
      const res = await fetch(`${app.url}/graphql`, { method });
      expect({ method, status: res.status, body: await res.json() }).toEqual({
        method,
        status: 404,
        body: { errors: [{ message: expect.any(String), extensions: { code: 'NOT_FOUND' } }] },
      });
    }
  });

  it('answers a failure on the server as the documented JSON too, its text unsent: the picture and the record alike', async () => {
    const a = await app.player('Bea');
    const { createMatch } = await a.request<{ createMatch: MatchT }>(M_CREATE, { input: { seats: 2 } });
    const failing = () => Promise.reject(new Error('connect ECONNREFUSED 10.0.0.7:5432'));
    const pictures = app.server.app.get(BoardPictureService);
    const records = app.server.app.get(RecordService);
    const [picture, record] = [pictures.picture.bind(pictures), records.record.bind(records)];
    pictures.picture = failing;
    records.record = failing;
    try {
      for (const path of [`/matches/${createMatch.id}/board.svg`, `/matches/${createMatch.id}/record`]) {
        const res = await get(path);
        expect(res.status).toBe(500);
        expect(res.headers.get('cache-control')).toBe('no-store');
        expect(await res.json()).toEqual({ code: 'INTERNAL_SERVER_ERROR', message: 'Internal server error' });
      }
    } finally {
      pictures.picture = picture;
      records.record = record;
    }
  });

  it('serves the web client at / and the offline IDE to browsers at GET /graphql', async () => {
    const page = await get('/');
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('<script type="module" src="/app.js">');
    expect((await get('/app.js')).status).toBe(200);
    const idePage = await get('/graphql', { accept: 'text/html' });
    const ide = await idePage.text();
    expect(ide).toContain('AltairGraphQL.init');
    // The IDE shares the client's origin (and its stored token): no other site may frame it (it
    // frames its own sandbox page).
    expect(idePage.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(idePage.headers.get('content-security-policy')).toBe("frame-ancestors 'self'");
    expect((await get('/graphql-ide/iframe-sandbox/index.html')).headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect((await get('/graphql-ide/styles.css')).headers.get('x-content-type-options')).toBe('nosniff');
    // The client's own, stricter policy is left as it is.
    expect(page.headers.get('content-security-policy')).toMatch(/^default-src 'self'/);
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(ide).not.toMatch(/https?:\/\/(?!www\.w3\.org)[a-z0-9.-]+\.[a-z]{2,}\//i); // nothing from a CDN
    expect((await get('/graphql-ide/styles.css')).status).toBe(200);
    // An unknown path is still the API's JSON 404, not the client's page.
    expect((await get('/no-such-page')).status).toBe(404);
  });

  it('turns the IDE off in production unless GRAPHQL_IDE says otherwise', async () => {
    const prod = await startTestApp({ NODE_ENV: 'production' });
    const forced = await startTestApp({ NODE_ENV: 'production', GRAPHQL_IDE: 'true' });
    try {
      const off = await fetch(`${prod.url}/graphql`, { headers: { accept: 'text/html' } });
      expect(await off.text()).not.toContain('AltairGraphQL');
      expect((await fetch(`${prod.url}/graphql-ide/styles.css`)).status).toBe(404);
      expect((await fetch(`${prod.url}/`)).status).toBe(200); // the client itself stays
      const on = await fetch(`${forced.url}/graphql`, { headers: { accept: 'text/html' } });
      expect(await on.text()).toContain('AltairGraphQL.init');
    } finally {
      await prod.close();
      await forced.close();
    }
  });
});
