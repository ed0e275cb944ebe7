import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import type { WebSocket } from 'ws';
import { Prisma } from '../../generated/prisma/client.js';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { PrismaService } from '../database/prisma.service.js';

/** The close code of a graphql-ws socket whose token was rotated or revoked (as for a bad token at connect). */
export const TOKEN_REVOKED_CLOSE_CODE = 4403;
const REASON = 'Forbidden: token revoked or rotated';

/** An operation on a graphql-ws socket: the socket and the operation's id on it. */
export interface SocketOperation {
  socket: WebSocket;
  operationId: string;
}

/**
 * The open graphql-ws sockets and the token each authenticated with. A rotate or revoke on this
 * instance closes its sockets at once; every `TOKEN_CACHE_TTL_MS` one statement re-checks the
 * tokens of all open sockets, so a rotate or revoke on another instance closes them here too.
 */
@Injectable()
export class SocketSessions implements OnApplicationShutdown {
  private readonly logger = new Logger(SocketSessions.name);
  private readonly sockets = new Map<WebSocket, { digest: string; playerId: string; closeOnceAnswered?: string }>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly prisma: PrismaService,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.timer = setInterval(
      () => void this.recheck().catch((e: unknown) => this.logger.warn(`token re-check failed: ${String(e)}`)),
      config.tokenCacheTtlMs,
    );
    this.timer.unref();
  }

  track(socket: WebSocket, digest: string, playerId: string): void {
    this.sockets.set(socket, { digest, playerId });
    socket.once('close', () => this.sockets.delete(socket));
  }

  /**
   * Closes this player's sockets that authenticated with any token but `current` (null: all).
   * The socket the rotate or revoke itself came over (`answering`) is closed only once that
   * operation is answered (`answered`): closed at once, it would drop the answer, and with it
   * the only copy of a rotated token. Until then it takes no new operation (`closing`).
   */
  closeStale(playerId: string, current: string | null, answering?: SocketOperation): void {
    for (const [socket, s] of this.sockets) {
      if (s.playerId !== playerId || s.digest === current) continue;
      if (socket === answering?.socket) s.closeOnceAnswered = answering.operationId;
      else this.close(socket);
    }
  }

  /** graphql-ws has answered (completed) operation `operationId` on `socket`. */
  answered(socket: WebSocket, operationId: string): void {
    if (this.sockets.get(socket)?.closeOnceAnswered === operationId) this.close(socket);
  }

  /** Whether the socket's token is gone and it closes once its last answer is out. */
  closing(socket: WebSocket): boolean {
    return this.sockets.get(socket)?.closeOnceAnswered !== undefined;
  }

  /** Closes every socket whose token no longer names a player. */
  async recheck(): Promise<void> {
    if (this.sockets.size === 0) return;
    // Judge only the sockets whose tokens were asked about: one that connects while the query
    // runs (a slow database) carries a token the answer knows nothing of, and is not stale.
    const checked = [...this.sockets];
    const digests = [...new Set(checked.map(([, s]) => s.digest))];
    // A sweep, not a request's statement: dominoes_sql_statements_total leaves it out.
    const rows = await this.prisma.background<{ tokenHash: string }>(
      Prisma.sql`SELECT "tokenHash" FROM "Player" WHERE "tokenHash" = ANY(${digests}::text[])`,
    );
    const valid = new Set(rows.map((r) => r.tokenHash));
    for (const [socket, s] of checked) if (this.sockets.has(socket) && !valid.has(s.digest)) this.close(socket);
  }

  private close(socket: WebSocket): void {
    this.sockets.delete(socket);
    socket.close(TOKEN_REVOKED_CLOSE_CODE, REASON);
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }
}
