import pg from 'pg';

/** TCP keep-alive for the sessions and the pool: a dead peer that the network does report is found within a minute. */
export const KEEP_ALIVE = { keepAlive: true, keepAliveInitialDelayMillis: 10_000 } as const;

/**
 * A dedicated session (the LISTEN connection, the instance lock): it holds state no pool can hand
 * over. Every query on it, the heartbeat's included, fails once it has waited `heartbeatMs`.
 */
export function dedicatedSession(url: string, applicationName: string, heartbeatMs: number): pg.Client {
  return new pg.Client({ connectionString: url, application_name: applicationName, query_timeout: heartbeatMs, ...KEEP_ALIVE });
}

/**
 * Nothing is sent on a dedicated session for hours, so a peer that vanished without a FIN or RST
 * (a failover, a lost NAT entry, a dead host) would be found by TCP keep-alive only after the
 * OS's two hours, while the session silently did nothing. So it is asked a trivial question every
 * `intervalMs`; one that fails (the session's query timeout included: see dedicatedSession)
 * counts as lost.
 */
export function watchSession(client: pg.Client, intervalMs: number, onLost: () => void): () => void {
  let asking = false;
  const timer = setInterval(() => {
    if (asking) return;
    asking = true;
    client.query('SELECT 1').then(() => (asking = false), onLost);
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}

/** Ends a session that may no longer answer: its socket is destroyed rather than closed politely. */
export function dropSession(client: pg.Client): void {
  (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
  void client.end().catch(() => {});
}
