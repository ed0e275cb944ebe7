import type { AppConfig } from '../config/config.js';
import { ApiError } from '../common/api-error.js';
import { GlobalCounts, MAX_WAITING_COUNTS, MAX_WAITING_COUNTS_PER_CALLER } from './global-counts.js';

const gate = (globalCounts: number, acquireTimeoutMs: number) =>
  new GlobalCounts({ limits: { db: { globalCounts, acquireTimeoutMs } } } as AppConfig);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const refusal = (e: unknown) => (e instanceof ApiError ? { code: e.code, details: e.details } : e);

describe('GlobalCounts', () => {
  it('runs counts one at a time, in order', async () => {
    const counts = gate(1, 10_000);
    const log: string[] = [];
    const read = (name: string) => async () => {
      log.push(`start ${name}`);
      await sleep(20);
      log.push(`end ${name}`);
      return name;
    };
    expect(await Promise.all(['a', 'b', 'c'].map((n) => counts.run('a', read(n))))).toEqual(['a', 'b', 'c']);
    expect(log).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
  });

  it('does not run a count whose turn comes after DB_ACQUIRE_TIMEOUT_MS: RATE_LIMITED, retry after a second', async () => {
    const counts = gate(1, 100);
    let ran = 0;
    const first = counts.run('a', () => sleep(300).then(() => ++ran));
    const late = counts.run('a', async () => ++ran).catch(refusal);
    expect(await first).toBe(1);
    expect(await late).toEqual({ code: 'RATE_LIMITED', details: { retryAfter: 1 } });
    expect(ran).toBe(1);
  });

  it('refuses at once a count that would join MAX_WAITING_COUNTS waiting ones', async () => {
    const counts = gate(1, 60_000);
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const running = counts.run('a', () => held);
    const waiting = Array.from({ length: MAX_WAITING_COUNTS }, (_, i) => counts.run(`caller ${i % 100}`, async () => 'ok'));
    await expect(counts.run('someone new', async () => 'one too many').catch(refusal)).resolves.toEqual({
      code: 'RATE_LIMITED',
      details: { retryAfter: 1 },
    });
    release();
    await running;
    expect(new Set(await Promise.all(waiting))).toEqual(new Set(['ok']));
  });

  it("serves callers in turns: one caller's backlog delays another's count by one count at most", async () => {
    const counts = gate(1, 60_000);
    const log: string[] = [];
    const read = (name: string) => async () => {
      log.push(name);
      await sleep(5);
    };
    const all = [
      ...['a1', 'a2', 'a3', 'a4', 'a5'].map((n) => counts.run('flooding', read(n))),
      counts.run('other', read('b1')),
      counts.run('third', read('c1')),
    ];
    await Promise.all(all);
    expect(log).toEqual(['a1', 'a2', 'b1', 'c1', 'a3', 'a4', 'a5']);
  });

  it("refuses at once a count that would join MAX_WAITING_COUNTS_PER_CALLER of its caller, not anyone else's", async () => {
    const counts = gate(1, 60_000);
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const running = counts.run('a', () => held);
    const waiting = Array.from({ length: MAX_WAITING_COUNTS_PER_CALLER }, () => counts.run('a', async () => 'ok'));
    await expect(counts.run('a', async () => 'one too many').catch(refusal)).resolves.toEqual({ code: 'RATE_LIMITED', details: { retryAfter: 1 } });
    const another = counts.run('b', async () => 'b runs');
    release();
    await running;
    expect(await Promise.all(waiting)).toEqual(Array(MAX_WAITING_COUNTS_PER_CALLER).fill('ok'));
    expect(await another).toBe('b runs');
  });

  it('passes on a count that fails, and runs the next one', async () => {
    const counts = gate(1, 60_000);
    const failing = counts.run('a', () => Promise.reject(new Error('statement timeout')));
    const next = counts.run('b', async () => 'next ran');
    await expect(failing).rejects.toThrow('statement timeout');
    expect(await next).toBe('next ran');
  });
});
