import type { FastifyInstance } from 'fastify';
import type { AppConfig } from '../config/config.js';
import { limitHttpByAddress } from './http-rate-limit.js';
import { RateLimits } from './rate-limits.service.js';

type Hook = (request: { url: string; ip: string; headers: Record<string, string> }, reply: FakeReply) => Promise<unknown>;

class FakeReply {
  status = 200;
  code(n: number): this {
    this.status = n;
    return this;
  }
  header(): this {
    return this;
  }
  send(): this {
    return this;
  }
}

/** The per-address budget's hook, given requests from chosen client addresses. */
describe('limitHttpByAddress', () => {
  let hook!: Hook;
  const limits = new RateLimits({
    redisUrl: null,
    rateLimits: { keyPrefix: 'spec', httpAddress: { points: 2, seconds: 60 } },
  } as unknown as AppConfig);
  limitHttpByAddress({ addHook: (_name: string, fn: Hook) => (hook = fn) } as unknown as FastifyInstance, limits);

  const status = async (ip: string) => {
    const reply = new FakeReply();
    await hook({ url: '/graphql', ip, headers: {} }, reply);
    return reply.status;
  };

  it('counts every address of one IPv6 /64 as one client, and another /64 apart', async () => {
    expect(await status('2001:db8:aa:1::1')).toBe(200);
    expect(await status('2001:db8:aa:1::2')).toBe(200);
    expect(await status('2001:db8:aa:1:ffff::3')).toBe(429); // a fresh address of the same /64: the same budget
    expect(await status('2001:db8:aa:2::1')).toBe(200);
  });

  it('counts an IPv4 address and its IPv4-mapped IPv6 form as one client', async () => {
    expect(await status('198.51.100.9')).toBe(200);
    expect(await status('::ffff:198.51.100.9')).toBe(200);
    expect(await status('198.51.100.9')).toBe(429);
  });
});
