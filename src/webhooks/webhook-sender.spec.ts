import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebhookSender } from './webhook-sender.js';

/** A receiver that never closes an idle connection (as Go's net/http without IdleTimeout). */
async function receiver(): Promise<{ server: http.Server; url: string; open(): Promise<number> }> {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(204).end());
  });
  server.keepAliveTimeout = 0;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    server,
    url: `http://127.0.0.1:${port}/hook`,
    open: () => new Promise((r, j) => server.getConnections((e, n) => (e ? j(e) : r(n)))),
  };
}

/** Waits until `ok` holds; the deadline (well past the 2 s idle limit) only bounds a failure. */
async function until(ok: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await ok())) {
    if (Date.now() > deadline) throw new Error(`still not so after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('WebhookSender connections', () => {
  it('closes a kept-alive connection once it has been idle, even when the receiver never does', async () => {
    const rx = await receiver();
    const sender = new WebhookSender({ timeoutMs: 2_000, allowPrivate: true, idleSocketMs: 2_000 });
    try {
      const outcomes = await Promise.all(Array.from({ length: 8 }, () => sender.post(rx.url, { 'content-type': 'application/json' }, '{}')));
      expect(outcomes.map((o) => o.statusCode)).toEqual(Array(8).fill(204));
      // Eight at once opened several connections; at most four stay for the next attempts.
      await until(async () => (await rx.open()) <= 4);
      expect(await rx.open()).toBeGreaterThan(0);
      // Idle past the limit: closed from the sender's side.
      await until(async () => (await rx.open()) === 0);
    } finally {
      sender.close();
      rx.server.closeAllConnections();
      await new Promise((r) => rx.server.close(r));
    }
  });
});
