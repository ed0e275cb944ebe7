import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { ApiError } from '../common/api-error.js';
import { playerName } from '../common/validate.js';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { PrismaService } from '../database/prisma.service.js';
import type { Player, PlayerSession } from './models/player.model.js';
import { SocketSessions, type SocketOperation } from './socket-sessions.js';
import { TokenCache } from './token-cache.js';
import { bearerToken, hashToken, newToken } from './token.js';

/** Who a request's token names, and the token's digest (rotate and revoke act on that token). */
export interface Session {
  player: Player;
  tokenHash: string;
  /** The graphql-ws operation the request is, if it came over a socket (see SocketSessions.closeStale). */
  via?: SocketOperation;
}

@Injectable()
export class PlayersService {
  private readonly byTokenHash: TokenCache;

  constructor(
    private readonly prisma: PrismaService,
    private readonly sockets: SocketSessions,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.byTokenHash = new TokenCache(config.tokenCacheTtlMs);
  }

  async register(rawName: string): Promise<PlayerSession> {
    const name = playerName(rawName);
    const token = newToken();
    const player = await this.prisma.player.create({
      data: { name, tokenHash: hashToken(token) },
      select: { id: true, name: true },
    });
    return { player, token };
  }

  async findById(id: string): Promise<Player | null> {
    return this.prisma.player.findUnique({ where: { id }, select: { id: true, name: true } });
  }

  /**
   * The player an `Authorization` value names, with its token's digest: null when none is given
   * (anonymous reader); UNAUTHENTICATED when one is given but matches nobody.
   */
  async session(authorization: unknown): Promise<Session | null> {
    if (authorization === undefined || authorization === null || authorization === '') return null;
    const token = bearerToken(authorization);
    if (!token) throw new ApiError('UNAUTHENTICATED', 'Authorization must be "Bearer <token>"');
    const digest = hashToken(token);
    const cached = this.byTokenHash.get(digest);
    if (cached) return { player: cached, tokenHash: digest };
    const player = await this.prisma.player.findUnique({ where: { tokenHash: digest }, select: { id: true, name: true } });
    if (!player) throw new ApiError('UNAUTHENTICATED', 'unknown or revoked token');
    this.byTokenHash.set(digest, player);
    return { player, tokenHash: digest };
  }

  /** A new token for the session's player; the one used for this call stops working at once. */
  async rotate(session: Session): Promise<PlayerSession> {
    const token = newToken();
    await this.replaceToken(session, hashToken(token));
    return { player: session.player, token };
  }

  /** The session's token stops working at once; no token is left to act as this player. */
  async revoke(session: Session): Promise<void> {
    // Not a sha256 hex digest, so no token can ever hash to it (the column is unique and required).
    await this.replaceToken(session, `revoked:${randomUUID()}`);
  }

  private async replaceToken(session: Session, next: string): Promise<void> {
    const { count } = await this.prisma.player.updateMany({
      where: { id: session.player.id, tokenHash: session.tokenHash },
      data: { tokenHash: next },
    });
    this.byTokenHash.evictPlayer(session.player.id);
    if (count === 0) throw new ApiError('UNAUTHENTICATED', 'unknown or revoked token');
    this.sockets.closeStale(session.player.id, next, session.via);
  }
}
