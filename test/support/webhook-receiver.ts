import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { startTestApp, type TestApp } from './app.js';

/** One request the receiver got. */
export interface Received {
  id: string;
  /** the request's path: tests give each endpoint its own */
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** what the receiver answered (null: it never answered) */
  answered: number | null;
  /** the connection closed (after the answer, or without one) */
  closed: boolean;
}

/**
 * What to answer a request; 'hang' never answers (the sender's timeout or a crash ends it);
 * 'stream' answers 200 and writes a body that never ends; `after` holds the answer back until it
 * settles.
 */
export type Answer = { status: number; headers?: Record<string, string>; after?: Promise<unknown> } | 'hang' | 'stream';

/**
 * A real HTTP receiver on 127.0.0.1: it records every request and answers by `answer`, which a
 * test swaps as it goes (default 200). `nth` counts the requests of the same webhook-id before this one.
 */
export class WebhookReceiver {
  readonly received: Received[] = [];
  answer: (r: Received, nth: number) => Answer = () => ({ status: 200 });
  private server: Server | null = null;
  private readonly hanging = new Set<() => void>();
  url = '';

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        const r: Received = {
          id: String(req.headers['webhook-id']),
          path: req.url ?? '',
          headers: req.headers,
          body,
          answered: null,
          closed: false,
        };
        const nth = this.received.filter((x) => x.id === r.id).length;
        this.received.push(r);
        res.on('close', () => (r.closed = true));
        const a = this.answer(r, nth);
        if (a === 'hang' || a === 'stream') {
          const drop = () => res.destroy();
          this.hanging.add(drop);
          res.on('close', () => this.hanging.delete(drop));
          if (a === 'stream') {
            r.answered = 200;
            res.writeHead(200, { 'content-type': 'text/plain' });
            // A chunk now and then, never the end: only the sender can close this connection.
            const chunk = 'x'.repeat(1024);
            const timer = setInterval(() => res.write(chunk), 20);
            res.on('close', () => clearInterval(timer));
            res.write(chunk);
          }
          return;
        }
        const send = () => {
          r.answered = a.status;
          res.writeHead(a.status, a.headers).end('ok');
        };
        if (a.after) void a.after.then(send);
        else send();
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** Requests answered 2xx, by webhook-id. */
  delivered(): Received[] {
    return this.received.filter((r) => r.answered !== null && r.answered >= 200 && r.answered < 300);
  }

  /** The requests to one path, in order. */
  at(path: string): Received[] {
    return this.received.filter((r) => r.path === path);
  }

  async close(): Promise<void> {
    for (const drop of this.hanging) drop();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }
}

/** Verifies a received request with the standardwebhooks package, as a receiver would; returns the parsed body. */
export function verified(secret: string, r: Received): { type: string; timestamp: string; data: Record<string, unknown> } {
  const headers = Object.fromEntries(['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((h) => [h, String(r.headers[h])]));
  return new Webhook(secret).verify(r.body, headers) as { type: string; timestamp: string; data: Record<string, unknown> };
}

/** A receiver and the app that sends to it, as one describe block's hooks hold them. */
export interface ReceiverAndApp {
  receiver: WebhookReceiver;
  app: TestApp;
}

/** Starts a receiver, then an app with `env`. */
export async function startReceiverAndApp(env: Record<string, string>): Promise<ReceiverAndApp> {
  const receiver = await new WebhookReceiver().start();
  return { receiver, app: await startTestApp(env) };
}

/** Closes the receiver first: its hanging requests end, so the app stops without waiting out their timeout. */
export async function closeReceiverAndApp({ receiver, app }: ReceiverAndApp): Promise<void> {
  await receiver.close();
  await app.close();
}
