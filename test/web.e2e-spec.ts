import { createHash } from 'node:crypto';
/// <reference lib="dom" />
// (Functions passed to page.evaluate / waitForFunction run in the page.)
import type { Browser, Page, Route, WebSocketRoute } from 'playwright-core';
import { startTestApp, type TestApp } from './support/app.js';
import {
  accessibilityViolations,
  browserPresent,
  foreignRequests,
  launchBrowser,
  screenshot,
  watchedPage,
  type WatchedPage,
} from './support/browser.js';
import { driveMatch } from './support/driver.js';
import type { GqlClient } from './support/gql.js';

/**
 * The web client and the GraphQL IDE in real headless Chromium, as a person uses them: every
 * action a click (or a key), every check on what the page shows. Each page must load nothing
 * from another host and log no console error.
 */
const describeInBrowser = browserPresent() ? describe : describe.skip;

const MATCH_Q = 'query($id: ID!) { match(id: $id) { status version turn teams { score } } }';
type ServerView = { status: string; version: number; turn: number | null; teams: { score: number }[] };

describeInBrowser('web client in Chromium', () => {
  let app: TestApp;
  let browser: Browser;

  beforeAll(async () => {
    app = await startTestApp();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  /** `base`: another server's address than the suite's (a test that needs other settings starts one). */
  async function open(path: string, before?: (w: WatchedPage) => Promise<void>, base = app.url): Promise<WatchedPage> {
    const w = await watchedPage(browser);
    await before?.(w);
    await w.page.goto(`${base}${path}`);
    return w;
  }

  /** `expected`: console errors the test provoked on purpose (the browser logs a refused request). */
  function expectClean(w: WatchedPage, expected: RegExp[] = [], base = app.url): void {
    expect(foreignRequests(w, base)).toEqual([]);
    expect(w.requests.length).toBeGreaterThan(0);
    expect(w.consoleErrors.filter((e) => !expected.some((re) => re.test(e)))).toEqual([]);
  }

  async function serverView(id: string): Promise<ServerView> {
    return (await app.anon.request<{ match: ServerView }>(MATCH_Q, { id })).match;
  }

  async function register(page: Page, name: string): Promise<void> {
    await page.getByLabel('Your name').fill(name);
    await page.getByRole('button', { name: 'Register' }).click();
    await page.getByText(`Signed in as ${name}`).waitFor();
  }

  /** `botSeats`: the seats the server plays, counted from 1 as the page counts them. */
  async function createMatch(page: Page, opts: { seats: number; botSeats: number[]; targetScore: number }): Promise<string> {
    await page.getByLabel('Seats', { exact: true }).selectOption(String(opts.seats));
    for (const seat of opts.botSeats) await page.getByLabel(`Seat ${seat}`, { exact: true }).check();
    await page.getByText('Rule variants').click();
    await page.getByLabel('Target score').fill(String(opts.targetScore));
    await page.getByRole('button', { name: 'Create match' }).click();
    await page.waitForURL(/#\/match\/[0-9a-f-]+$/);
    await page.locator('.match').waitFor();
    return page.url().split('/').pop() as string;
  }

  /** Waits until the page offers this player a move ('turn') or shows the match over ('finished'). */
  async function turnOrEnd(page: Page): Promise<'turn' | 'finished'> {
    const handle = await page
      .waitForFunction(
        () => {
          const root = document.querySelector('.match');
          if (root?.getAttribute('data-status') === 'FINISHED') return 'finished';
          const offered = document.querySelector('.hand-tile.legal:not([aria-disabled=true]), .draw:not([aria-disabled=true])');
          return root?.getAttribute('data-my-turn') === 'true' && offered ? 'turn' : null;
        },
        undefined,
        { timeout: 60_000 },
      )
      .catch(async (e: unknown) => {
        await screenshot(page, 'stuck-waiting-for-turn');
        throw e;
      });
    return (await handle.jsonValue()) as 'turn' | 'finished';
  }

  /** One move from the page: the first highlighted tile (and the first end offered), else Draw. */
  async function playOnce(page: Page, by: 'mouse' | 'keyboard'): Promise<void> {
    const version = await page.locator('.match').getAttribute('data-version');
    const press = async (selector: string) => {
      const target = page.locator(selector).first();
      if (by === 'mouse') return target.click();
      await target.focus();
      await page.keyboard.press('Enter');
    };
    if ((await page.locator('.hand-tile.legal:not([aria-disabled=true])').count()) > 0) {
      await press('.hand-tile.legal:not([aria-disabled=true])');
      if ((await page.locator('.end-choice').count()) > 0) await press('.end-choice');
    } else {
      await press('.draw:not([aria-disabled=true])');
    }
    await page.waitForFunction((v) => document.querySelector('.match')?.getAttribute('data-version') !== v, version);
    expect(await page.locator('#error').isHidden()).toBe(true);
  }

  async function scoresShown(page: Page): Promise<number[]> {
    return (await page.locator('td.score').allTextContents()).map(Number);
  }

  /** A page of this browser signed in as `client`, as if it had registered there: its token saved. */
  async function openAs(client: GqlClient, path = '/', before?: (w: WatchedPage) => Promise<void>, base = app.url): Promise<WatchedPage> {
    const w = await open(path, before, base);
    await w.page.evaluate(
      ([token, player]) => {
        localStorage.setItem('straight-dominoes.token', token);
        localStorage.setItem('straight-dominoes.player', player);
      },
      [client.token as string, JSON.stringify(client.me)],
    );
    await w.page.reload();
    await w.page.getByText(`Signed in as ${client.me?.name}`).waitFor();
    return w;
  }

  /** Keeps what the page says to screen readers (its live region), for announcements() to read. */
  async function recordAnnouncements({ page }: WatchedPage): Promise<void> {
    await page.addInitScript(() => {
      const said: string[] = ((globalThis as unknown as { announced: string[] }).announced = []);
      document.addEventListener('DOMContentLoaded', () => {
        const live = document.getElementById('announcer') as HTMLElement;
        new MutationObserver(() => said.push(live.textContent ?? '')).observe(live, { childList: true, characterData: true, subtree: true });
      });
    });
  }

  const announcements = (page: Page): Promise<string[]> => page.evaluate(() => (globalThis as unknown as { announced: string[] }).announced);

  /** Ada's 2-seat match with Bob in it, started (over the API). */
  async function adaAgainstBob(): Promise<{ ada: GqlClient; bob: GqlClient; id: string }> {
    const [ada, bob] = [await app.player('Ada'), await app.player('Bob')];
    const { createMatch } = await ada.request<{ createMatch: { id: string } }>('mutation { createMatch(input: { seats: 2 }) { id } }');
    await bob.request('mutation($id: ID!) { joinMatch(matchId: $id) { id } }', { id: createMatch.id });
    return { ada, bob, id: createMatch.id };
  }

  const savedToken = (page: Page): Promise<string | null> => page.evaluate(() => localStorage.getItem('straight-dominoes.token'));

  type FullView = ServerView & {
    currentRound: {
      boneyardCount: number;
      board: { count: number; spinner: { high: number; low: number } | null; openEnds: { end: string; pips: number }[] };
    } | null;
  };
  const FULL_Q =
    'query($id: ID!) { match(id: $id) { status version turn teams { score } currentRound { boneyardCount board { count spinner { high low } openEnds { end pips } } } } }';

  it('plays a whole match against a bot from the page while a spectator watches it live', async () => {
    // What the page says to screen readers (its live region), kept for a check at the end.
    const player = await open('/', recordAnnouncements);
    await player.page.getByRole('heading', { level: 1, name: 'Straight Dominoes' }).waitFor();
    await register(player.page, 'Ada');
    await player.page.getByRole('heading', { level: 1, name: 'Matches' }).waitFor();
    expect(await accessibilityViolations(player.page)).toEqual([]);
    // Every bot strategy of the schema is offered, each with what it does.
    const strategies = await player.page
      .getByLabel('Bot strategy')
      .locator('option')
      .evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
    expect(strategies.sort()).toEqual(['DEFENSIVE', 'EXPERT', 'GREEDY', 'RANDOM']);
    expect(await player.page.getByLabel('Bot strategy').inputValue()).toBe('GREEDY');
    await player.page.getByLabel('Bot strategy').selectOption('EXPERT');
    await player.page.locator('#create-strategy-help', { hasText: 'strongest' }).waitFor();
    await player.page.getByLabel('Bot strategy').selectOption('GREEDY');
    // Partnerships, the rules' default with 4 players (R2), are offered with 4 seats only.
    const partnerships = player.page.getByLabel('Partnerships (4 seats)');
    expect([await partnerships.isDisabled(), await partnerships.isChecked()]).toEqual([true, false]);
    await player.page.getByLabel('Seats', { exact: true }).selectOption('4');
    expect([await partnerships.isDisabled(), await partnerships.isChecked()]).toEqual([false, true]);
    // Any seat but the creator's (seat 1) may be a bot's, up to the seats chosen.
    const botSeat = (n: number) => player.page.getByLabel(`Seat ${n}`, { exact: true });
    expect(await Promise.all([2, 3, 4].map((n) => botSeat(n).isEnabled()))).toEqual([true, true, true]);
    await botSeat(4).check();
    await player.page.getByLabel('Seats', { exact: true }).selectOption('2');
    expect([await partnerships.isDisabled(), await partnerships.isChecked()]).toEqual([true, false]);
    expect(await Promise.all([2, 3, 4].map((n) => botSeat(n).isEnabled()))).toEqual([true, false, false]);
    expect(await botSeat(4).isChecked()).toBe(false); // a seat the match will not have is not sent
    const id = await createMatch(player.page, { seats: 2, botSeats: [2], targetScore: 50 });
    // The bot (seat 1) has one name on the page and in the board picture the server draws.
    await player.page.locator('[data-testid=scores]', { hasText: 'Bot 2' }).waitFor();
    expect(await (await fetch(`${app.url}/matches/${id}/board.svg`)).text()).toContain('Bot 2');
    const spectator = await open(`/#/match/${id}`);
    await spectator.page.getByRole('heading', { name: 'Watching a match' }).waitFor();

    let moves = 0;
    while ((await turnOrEnd(player.page)) === 'turn') {
      if (moves++ === 3) {
        // The page is still while it waits for this player: a steady picture for both checks.
        await screenshot(player.page, 'match-in-play');
        expect(await accessibilityViolations(player.page)).toEqual([]);
        // The board in words: the open ends, the count and the boneyard, as the server has them.
        const view = (await app.anon.request<{ match: FullView }>(FULL_Q, { id })).match;
        const board = view.currentRound!.board;
        const summary = await player.page.getByTestId('board-summary').textContent();
        // Each open end in the server's order, with what it adds to the count where that is not its
        // pips: the shares said add up to the count.
        const said = /Open ends: (.*?)(?: \(spinner [0-6]-[0-6]\))?\. Count/.exec(summary ?? '')?.[1] ?? '';
        const ends = said.split(/, (?=(?:left|right|up|down) )/).map((part) => /^(left|right|up|down) (\d)(?: \((.*)\))?$/.exec(part));
        expect(ends.map((e) => e && `${e[1]} ${e[2]}`)).toEqual(board.openEnds.map((e) => `${e.end.toLowerCase()} ${e.pips}`));
        const share = (e: RegExpExecArray) => {
          const note = e[3];
          if (note === undefined) return Number(e[2]);
          if (note === 'the same double') return 0;
          const counts = /counts (\d+|nothing)$/.exec(note)?.[1];
          return counts === 'nothing' ? 0 : Number(counts);
        };
        expect(ends.reduce((sum, e) => sum + share(e!), 0)).toBe(board.count);
        if (board.spinner) expect(summary).toContain(`(spinner ${board.spinner.high}-${board.spinner.low})`);
        expect(summary).toContain(`Count ${board.count}.`);
        expect(summary).toContain(`Boneyard: ${view.currentRound!.boneyardCount} tile`);
      }
      await playOnce(player.page, 'mouse');
    }
    const final = await serverView(id);
    expect(final.status).toBe('FINISHED');
    expect(Math.max(...final.teams.map((t) => t.score))).toBeGreaterThanOrEqual(50);
    await spectator.page.waitForSelector('.match[data-status="FINISHED"]');
    await spectator.page.waitForFunction((v) => document.querySelector('.match')?.getAttribute('data-version') === String(v), final.version);
    expect(await scoresShown(player.page)).toEqual(final.teams.map((t) => t.score));
    expect(await scoresShown(spectator.page)).toEqual(final.teams.map((t) => t.score));
    // The last round's result: how it ended, each side's points and bonus.
    const rounds = (
      await app.anon.request<{ match: { rounds: { number: number }[] } }>('query($id: ID!) { match(id: $id) { rounds { number } } }', { id })
    ).match.rounds;
    const result = player.page.getByTestId('round-result');
    await result.getByRole('heading', { name: `Round ${rounds.length} result` }).waitFor();
    expect(await result.textContent()).toMatch(/from plays \+ \d+ bonus = \d+/);
    // The page has moved on from the round's layout: the play that ended it is said with the result.
    const { match: ended } = await app.anon.request<{
      match: { rounds: { moves: { type: string; tile: { high: number; low: number } | null }[] }[] };
    }>('query($id: ID!, $n: Int!) { match(id: $id) { rounds(number: $n) { moves { type tile { high low } } } } }', { id, n: rounds.length });
    const lastPlay = ended.rounds[0].moves.filter((m) => m.type === 'PLAY').pop()!.tile!;
    expect(await result.textContent()).toMatch(
      new RegExp(`The last play: .+ played ${lastPlay.high}-${lastPlay.low}( on (left|right|up|down)| \\(lead\\))`),
    );
    const said = await announcements(player.page);
    expect(said.some((text) => text.includes(`Round ${rounds.length} `) && text.includes('Scores:'))).toBe(true);
    await screenshot(player.page, 'match-finished-player');
    await screenshot(spectator.page, 'match-finished-spectator');

    // The finished match replays move by move, and its picture is served as SVG.
    await player.page.getByRole('link', { name: 'Replay move by move' }).click();
    await player.page.getByLabel('Move', { exact: true }).waitFor();
    await player.page.getByRole('button', { name: 'Previous move' }).click();
    await player.page.locator('[data-testid=replay-move]', { hasText: /^Move \d+ of \d+: / }).waitFor();
    await screenshot(player.page, 'replay');
    expectClean(player);
    expectClean(spectator);
  });

  it('lets two registered players play each other, one by mouse and one by keyboard', async () => {
    const ada = await open('/');
    await register(ada.page, 'Ada');
    const id = await createMatch(ada.page, { seats: 2, botSeats: [], targetScore: 15 });
    const bob = await open('/');
    await register(bob.page, 'Bob');
    await bob.page.getByRole('button', { name: 'Open to join' }).first().click();
    await bob.page.getByRole('button', { name: 'Join this match' }).click();
    await ada.page.waitForSelector('.match[data-status="IN_PROGRESS"]');

    for (let moves = 0; ; moves++) {
      const view = await serverView(id);
      if (view.status === 'FINISHED') break;
      expect(moves).toBeLessThan(200);
      const page = view.turn === 0 ? ada.page : bob.page;
      expect(await turnOrEnd(page)).toBe('turn');
      await playOnce(page, page === ada.page ? 'mouse' : 'keyboard');
    }
    const final = await serverView(id);
    for (const w of [ada, bob]) {
      await w.page.waitForSelector('.match[data-status="FINISHED"]');
      await w.page.waitForFunction((v) => document.querySelector('.match')?.getAttribute('data-version') === String(v), final.version);
      expect(await scoresShown(w.page)).toEqual(final.teams.map((t) => t.score));
    }
    await screenshot(bob.page, 'two-players-finished');
    expectClean(ada);
    expectClean(bob);
  });

  it('recovers a dropped WebSocket with every move made meanwhile', async () => {
    let blocked = false;
    const sockets: WebSocketRoute[] = [];
    // The page's graphql-ws socket passes through the test, which can cut it and refuse reconnects.
    const ada = await open('/', (w) =>
      w.page.routeWebSocket(/\/graphql$/, (ws) => {
        if (blocked) return void ws.close({ code: 1001, reason: 'network down' });
        ws.connectToServer();
        sockets.push(ws);
      }),
    );
    await register(ada.page, 'Ada');
    const id = await createMatch(ada.page, { seats: 2, botSeats: [], targetScore: 250 });
    const bob = await app.player('Bob');
    await bob.request('mutation($id: ID!) { joinMatch(matchId: $id) { id } }', { id });
    await ada.page.waitForSelector('.match[data-status="IN_PROGRESS"]');

    // Bring the match to Bob's turn, Ada playing from the page.
    await bobPlaysUntilAdasTurn(bob, id);
    while ((await serverView(id)).turn === 0) {
      expect(await turnOrEnd(ada.page)).toBe('turn');
      await playOnce(ada.page, 'mouse');
    }

    blocked = true;
    for (const s of sockets) await s.close({ code: 1001, reason: 'network down' });
    await ada.page.locator('#connection', { hasText: 'reconnecting' }).waitFor();
    const seen = Number(await ada.page.locator('.match').getAttribute('data-version'));
    await bobPlaysUntilAdasTurn(bob, id);
    const after = await serverView(id);
    expect(after.version).toBeGreaterThan(seen);
    expect(Number(await ada.page.locator('.match').getAttribute('data-version'))).toBe(seen); // really cut off

    blocked = false;
    await ada.page.waitForFunction((v) => document.querySelector('.match')?.getAttribute('data-version') === String(v), after.version, {
      timeout: 30_000,
    });
    await ada.page.locator('#connection', { hasText: /^Live$/ }).waitFor();
    await screenshot(ada.page, 'reconnected');
    // Bob's moves are on the page, and Ada plays on without a reload.
    expect(await turnOrEnd(ada.page)).toBe('turn');
    await playOnce(ada.page, 'mouse');
    expect((await serverView(id)).version).toBeGreaterThan(after.version);
    expectClean(ada);
  });

  /** `bob` (seat `seat`, 1 unless told) moves over the API until the turn leaves that seat. */
  async function bobPlaysUntilAdasTurn(bob: GqlClient, id: string, seat = 1): Promise<void> {
    type View = {
      turn: number | null;
      status: string;
      version: number;
      canDraw: boolean;
      legalMoves: { end: string | null; tile: { high: number; low: number } }[];
    };
    const q = 'query($id: ID!) { match(id: $id) { turn status version canDraw legalMoves { end tile { high low } } } }';
    for (let i = 0; i < 60; i++) {
      const { match } = await bob.request<{ match: View }>(q, { id });
      if (match.status !== 'IN_PROGRESS' || match.turn !== seat) return;
      const move = match.legalMoves[0];
      if (move)
        await bob.request('mutation($input: PlayTileInput!) { playTile(input: $input) { id } }', {
          input: { matchId: id, tile: move.tile, end: move.end },
        });
      else await bob.request('mutation($input: TurnInput!) { drawTile(input: $input) { id } }', { input: { matchId: id } });
    }
    throw new Error('Bob never handed the turn back');
  }

  it('keeps the saved token when the server cannot be reached, is busy or fails, and forgets it only when the server refuses it', async () => {
    const ada = await app.player('Ada');
    const w = await openAs(ada);
    await w.page.getByRole('heading', { name: 'Your move' }).waitFor();
    const failures: [string, (route: Route) => Promise<void>][] = [
      ['no network', (route) => route.abort('connectionrefused')],
      ['a gateway error', (route) => route.fulfill({ status: 502, contentType: 'text/html', body: '<h1>Bad Gateway</h1>' })],
      [
        'a busy server',
        (route) =>
          route.fulfill({
            status: 429,
            contentType: 'application/json',
            body: JSON.stringify({ errors: [{ message: 'too many requests', extensions: { code: 'RATE_LIMITED', retryAfter: 1 } }] }),
          }),
      ],
      [
        'a failing server',
        (route) =>
          route.fulfill({
            status: 500,
            contentType: 'application/json',
            body: JSON.stringify({ errors: [{ message: 'Internal server error', extensions: { code: 'INTERNAL_SERVER_ERROR' } }] }),
          }),
      ],
    ];
    for (const [what, answer] of failures) {
      await w.page.route('**/graphql', (route) => (route.request().method() === 'POST' ? answer(route) : route.continue()));
      await w.page.reload();
      await w.page.locator('#error').waitFor();
      expect({ what, token: await savedToken(w.page) }).toEqual({ what, token: ada.token });
      await w.page.getByText('Signed in as Ada').waitFor();
      await w.page.unroute('**/graphql');
      // Once the server answers again, the page comes back signed in, without a reload.
      await w.page.getByRole('button', { name: 'Try again' }).click();
      await w.page.getByRole('heading', { name: 'Your move' }).waitFor();
      expect(await w.page.locator('#error').isHidden()).toBe(true);
    }
    await w.page.route('**/graphql', (route) => (route.request().method() === 'POST' ? route.abort('connectionrefused') : route.continue()));
    await w.page.reload();
    await w.page.locator('#error', { hasText: 'The server cannot be reached' }).waitFor();
    await w.page.unroute('**/graphql');

    // The server's own answer that the token is not valid (401 UNAUTHENTICATED) forgets it.
    await ada.request('mutation { revokeToken }');
    await w.page.reload();
    await w.page.locator('#notice', { hasText: 'Your token is no longer valid' }).waitFor();
    expect(await savedToken(w.page)).toBeNull();
    await w.page.getByText('Not signed in').waitFor();
    await w.page.getByRole('heading', { name: 'Register' }).waitFor();
    await w.page.getByRole('heading', { name: 'Sign in with a token' }).waitFor();
  });

  it('seats two partners against two bots: the bots in seats 2 and 4, a team of their own', async () => {
    const w = await open('/');
    await register(w.page, 'Ada');
    const id = await createMatch(w.page, { seats: 4, botSeats: [2, 4], targetScore: 50 });
    const { match } = await app.anon.request<{ match: { seats: { index: number; isBot: boolean }[]; teams: { seats: number[] }[] } }>(
      'query($id: ID!) { match(id: $id) { seats { index isBot } teams { seats } } }',
      { id },
    );
    expect(match.seats.filter((s) => s.isBot).map((s) => s.index)).toEqual([1, 3]);
    expect(match.teams.map((t) => t.seats)).toEqual([
      [0, 2],
      [1, 3],
    ]);
    expectClean(w);
  });

  it('creates a match with a seed of its own, after reading the id and deal announced for it, and says when the match is not that one', async () => {
    const cy = await app.player('Cy');
    const NEXT = '{ me { nextMatch { id dealCommitment } } }';
    const SEEDS = 'query($id: ID!) { match(id: $id) { dealCommitment seats { isBot clientSeed } } }';
    const w = await openAs(cy);
    const announced = (await cy.request<{ me: { nextMatch: { id: string; dealCommitment: string } } }>(NEXT)).me.nextMatch;
    const id = await createMatch(w.page, { seats: 2, botSeats: [2], targetScore: 50 });
    expect(id).toBe(announced.id);
    const m = (await cy.request<{ match: { dealCommitment: string; seats: { isBot: boolean; clientSeed: string }[] } }>(SEEDS, { id })).match;
    expect(m.dealCommitment).toBe(announced.dealCommitment);
    // The player's seat has the page's own seed, sent after the announcement: not the seat's default.
    expect(m.seats[0].clientSeed).toMatch(/^[0-9a-f]{16}$/);
    expect(m.seats[0].clientSeed).not.toBe(
      createHash('sha256').update(`straight-dominoes/seat-seed/v1|${m.dealCommitment}|0`).digest('hex').slice(0, 16),
    );
    expect(await w.page.locator('#notice').isHidden()).toBe(true);

    // A server that deals another match than the one it announced (here: an answer rewritten on its way) is named.
    await w.page.goto(`${app.url}/`);
    await w.page.getByRole('heading', { name: 'New match' }).waitFor();
    await w.page.route('**/graphql', async (route) => {
      if (route.request().method() !== 'POST' || !route.request().postData()?.includes('createMatch')) return route.continue();
      const response = await route.fetch();
      const body = (await response.json()) as { data: { createMatch: { dealCommitment: string } } };
      body.data.createMatch.dealCommitment = 'f'.repeat(64);
      await route.fulfill({ response, json: body });
    });
    await createMatch(w.page, { seats: 2, botSeats: [2], targetScore: 50 });
    await w.page
      .locator('#notice', {
        hasText: "This match's deal cannot be vouched for: its deal commitment is not the one announced; bot 2 has a seed the server chose",
      })
      .waitFor();
    await w.page.unroute('**/graphql');
    await w.page.close();
  });

  it('signs in with the token of another browser, and shows the own token only when asked', async () => {
    const bob = await app.player('Bob');
    const w = await open('/');
    await w.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.url });
    await w.page.getByLabel('Your token').fill('not-a-token');
    await w.page.getByRole('button', { name: 'Sign in' }).click();
    await w.page.locator('#error', { hasText: 'That token is not valid' }).waitFor();
    await w.page.getByText('Not signed in').waitFor();
    expect(await savedToken(w.page)).toBeNull();

    // Pasted as a JSON answer shows it: in quotes, spaces around.
    await w.page.getByLabel('Your token').fill(`  "${bob.token}"  `);
    await w.page.getByRole('button', { name: 'Sign in' }).click();
    await w.page.getByText('Signed in as Bob').waitFor();
    expect(await savedToken(w.page)).toBe(bob.token);
    expect(await accessibilityViolations(w.page)).toEqual([]);

    // The token is on the page only after a deliberate click, and copies to the clipboard.
    expect(await w.page.content()).not.toContain(bob.token);
    await w.page.getByRole('button', { name: 'Show my token' }).click();
    expect(await w.page.getByRole('textbox', { name: 'Your token' }).inputValue()).toBe(bob.token);
    await w.page.getByRole('button', { name: 'Copy' }).click();
    await w.page.getByText('Copied.').waitFor();
    expect(await w.page.evaluate(() => navigator.clipboard.readText())).toBe(bob.token);
    await w.page.getByRole('button', { name: 'Hide my token' }).click();
    expect(await w.page.getByRole('textbox', { name: 'Your token' }).isHidden()).toBe(true);
    expectClean(w, [/status of 401/]);
  });

  it('says a revoked token is no longer valid and stops reconnecting with it', async () => {
    const ada = await app.player('Ada');
    const { createMatch } = await ada.request<{ createMatch: { id: string } }>('mutation { createMatch(input: { seats: 2 }) { id } }');
    const sentToken: string[] = [];
    const w = await openAs(ada, `/#/match/${createMatch.id}`, async ({ page }) => {
      page.on('websocket', (socket) =>
        socket.on('framesent', (f) => {
          if (String(f.payload).includes(ada.token as string)) sentToken.push(socket.url());
        }),
      );
    });
    await w.page.getByRole('heading', { name: 'Your match' }).waitFor();
    await w.page.locator('#connection', { hasText: /^Live$/ }).waitFor();
    const before = sentToken.length;
    expect(before).toBeGreaterThan(0);

    await ada.request('mutation { revokeToken }'); // the server closes the page's socket with 4403
    await w.page.locator('#notice', { hasText: 'Your token is no longer valid' }).waitFor({ timeout: 10_000 });
    await w.page.getByText('Not signed in').waitFor();
    expect(await savedToken(w.page)).toBeNull();
    // The page goes on as a spectator, on a socket without the token, and never sends it again.
    await w.page.getByRole('heading', { name: 'Watching a match' }).waitFor();
    await w.page.locator('#connection', { hasText: /^Live$/ }).waitFor();
    await new Promise((r) => setTimeout(r, 3_000)); // graphql-ws would have retried by now
    expect(sentToken.length).toBe(before);
  });

  it('offers a rematch on a finished match, and the other player joins it from the offer pushed to their page', async () => {
    const [ada, bob] = [await app.player('Ada'), await app.player('Bob')];
    const { createMatch } = await ada.request<{ createMatch: { id: string } }>(
      'mutation { createMatch(input: { seats: 2, rules: { targetScore: 15 } }) { id } }',
    );
    const id = createMatch.id;
    await bob.request('mutation($id: ID!) { joinMatch(matchId: $id) { id } }', { id });
    const adaPage = await openAs(ada, `/#/match/${id}`);
    const bobPage = await openAs(bob, `/#/match/${id}`);
    for (const w of [adaPage, bobPage]) await w.page.locator('#connection', { hasText: /^Live$/ }).waitFor();
    await driveMatch(
      new Map([
        [0, ada],
        [1, bob],
      ]),
      id,
    );
    for (const w of [adaPage, bobPage]) await w.page.waitForSelector('.match[data-status="FINISHED"]');
    await screenshot(bobPage.page, 'rematch-offer');
    expect(await accessibilityViolations(bobPage.page)).toEqual([]);

    // Bob asks: his page goes to the new match, where he waits in his old seat.
    await bobPage.page.getByRole('button', { name: 'Rematch', exact: true }).click();
    await bobPage.page.waitForURL((u) => /#\/match\/[0-9a-f-]+$/.test(u.hash) && !u.hash.endsWith(id));
    const rematchId = bobPage.page.url().split('/').pop() as string;
    await bobPage.page.waitForSelector('.match[data-status="WAITING"]');

    // Ada's page, still on the finished match, hears of the offer with no reload.
    await adaPage.page.locator('#app').getByText('Bob offers a rematch').waitFor();
    await adaPage.page.getByRole('button', { name: 'Join the rematch' }).click();
    await adaPage.page.waitForURL(`**/#/match/${rematchId}`);
    await adaPage.page.waitForSelector('.match[data-status="IN_PROGRESS"]');
    await bobPage.page.waitForSelector('.match[data-status="IN_PROGRESS"]');
    expect((await serverView(rematchId)).status).toBe('IN_PROGRESS');

    // Back on the finished match, each player is pointed to the rematch they sit in.
    await adaPage.page.goto(`${app.url}/#/match/${id}`);
    await adaPage.page.getByRole('link', { name: 'Go to the rematch' }).click();
    await adaPage.page.waitForURL(`**/#/match/${rematchId}`);
    expectClean(adaPage);
    expectClean(bobPage);
  });

  it('shows a lost network at once and reconnects as soon as it is back', async () => {
    const ada = await app.player('Ada');
    const { createMatch } = await ada.request<{ createMatch: { id: string } }>('mutation { createMatch(input: { seats: 2 }) { id } }');
    const w = await openAs(ada, `/#/match/${createMatch.id}`);
    await w.page.locator('#connection', { hasText: /^Live$/ }).waitFor();
    await w.context.setOffline(true);
    // At once: well before a missing pong could tell (KEEPALIVE_MS).
    await w.page.locator('#connection', { hasText: 'Offline' }).waitFor({ timeout: 5_000 });
    // Without a network the page does not try (each attempt would fail at once, and log an error):
    // it waits for the network. Back online, it reconnects well within the 4 s back-off cap, so
    // only a retry woken by the network's return passes.
    const attempts: string[] = [];
    w.page.on('websocket', (socket) => attempts.push(socket.url()));
    await new Promise((r) => setTimeout(r, 4_000));
    expect(attempts).toEqual([]);
    await w.context.setOffline(false);
    await w.page.locator('#connection', { hasText: /^Live$/ }).waitFor({ timeout: 3_000 });
  });

  it('finds a connection that went silent by its missing pong, and reconnects', async () => {
    const ada = await app.player('Ada');
    const { createMatch } = await ada.request<{ createMatch: { id: string } }>('mutation { createMatch(input: { seats: 2 }) { id } }');
    let silent = false;
    // The test relays the page's socket; "silent" drops everything both ways without a close,
    // as a dead network does.
    const w = await openAs(ada, `/#/match/${createMatch.id}`, (pw) =>
      pw.page.routeWebSocket(/\/graphql$/, (ws) => {
        const server = ws.connectToServer();
        ws.onMessage((m) => {
          if (!silent) server.send(m);
        });
        server.onMessage((m) => {
          if (!silent) ws.send(m);
        });
      }),
    );
    await w.page.locator('#connection', { hasText: /^Live$/ }).waitFor();
    silent = true;
    await w.page.locator('#connection', { hasText: 'reconnecting' }).waitFor({ timeout: 20_000 });
    silent = false;
    await w.page.locator('#connection', { hasText: /^Live$/ }).waitFor({ timeout: 10_000 });
  });

  it('words a match nobody joined in time apart from one every player left', async () => {
    const short = await startTestApp({ OPEN_MATCH_TTL_HOURS: '0.0003', SWEEP_INTERVAL_MS: '50' });
    try {
      const ada = await short.player('Ada');
      const { createMatch: expired } = await ada.request<{ createMatch: { id: string } }>('mutation { createMatch(input: { seats: 2 }) { id } }');
      const { createMatch: left } = await ada.request<{ createMatch: { id: string } }>('mutation { createMatch(input: { seats: 2 }) { id } }');
      await ada.request('mutation($id: ID!) { leaveMatch(matchId: $id) { id } }', { id: left.id });
      const w = await watchedPage(browser);
      await w.page.goto(`${short.url}/#/match/${left.id}`);
      await w.page.getByTestId('status').filter({ hasText: 'Abandoned: every player left before the start' }).waitFor();
      await w.page.goto(`${short.url}/#/match/${expired.id}`);
      await w.page.getByTestId('status').filter({ hasText: 'Abandoned: nobody joined in time' }).waitFor({ timeout: 15_000 });
      await w.page.close();
    } finally {
      await short.close();
    }
  });

  it('lets the keyboard go through the whole hand with the arrow keys, playable or not', async () => {
    const { ada, bob, id } = await adaAgainstBob();
    // Whoever is not to move has nothing to play: every tile of theirs is unplayable now.
    const turn = (await serverView(id)).turn;
    const waiting = turn === 0 ? bob : ada;
    const w = await openAs(waiting, `/#/match/${id}`);
    const tiles = w.page.locator('.hand-tile');
    await tiles.first().waitFor();
    const count = await tiles.count();
    expect(count).toBe(7);
    for (const t of await tiles.all()) {
      expect(await t.getAttribute('aria-disabled')).toBe('true');
      expect(await t.evaluate((b) => (b as HTMLButtonElement).disabled)).toBe(false); // focusable
    }
    // One tab stop for the hand; the arrow keys move along it and wrap around.
    expect(await w.page.locator('.hand-tile[tabindex="0"]').count()).toBe(1);
    await tiles.first().focus();
    const focusedKey = () => w.page.evaluate(() => document.activeElement?.getAttribute('data-key'));
    const keys = await tiles.evaluateAll((ts) => ts.map((t) => t.getAttribute('data-key')));
    await w.page.keyboard.press('ArrowRight');
    expect(await focusedKey()).toBe(keys[1]);
    await w.page.keyboard.press('End');
    expect(await focusedKey()).toBe(keys[count - 1]);
    await w.page.keyboard.press('ArrowRight');
    expect(await focusedKey()).toBe(keys[0]);
    await w.page.keyboard.press('ArrowLeft');
    expect(await focusedKey()).toBe(keys[count - 1]);
    // Pressing an unplayable tile sends no command, and says why under the hand.
    const version = (await serverView(id)).version;
    await w.page.keyboard.press('Enter');
    await w.page.getByTestId('hand-hint').filter({ hasText: 'It is not your turn.' }).waitFor();
    await tiles.first().click({ force: true }); // a mouse too (Playwright waits for an enabled control otherwise)
    await new Promise((r) => setTimeout(r, 300));
    expect((await serverView(id)).version).toBe(version);
    expect(await w.page.locator('#error').isHidden()).toBe(true);
    expect(await accessibilityViolations(w.page)).toEqual([]);
    expectClean(w);
  });

  it('moves focus off the hand when the turn comes back, so a second Enter plays nothing; the tab title and live region say whose turn', async () => {
    const { ada, bob, id } = await adaAgainstBob();
    // The page is whoever leads (a lead plays any tile); the other side plays over the API.
    const first = (await serverView(id)).turn as number;
    const [mine, other] = first === 0 ? [ada, bob] : [bob, ada];
    const w = await openAs(mine, `/#/match/${id}`, recordAnnouncements);
    expect(await turnOrEnd(w.page)).toBe('turn');
    expect(await w.page.title()).toBe('Your turn · Straight Dominoes');
    await w.page.locator('.hand-tile.legal').first().focus();
    await w.page.keyboard.press('Enter');
    if ((await w.page.locator('.end-choice').count()) > 0) await w.page.keyboard.press('Enter'); // the end offered first has focus
    await w.page.waitForFunction(() => document.querySelector('.match')?.getAttribute('data-my-turn') === 'false');
    expect(await w.page.title()).toBe('Straight Dominoes');

    await bobPlaysUntilAdasTurn(other, id, 1 - first);
    const back = await serverView(id);
    expect([back.status, back.turn]).toEqual(['IN_PROGRESS', first]);
    await w.page.waitForFunction((v) => document.querySelector('.match')?.getAttribute('data-version') === String(v), back.version);
    // The tile that had focus was played: focus is on the hand's heading, not on another tile.
    expect(await w.page.evaluate(() => document.activeElement?.id)).toBe('hand-title');
    expect(await w.page.title()).toBe('Your turn · Straight Dominoes');
    const said = await announcements(w.page);
    expect(said.at(-1)).toMatch(/Your turn\.$/);
    // An Enter meant for the last move (pressed twice) lands there and plays nothing.
    await w.page.keyboard.press('Enter');
    await new Promise((r) => setTimeout(r, 300));
    expect((await serverView(id)).version).toBe(back.version);
    // One Tab reaches the first playable tile.
    await w.page.keyboard.press('Tab');
    expect(await w.page.evaluate(() => document.activeElement?.classList.contains('hand-tile'))).toBe(true);
    expectClean(w);
  });

  it('follows another tab of the same browser signing out and in as someone else', async () => {
    const { ada, bob, id } = await adaAgainstBob();
    const w = await openAs(ada, `/#/match/${id}`);
    await w.page.getByRole('heading', { name: 'Your match' }).waitFor();
    const other = await w.context.newPage(); // same browser, same storage
    await other.goto(`${app.url}/`);
    await other.evaluate(
      ([token, player]) => {
        localStorage.setItem('straight-dominoes.token', token);
        localStorage.setItem('straight-dominoes.player', player);
      },
      [bob.token as string, JSON.stringify(bob.me)],
    );
    // The first tab now shows the match as Bob sees it, with Bob's hand, not Ada's under Bob's token.
    await w.page.locator('#who', { hasText: `Signed in as ${bob.me?.name}` }).waitFor();
    await w.page.locator('#notice', { hasText: `Another tab signed in as ${bob.me?.name}` }).waitFor();
    const bobsHand = (
      await bob.request<{ match: { myHand: { high: number; low: number }[] } }>('query($id: ID!) { match(id: $id) { myHand { high low } } }', { id })
    ).match.myHand.map((t) => `tile-${t.high}-${t.low}`);
    await w.page.waitForFunction(
      (keys) =>
        JSON.stringify([...document.querySelectorAll('.hand-tile')].map((t) => t.getAttribute('data-key')).sort()) ===
        JSON.stringify([...keys].sort()),
      bobsHand,
    );
    await other.evaluate(() => localStorage.clear());
    await w.page.locator('#who', { hasText: 'Not signed in' }).waitFor();
    await w.page.locator('#notice', { hasText: 'another tab signed out' }).waitFor();
    await w.page.getByRole('heading', { name: 'Watching a match' }).waitFor();
    await other.close();
    expectClean(w);
  });

  it('sends a form once however fast it is pressed twice, and starts the new page at its title', async () => {
    const ada = await app.player('Ada');
    const w = await openAs(ada);
    await w.page.getByLabel('Seat 2', { exact: true }).check();
    await w.page.getByRole('button', { name: 'Create match' }).dblclick();
    await w.page.waitForURL(/#\/match\/[0-9a-f-]+$/);
    await w.page.getByRole('heading', { level: 1, name: 'Your match' }).waitFor();
    await new Promise((r) => setTimeout(r, 500)); // time for a second match, if one were on its way
    const { matches } = await ada.request<{ matches: { totalCount: number } }>('query($p: ID) { matches(playerId: $p) { totalCount } }', {
      p: ada.id,
    });
    expect(matches.totalCount).toBe(1);
    expect(await w.page.locator('#notice').isHidden()).toBe(true); // no "cannot be vouched for" about a second match
    // Focus is where a page load puts a screen reader: the new page's title, not <body>.
    expect(await w.page.evaluate(() => document.activeElement?.textContent)).toBe('Your match');
    expectClean(w);
  });

  it('keeps a spectator on the control they were on while the match redraws', async () => {
    const { ada, bob, id } = await adaAgainstBob();
    const w = await open(`/#/match/${id}`);
    await w.page.getByRole('heading', { name: 'Watching a match' }).waitFor();
    const link = w.page.getByRole('link', { name: 'Board picture (SVG)' });
    await link.focus();
    const turn = (await serverView(id)).turn as number;
    await bobPlaysUntilAdasTurn(turn === 0 ? ada : bob, id, turn);
    const now = await serverView(id);
    await w.page.waitForFunction((v) => document.querySelector('.match')?.getAttribute('data-version') === String(v), now.version);
    expect(await link.evaluate((el) => el === document.activeElement)).toBe(true);
    expectClean(w);
  });

  it('says a match ended once when it ends on the page, and not again when a finished match is opened', async () => {
    const { ada, bob, id } = await adaAgainstBob();
    const live = await openAs(bob, `/#/match/${id}`, recordAnnouncements);
    await live.page.getByRole('heading', { name: 'Your match' }).waitFor();
    await ada.request('mutation($id: ID!) { resignMatch(matchId: $id) { status } }', { id });
    await live.page.getByTestId('round-result').waitFor();
    await new Promise((r) => setTimeout(r, 500)); // every push of the end has arrived
    expect((await announcements(live.page)).filter((s) => s.includes('Finished'))).toEqual([
      expect.stringMatching(/^Finished: Bob \(you\) won \(Ada resigned\)\. Round 1 was cut short: the match was resigned\./),
    ]);
    const later = await openAs(bob, `/#/match/${id}`, recordAnnouncements);
    await later.page.getByTestId('round-result').waitFor();
    await new Promise((r) => setTimeout(r, 500)); // the feed's catch-up (its last event MATCH_FINISHED) has arrived
    expect((await announcements(later.page)).filter((s) => s.includes('Finished'))).toEqual([]);
    expectClean(live);
    expectClean(later);
  });

  it("shows the turn's clock: who must move by when, and what happens then", async () => {
    const ada = await app.player('Ada');
    const w = await openAs(ada);
    await w.page.getByLabel('Seat 2', { exact: true }).check();
    await w.page.getByLabel('Clock').selectOption({ label: '1 day' });
    await w.page.getByRole('button', { name: 'Create match' }).click();
    await w.page.waitForURL(/#\/match\/[0-9a-f-]+$/);
    const id = w.page.url().split('/').pop() as string;
    const { match } = await ada.request<{ match: { clock: { kind: string; moveSeconds: number } } }>(
      'query($id: ID!) { match(id: $id) { clock { kind moveSeconds } } }',
      { id },
    );
    expect(match.clock).toEqual({ kind: 'PER_MOVE', moveSeconds: 86_400 });
    // The bot may lead; then it is Ada's turn, with a day to move.
    expect(await turnOrEnd(w.page)).toBe('turn');
    expect(await w.page.getByTestId('deadline').textContent()).toMatch(
      /^Your time to move: (23 h 59 min|1 d 0 h) left \(until .+\)\. When it runs out, a bot moves for you\.$/,
    );
    expectClean(w);
  });

  it('creates a match with a time bank whose timeout loses, and shows each seat its bank', async () => {
    const ada = await app.player('Ada');
    const w = await openAs(ada);
    const onTimeout = w.page.getByLabel('When time runs out');
    expect(await onTimeout.isDisabled()).toBe(true); // no clock yet: nobody runs out of time
    await w.page.getByLabel('Seat 2', { exact: true }).check();
    await w.page.getByLabel('Clock').selectOption({ label: '15 minutes + 10 seconds a move' });
    await onTimeout.selectOption({ label: 'Their side loses' });
    expect(await w.page.locator('#create-timeout-help').textContent()).toBe('When a player runs out of time, their side loses the match at once.');
    await w.page.getByRole('button', { name: 'Create match' }).click();
    await w.page.waitForURL(/#\/match\/[0-9a-f-]+$/);
    const id = w.page.url().split('/').pop() as string;
    const { match } = await ada.request<{ match: { clock: Record<string, unknown> } }>(
      'query($id: ID!) { match(id: $id) { clock { kind bankSeconds incrementSeconds maxBankSeconds onTimeout forfeitAfter } } }',
      { id },
    );
    expect(match.clock).toEqual({ kind: 'BANK', bankSeconds: 900, incrementSeconds: 10, maxBankSeconds: 900, onTimeout: 'FORFEIT', forfeitAfter: 0 });
    expect(await turnOrEnd(w.page)).toBe('turn');
    expect(await w.page.getByTestId('deadline').textContent()).toMatch(
      /^Your time to move: 1[45] min left \(until .+\)\. When it runs out, your side loses the match\.$/,
    );
    // 15 minutes left of 15: nothing to hurry about yet (the line stands out only when time is short).
    expect(await w.page.locator('.deadline.near').count()).toBe(0);
    // Each side's bank beside its score (the bot's too: it moves at once, so its bank stays full).
    expect(await w.page.getByRole('columnheader', { name: 'Time bank' }).count()).toBe(1);
    expect(await w.page.locator('.bank').allTextContents()).toEqual([expect.stringMatching(/^1[45] min$/), expect.stringMatching(/^1[45] min$/)]);
    expectClean(w);
  });

  it('counts down the bank of the seat to move, and warns of the timeouts in a row that lose', async () => {
    // Clocks of seconds, swept often: the server times the turns out while the test watches.
    const quick = await startTestApp({ CLOCK_MIN_SECONDS: '1', SWEEP_INTERVAL_MS: '100' });
    try {
      const [ada, bob] = [await quick.player('Ada'), await quick.player('Bob')];
      // A turn that times out leaves 10 s (the increment) for the seat's next: DEADLINE_SOON only 8 s into
      // it, so the page changing before then is its own ticker's doing.
      const clock = { kind: 'BANK', bankSeconds: 4, incrementSeconds: 10, maxBankSeconds: 10, forfeitAfter: 2 };
      const { createMatch } = await ada.request<{ createMatch: { id: string } }>(
        'mutation($input: CreateMatchInput!) { createMatch(input: $input) { id } }',
        { input: { seats: 2, clock } },
      );
      await bob.request('mutation($id: ID!) { joinMatch(matchId: $id) { id } }', { id: createMatch.id });
      const w = await openAs(ada, `/#/match/${createMatch.id}`, undefined, quick.url);
      const deadline = w.page.getByTestId('deadline');
      await deadline.waitFor();
      expect(await deadline.textContent()).toMatch(/When it runs out, a bot moves for (you|them)\.$/);
      // Nobody moves: the bot moves for each in turn. The next turn of the seat that led is its last:
      // the line says a timeout now loses, and counts the one so far.
      await w.page.waitForFunction(
        () =>
          /^(Your|Bob's) time to move: .+\. When it runs out, (your|their) side loses the match \(timeouts in a row: 1 of the 2 that lose it\)\.$/.test(
            document.querySelector('[data-testid=deadline]')?.textContent ?? '',
          ),
        undefined,
        { timeout: 20_000 },
      );
      // Each move the server made on a timeout says so in the log: one for each seat by now.
      const log = await w.page.locator('.log li').allTextContents();
      expect(log.filter((line) => line.endsWith('(out of time: the server moved for you)'))).toHaveLength(1);
      expect(log.filter((line) => line.endsWith('(out of time: the server moved for them)'))).toHaveLength(1);
      // The mover's bank runs down on the page, a second at a time, to what the deadline leaves.
      const mover = await w.page.locator('.match').evaluate(() => {
        const turn = document.querySelector('.to-move .bank') as HTMLElement;
        return { seat: turn.dataset.seat as string, text: turn.textContent };
      });
      expect(mover.text).toMatch(/^(10|[6-9]) s$/);
      await w.page.waitForFunction(
        ({ seat, text }) => {
          // Still this seat's turn, and less left: the ticker, not a new turn's bank.
          const now = document.querySelector(`.to-move .bank[data-seat="${seat}"]`)?.textContent ?? '';
          return /^\d+ s$/.test(now) && parseInt(now) < parseInt(text);
        },
        mover,
        { timeout: 4_000 },
      );
      // A turn's last 10 s stand out (this clock's turns are all that short), then the side loses on time.
      await w.page.locator('.deadline.near').waitFor({ timeout: 12_000 });
      await w.page.locator('.match[data-status="FINISHED"]').waitFor({ timeout: 12_000 });
      // The end says why: who ran out of time (Match.ending), not "resignation or on time".
      expect(await w.page.getByTestId('status').textContent()).toMatch(/^Finished: (Ada \(you\)|Bob) won \((you|Bob) ran out of time\)$/);
      await w.page.getByTestId('round-result').filter({ hasText: 'was cut short: the match was lost on time.' }).waitFor();
      expectClean(w, [], quick.url);
    } finally {
      await quick.close();
    }
  });

  it('says how much of the boneyard can be drawn when the reserve variant keeps some back', async () => {
    const [ada, bob] = [await app.player('Ada'), await app.player('Bob')];
    const { createMatch } = await ada.request<{ createMatch: { id: string } }>(
      'mutation { createMatch(input: { seats: 2, rules: { reserve: 2 } }) { id } }',
    );
    await bob.request('mutation($id: ID!) { joinMatch(matchId: $id) { id } }', { id: createMatch.id });
    const w = await openAs(ada, `/#/match/${createMatch.id}`);
    const { match } = await ada.request<{ match: { currentRound: { boneyardCount: number } } }>(
      'query($id: ID!) { match(id: $id) { currentRound { boneyardCount } } }',
      { id: createMatch.id },
    );
    const n = match.currentRound.boneyardCount;
    await w.page
      .getByTestId('board-summary')
      .filter({ hasText: `Boneyard: ${n} tiles, ${n - 2} of them can be drawn (2 are never drawn).` })
      .waitFor();
    expectClean(w);
  });

  it('takes only a match id in Watch, and offers no retry for an id that names no match', async () => {
    const w = await open('/');
    await w.page.getByLabel('Match id').fill('not a match');
    await w.page.getByRole('button', { name: 'Watch' }).click();
    // The browser refuses the form (its pattern): no page for it is asked of the server.
    expect(await w.page.getByLabel('Match id').evaluate((el) => (el as HTMLInputElement).validity.patternMismatch)).toBe(true);
    expect(new URL(w.page.url()).hash).not.toContain('match');
    // Typed into the address bar, it is named as typed, not percent-encoded, and "Try again" is not offered: it cannot pass.
    await w.page.goto(`${app.url}/#/match/not%20a%20match`);
    await w.page.locator('#error', { hasText: '"not a match"' }).waitFor();
    expect(await w.page.getByRole('button', { name: 'Try again' }).count()).toBe(0);
    await w.page.getByRole('link', { name: 'Back to matches' }).waitFor();
    // A match page's address pasted whole is taken too: the id in it.
    const ada = await app.player('Ada');
    const { createMatch } = await ada.request<{ createMatch: { id: string } }>('mutation { createMatch(input: { seats: 2 }) { id } }');
    await w.page.getByRole('link', { name: 'Back to matches' }).click();
    await w.page.getByLabel('Match id').fill(`${app.url}/#/match/${createMatch.id.toUpperCase()}`);
    await w.page.getByRole('button', { name: 'Watch' }).click();
    await w.page.getByRole('heading', { name: 'Watching a match' }).waitFor();
    expect(new URL(w.page.url()).hash).toBe(`#/match/${createMatch.id}`);
    expectClean(w, [/400|Bad Request/]);
  });

  it('subscribes again when the server refuses a subscription for now (RATE_LIMITED), and misses no move', async () => {
    const { ada, bob, id } = await adaAgainstBob();
    let refused = false;
    // The page's socket passes through the test, which answers the page's first matchEvents
    // subscribe as the server does when a player subscribed too often: an error message for it.
    const w = await openAs(ada, '/', (page) =>
      page.page.routeWebSocket(/\/graphql$/, (ws) => {
        const server = ws.connectToServer();
        ws.onMessage((message) => {
          const m = JSON.parse(String(message)) as { id?: string; type: string; payload?: { query?: string } };
          if (!refused && m.type === 'subscribe' && m.payload?.query?.includes('matchEvents')) {
            refused = true;
            const refusal = {
              message: 'too many subscriptions (limit 60 per 60 s): retry after 1 s',
              extensions: { code: 'RATE_LIMITED', retryAfter: 1 },
            };
            return ws.send(JSON.stringify({ id: m.id, type: 'error', payload: [refusal] }));
          }
          server.send(message);
        });
      }),
    );
    await w.page.evaluate((matchId) => (location.hash = `#/match/${matchId}`), id);
    await w.page.getByRole('heading', { name: 'Your match' }).waitFor();
    for (let i = 0; i < 100 && !refused; i++) await new Promise((r) => setTimeout(r, 50));
    expect(refused).toBe(true);
    // A move made after the refusal reaches the page only through a subscription.
    const turn = (await serverView(id)).turn as number;
    await bobPlaysUntilAdasTurn(turn === 0 ? ada : bob, id, turn);
    const now = await serverView(id);
    await w.page.waitForFunction((v) => document.querySelector('.match')?.getAttribute('data-version') === String(v), now.version, {
      timeout: 15_000,
    });
    expect(await w.page.locator('#error').isHidden()).toBe(true);
    expectClean(w);
  });

  it('wraps a long unbroken name on a phone instead of widening the page', async () => {
    const [long, bob] = [await app.player('W'.repeat(40)), await app.player('Bob')];
    const { createMatch } = await long.request<{ createMatch: { id: string } }>('mutation { createMatch(input: { seats: 2 }) { id } }');
    await bob.request('mutation($id: ID!) { joinMatch(matchId: $id) { id } }', { id: createMatch.id });
    const w = await openAs(bob, `/#/match/${createMatch.id}`);
    await w.page.setViewportSize({ width: 360, height: 640 });
    await w.page.locator('[data-testid=scores]', { hasText: 'WWWW' }).waitFor();
    expect(await w.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await screenshot(w.page, 'long-name-phone');
    expectClean(w);
  });

  it('plays with friends: a private match joined with its invite code, and a seat chosen beside a partner', async () => {
    const [ada, bob, cy] = [await app.player('Ada'), await app.player('Bob'), await app.player('Cy')];
    const adaPage = await openAs(ada);
    await adaPage.page.getByLabel('Private: joined only with its invite code').check();
    const secret = await createMatch(adaPage.page, { seats: 2, botSeats: [], targetScore: 50 });
    const code = (await adaPage.page.getByTestId('invite-code').locator('strong').textContent()) as string;
    expect(code).toMatch(/^[A-Z0-9-]{6,}$/);
    const { match: created } = await ada.request<{ match: { private: boolean } }>('query($id: ID!) { match(id: $id) { private } }', { id: secret });
    expect(created.private).toBe(true);

    // Someone with the link but not the code is told how to join, and offered no button that would fail.
    const bobPage = await openAs(bob, `/#/match/${secret}`);
    await bobPage.page.getByText('A private match: join it with its invite code').waitFor();
    expect(await bobPage.page.getByRole('button', { name: 'Join this match' }).count()).toBe(0);
    await bobPage.page.goto(`${app.url}/#/`);
    await bobPage.page.getByLabel('Invite code', { exact: true }).fill(` ${code.toLowerCase().replace(/-/g, ' ')} `);
    await bobPage.page.getByRole('button', { name: 'Join', exact: true }).click();
    await bobPage.page.waitForURL(new RegExp(`#/match/${secret}$`));
    await bobPage.page.getByRole('heading', { name: 'Your match' }).waitFor();
    expect((await serverView(secret)).status).toBe('IN_PROGRESS');

    // A public partnership match: the seat across from Ada is her partner's, and can be chosen.
    await adaPage.page.goto(`${app.url}/#/`);
    await adaPage.page.getByRole('heading', { level: 1, name: 'Matches' }).waitFor();
    const open4 = await createMatch(adaPage.page, { seats: 4, botSeats: [], targetScore: 50 });
    const cyPage = await openAs(cy, `/#/match/${open4}`);
    await cyPage.page.getByRole('button', { name: `Sit in seat 3 (partner of ${ada.me?.name})` }).click();
    await cyPage.page.getByRole('heading', { name: 'Your match' }).waitFor();
    const { match: four } = await cy.request<{ match: { mySeat: number; teams: { seats: number[] }[] } }>(
      'query($id: ID!) { match(id: $id) { mySeat teams { seats } } }',
      { id: open4 },
    );
    expect(four.mySeat).toBe(2);
    expect(four.teams.find((t) => t.seats.includes(0))?.seats).toEqual([0, 2]);
    expect(await accessibilityViolations(cyPage.page)).toEqual([]);
    for (const w of [adaPage, bobPage, cyPage]) expectClean(w);
  });

  it('keeps a long layout readable on a phone: the board scrolls sideways instead of shrinking', async () => {
    const [ada, bob] = [await app.player('Ada'), await app.player('Bob')];
    const { createMatch } = await ada.request<{ createMatch: { id: string } }>(
      'mutation { createMatch(input: { seats: 2, rules: { targetScore: 250, spinner: NONE } }) { id } }',
    );
    const id = createMatch.id;
    await bob.request('mutation($id: ID!) { joinMatch(matchId: $id) { id } }', { id });
    // Play (both seats, over the API) until the server's own picture of the layout is wide.
    const widthOf = async () => Number(/<svg[^>]* width="([\d.]+)"/.exec(await (await fetch(`${app.url}/matches/${id}/board.svg`)).text())?.[1]);
    // Its last play on the right, the end a box scrolled to its start would hide.
    const lastEnd = async () =>
      (
        await ada.request<{ match: { currentRound: { moves: { type: string; end: string | null }[] } } }>(
          'query($id: ID!) { match(id: $id) { currentRound { moves { type end } } } }',
          { id },
        )
      ).match.currentRound.moves
        .filter((m) => m.type === 'PLAY')
        .pop()?.end;
    for (let i = 0; (await widthOf()) < 560 || (await lastEnd()) !== 'RIGHT'; i++) {
      expect(i).toBeLessThan(300);
      await bobPlaysUntilAdasTurn(bob, id, 1);
      if ((await widthOf()) >= 560 && (await lastEnd()) === 'RIGHT') break;
      await bobPlaysUntilAdasTurn(ada, id, 0);
    }
    const w = await openAs(ada, `/#/match/${id}`);
    await w.page.setViewportSize({ width: 375, height: 800 });
    await w.page.reload(); // drawn at a phone's width from the start
    const svg = w.page.locator('.board .board-picture svg');
    await svg.waitFor();
    // The box opens where the last play is, not at the layout's far left.
    await w.page.waitForFunction(() => {
      const box = document.querySelector('.board .board-picture') as HTMLElement;
      const last = box.querySelector('g.tile.last')?.getBoundingClientRect();
      const b = box.getBoundingClientRect();
      return last !== undefined && last.left >= b.left && last.right <= b.right;
    });
    const drawn = Number(await svg.getAttribute('width'));
    const shown = (await svg.boundingBox())!.width;
    expect(shown).toBeGreaterThanOrEqual(drawn * 0.7 - 1);
    const box = await w.page.locator('.board .board-picture').evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
    expect(box.scroll).toBeGreaterThan(box.client); // it scrolls
    expect(await w.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375); // the page does not
    await screenshot(w.page, 'narrow-board');
  });

  it('forbids framing by another site and runs nothing but its own files (the other tests see no policy violation)', async () => {
    for (const path of ['/', '/index.html', '/app.js']) {
      const res = await fetch(`${app.url}${path}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    }
    // A page of another origin that frames the client gets no client in its frame.
    const w = await watchedPage(browser);
    await w.page.setContent(`<iframe src="${app.url}/" id="f"></iframe>`);
    const frame = await (await w.page.waitForSelector('#f')).contentFrame();
    await frame?.waitForLoadState('load');
    expect(frame && (await frame.$('main#app'))).toBeFalsy();
    await w.page.close();
  });

  it("shows the server's refusals in words", async () => {
    const w = await open('/#/match/00000000-0000-4000-8000-000000000000');
    await w.page.locator('#error', { hasText: 'No such match.' }).waitFor();
    await w.page.goto(`${app.url}/#/`);
    await register(w.page, 'Ada');
    // A hand of 10 for 4 seats needs 40 tiles of 28: the form allows it (its fields do not depend on each other), the server does not.
    await w.page.getByLabel('Seats', { exact: true }).selectOption('4');
    await w.page.getByText('Rule variants').click();
    await w.page.getByLabel('Hand size').fill('10');
    await w.page.getByRole('button', { name: 'Create match' }).click();
    await w.page.locator('#error', { hasText: 'The server refused the input.' }).waitFor();
    expect(w.page.url()).toMatch(/#\/$/); // no match was created
    expectClean(w);
  });

  it('links the GraphQL IDE where the server serves it, and hides the link where it does not (GRAPHQL_IDE=false, production)', async () => {
    const w = await open('/');
    await w.page.getByRole('link', { name: 'GraphQL IDE' }).waitFor();
    const off = await startTestApp({ GRAPHQL_IDE: 'false' });
    try {
      const page = (await watchedPage(browser)).page;
      const checked = page.waitForResponse((r) => r.url() === `${off.url}/web-client.json`);
      await page.goto(`${off.url}/`);
      await page.getByRole('button', { name: 'Register' }).waitFor();
      // The server said the IDE is off: the link stays hidden.
      expect(await (await checked).json()).toEqual({ graphqlIde: false });
      await page.evaluate(() => new Promise((r) => setTimeout(r, 100)));
      expect(await page.locator('#ide-link').isVisible()).toBe(false);
      await page.close();
    } finally {
      await off.close();
    }
    expectClean(w);
  });

  it('serves the GraphQL IDE from the server, running a query and a subscription', async () => {
    const ada = await app.player('Ada');
    const bob = await app.player('Bob');
    const { createMatch } = await ada.request<{ createMatch: { id: string } }>('mutation { createMatch(input: { seats: 2 }) { id } }');
    await bob.request('mutation($id: ID!) { joinMatch(matchId: $id) { id } }', { id: createMatch.id });

    const ide = await open('/graphql');
    await ide.page.getByRole('button', { name: 'Send Request' }).click();
    await ide.page.locator('app-query-result', { hasText: '"leaderboard"' }).waitFor({ timeout: 30_000 });

    const editor = ide.page.locator('app-query-editor .cm-content');
    await editor.click();
    await ide.page.keyboard.press('Control+A');
    await ide.page.keyboard.insertText(`subscription { matchEvents(matchId: "${createMatch.id}", afterSeq: 0) { seq type } }`);
    await ide.page
      .getByRole('button', { name: /Send Request|Subscribe/ })
      .first()
      .click();
    await ide.page.locator('app-query-result', { hasText: 'MATCH_STARTED' }).waitFor({ timeout: 30_000 });
    await screenshot(ide.page, 'graphql-ide');
    expectClean(ide);
  });
});
