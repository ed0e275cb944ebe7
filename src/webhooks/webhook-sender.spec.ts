import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { eventually } from '../../test/support/eventually.js';
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

describe('WebhookSender connections', () => {
  it('closes a kept-alive connection once it has been idle, even when the receiver never does', async () => {
    const rx = await receiver();
    const sender = new WebhookSender({ timeoutMs: 2_000, allowPrivate: true, idleSocketMs: 2_000 });
    try {
      const outcomes = await Promise.all(Array.from({ length: 8 }, () => sender.post(rx.url, { 'content-type': 'application/json' }, '{}')));
      expect(outcomes.map((o) => o.statusCode)).toEqual(Array(8).fill(204));
      // Eight at once opened several connections; at most four stay for the next attempts.
      await eventually(
        () => rx.open(),
        (n) => n <= 4,
        'at most four connections kept',
        10_000,
      );
      expect(await rx.open()).toBeGreaterThan(0);
      // Idle past the limit: closed from the sender's side.
      // The deadline is well past the 2 s idle limit.
      await eventually(
        () => rx.open(),
        (n) => n === 0,
        'every idle connection closed',
        10_000,
      );
    } finally {
      sender.close();
      rx.server.closeAllConnections();
      await new Promise((r) => rx.server.close(r));
    }
  });
});
