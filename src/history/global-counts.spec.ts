import type { AppConfig } from '../config/config.js';
import { ApiError } from '../common/api-error.js';
import { GlobalCounts, MAX_WAITING_COUNTS } from './global-counts.js';

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
    expect(await Promise.all(['a', 'b', 'c'].map((n) => counts.run(read(n))))).toEqual(['a', 'b', 'c']);
    expect(log).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
  });

  it('does not run a count whose turn comes after DB_ACQUIRE_TIMEOUT_MS: RATE_LIMITED, retry after a second', async () => {
    const counts = gate(1, 100);
    let ran = 0;
    const first = counts.run(() => sleep(300).then(() => ++ran));
    const late = counts.run(async () => ++ran).catch(refusal);
    expect(await first).toBe(1);
    expect(await late).toEqual({ code: 'RATE_LIMITED', details: { retryAfter: 1 } });
    expect(ran).toBe(1);
  });

  it('refuses at once a count that would join MAX_WAITING_COUNTS waiting ones', async () => {
    const counts = gate(1, 60_000);
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const running = counts.run(() => held);
    const waiting = Array.from({ length: MAX_WAITING_COUNTS }, () => counts.run(async () => 'ok'));
    await expect(counts.run(async () => 'one too many').catch(refusal)).resolves.toEqual({ code: 'RATE_LIMITED', details: { retryAfter: 1 } });
    release();
    await running;
    expect(new Set(await Promise.all(waiting))).toEqual(new Set(['ok']));
  });
});
