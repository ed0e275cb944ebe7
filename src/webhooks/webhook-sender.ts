import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { performance } from 'node:perf_hooks';
import { Logger } from '@nestjs/common';
import { BlockedAddressError, guardedLookup, hostOf, isPublicAddress } from './ssrf-guard.js';

/** What is read of a response's body (then the connection is closed): only its status counts. */
const MAX_BODY_BYTES = 64 * 1024;

/** How long a kept-alive connection to a receiver may stay idle before it is closed. */
const IDLE_SOCKET_MS = 30_000;

/** What one attempt came to: an HTTP status, or an error and no status. */
export interface AttemptOutcome {
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  /** the receiver's Retry-After, in ms, when it sent one */
  retryAfterMs: number | null;
}

/**
 * POSTs one signed message. Redirects are never followed (a 3xx is a failed attempt), the whole
 * attempt, the reading of the response's body included, is bounded by `timeoutMs`, and the
 * address connected to is checked after DNS resolution (ssrf-guard). Connections are kept alive
 * per host between attempts.
 */
export class WebhookSender {
  private readonly logger = new Logger(WebhookSender.name);
  private readonly agents: { http: http.Agent; https: https.Agent };
  private readonly lookup: ReturnType<typeof guardedLookup>;

  constructor(private readonly options: { timeoutMs: number; allowPrivate: boolean; idleSocketMs?: number }) {
    this.lookup = guardedLookup(options.allowPrivate);
    // An idle kept-alive socket is closed after a while, and only a few are kept per host: a
    // receiver that never closes idle connections would otherwise hold some for every host the
    // server ever posted to, until the process runs out of file descriptors.
    const agent = { keepAlive: true, maxSockets: 50, maxFreeSockets: 4, timeout: options.idleSocketMs ?? IDLE_SOCKET_MS };
    this.agents = { http: new http.Agent(agent), https: new https.Agent(agent) };
  }

  post(rawUrl: string, headers: Record<string, string>, body: string): Promise<AttemptOutcome> {
    const started = performance.now();
    const failed = (error: string): AttemptOutcome => ({
      statusCode: null,
      error,
      durationMs: Math.round(performance.now() - started),
      retryAfterMs: null,
    });
    let url: URL;
    try {
      url = new URL(rawUrl);
    } catch {
      return Promise.resolve(failed('the url does not parse'));
    }
    const secure = url.protocol === 'https:';
    if (!secure && !(this.options.allowPrivate && url.protocol === 'http:')) return Promise.resolve(failed('only https:// is allowed'));
    // An IP literal is connected to without a lookup: check it here.
    const host = hostOf(url);
    if (isIP(host) && !this.options.allowPrivate && !isPublicAddress(host)) return Promise.resolve(failed(`${host} is not a public address`));

    return new Promise((resolve) => {
      let settled = false;
      // Set once the status is in: from then on the outcome is decided, whatever the body does.
      let answered: AttemptOutcome | null = null;
      const settle = (o: AttemptOutcome) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(o);
      };
      const request = (secure ? https : http).request(
        url,
        {
          method: 'POST',
          agent: secure ? this.agents.https : this.agents.http,
          lookup: this.lookup,
          headers: {
            ...headers,
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
            'user-agent': 'straight-dominoes-webhooks/1',
          },
        },
        (res) => {
          const outcome: AttemptOutcome = {
            statusCode: res.statusCode ?? null,
            error: null,
            durationMs: Math.round(performance.now() - started),
            retryAfterMs: retryAfterMs(res.headers['retry-after']),
          };
          answered = outcome;
          // Only the status counts. The body is read away so the connection can serve the next
          // attempt, but only MAX_BODY_BYTES of it and within the attempt's timeout: a receiver
          // that streams forever loses the connection instead of holding it (and a slot) for good.
          let read = 0;
          res.on('data', (chunk: Buffer) => {
            read += chunk.length;
            if (read <= MAX_BODY_BYTES) return;
            settle(outcome);
            request.destroy();
          });
          res.on('end', () => settle(outcome));
          res.on('close', () => settle(outcome));
          res.on('error', () => {});
        },
      );
      const timer = setTimeout(() => {
        settle(answered ?? failed(`no answer within ${this.options.timeoutMs} ms`));
        request.destroy();
      }, this.options.timeoutMs);
      request.on('error', (e: NodeJS.ErrnoException) => {
        if (e instanceof BlockedAddressError) this.logger.warn(`webhook attempt refused: ${e.detail}`);
        settle(answered ?? failed(describeError(e)));
      });
      request.end(body);
    });
  }

  close(): void {
    this.agents.http.destroy();
    this.agents.https.destroy();
  }
}

/** Retry-After as seconds or as an HTTP date, in ms from now; null when absent or unreadable. */
export function retryAfterMs(value: string | undefined, now = Date.now()): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/**
 * What the delivery log says of a failed request. Trying a receiver's addresses one after another
 * (IPv4 and IPv6) ends, when all fail, in an AggregateError whose own message is empty: its
 * errors say what happened.
 */
function describeError(e: NodeJS.ErrnoException): string {
  const message = e instanceof AggregateError && !e.message ? e.errors.map((inner: Error) => inner.message).join('; ') : e.message;
  return e.code ? `${e.code}: ${message}` : message;
}
