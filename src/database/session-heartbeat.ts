import pg from 'pg';

/**
 * A dedicated session (the LISTEN connection, the instance lock) holds state no pool can hand
 * over, and nothing is sent on it for hours. A peer that vanished without a FIN or RST (a
 * failover, a lost NAT entry, a dead host) is then found by TCP keep-alive only after the OS's
 * two hours, and meanwhile the session silently does nothing. So it is asked a trivial question
 * every `intervalMs`: one that gets no answer within the same time counts as lost.
 */
export function watchSession(client: pg.Client, intervalMs: number, onLost: () => void): () => void {
  let asking = false;
  const timer = setInterval(() => {
    if (asking) return;
    asking = true;
    let answered = false;
    const deadline = setTimeout(() => answered || onLost(), intervalMs);
    deadline.unref();
    client.query('SELECT 1').then(
      () => {
        answered = true;
        asking = false;
        clearTimeout(deadline);
      },
      () => {
        answered = true;
        clearTimeout(deadline);
        onLost();
      },
    );
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}

/** Ends a session that may no longer answer: its socket is destroyed rather than closed politely. */
export function dropSession(client: pg.Client): void {
  (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
  void client.end().catch(() => {});
}

/** TCP keep-alive for the sessions and the pool: a dead peer that the network does report is found within a minute. */
export const KEEP_ALIVE = { keepAlive: true, keepAliveInitialDelayMillis: 10_000 } as const;
