import type { Player } from './models/player.model.js';

/** Token digests held at most; past it the oldest entries go first. */
const CAPACITY = 10_000;

/**
 * Token digest → player, each entry trusted for `ttlMs` only: a token rotated or revoked through
 * another instance stops working here within that time (here, at once: rotate/revoke evict).
 */
export class TokenCache {
  private readonly entries = new Map<string, { player: Player; until: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  get(digest: string): Player | undefined {
    const hit = this.entries.get(digest);
    if (!hit) return undefined;
    if (hit.until > this.now()) return hit.player;
    this.entries.delete(digest);
    return undefined;
  }

  set(digest: string, player: Player): void {
    const now = this.now();
    this.entries.delete(digest); // re-insert: Map order is the order of `until`
    this.entries.set(digest, { player, until: now + this.ttlMs });
    if (this.entries.size > CAPACITY) this.entries.delete(this.entries.keys().next().value!);
    this.dropExpired(now);
  }

  /** Digests held (for tests). */
  get size(): number {
    return this.entries.size;
  }

  /**
   * An expired entry serves no read, so it goes from the oldest end as new ones come: otherwise
   * the digests of every token seen in the last CAPACITY sign-ins would stay in memory.
   */
  private dropExpired(now: number): void {
    for (const [digest, { until }] of this.entries) {
      if (until > now) return;
      this.entries.delete(digest);
    }
  }

  /** Forgets every digest of this player (its token just changed). */
  evictPlayer(playerId: string): void {
    for (const [digest, { player }] of this.entries) if (player.id === playerId) this.entries.delete(digest);
  }
}
