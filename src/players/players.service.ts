import { Injectable } from '@nestjs/common';
import { ApiError } from '../common/api-error.js';
import { PrismaService } from '../database/prisma.service.js';
import type { Player, PlayerSession } from './models/player.model.js';
import { bearerToken, hashToken, newToken } from './token.js';

const MAX_NAME = 40;
/** Token digests already looked up; players are never deleted, so an entry never goes stale. */
const CACHE_LIMIT = 10_000;

@Injectable()
export class PlayersService {
  private readonly byTokenHash = new Map<string, Player>();

  constructor(private readonly prisma: PrismaService) {}

  async register(rawName: string): Promise<PlayerSession> {
    const name = rawName.trim();
    if (name.length === 0 || name.length > MAX_NAME) {
      throw new ApiError('BAD_USER_INPUT', `name must be 1 to ${MAX_NAME} characters`);
    }
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
   * The player an `Authorization` value names: null when none is given (anonymous reader);
   * UNAUTHENTICATED when one is given but matches nobody.
   */
  async authenticate(authorization: unknown): Promise<Player | null> {
    if (authorization === undefined || authorization === null || authorization === '') return null;
    const token = bearerToken(authorization);
    if (!token) throw new ApiError('UNAUTHENTICATED', 'Authorization must be "Bearer <token>"');
    const digest = hashToken(token);
    const cached = this.byTokenHash.get(digest);
    if (cached) return cached;
    const player = await this.prisma.player.findUnique({ where: { tokenHash: digest }, select: { id: true, name: true } });
    if (!player) throw new ApiError('UNAUTHENTICATED', 'unknown or revoked token');
    if (this.byTokenHash.size >= CACHE_LIMIT) this.byTokenHash.clear();
    this.byTokenHash.set(digest, player);
    return player;
  }
}
