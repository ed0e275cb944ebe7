/** A claimed item with how long past its due time it was claimed (the sweeper's lag). */
export interface DueItem {
  key: string;
  lateMs: number;
}

/**
 * One kind of work that falls due (a bot to move; later a seat's clock, a webhook delivery). Its
 * due time lives in a row written by the commit that causes it, so after a crash nothing is lost;
 * the sweeper of every instance claims due rows and runs them.
 */
export interface DueWorkKind {
  /** For logs. */
  readonly name: string;
  /**
   * Claims up to `limit` due items and returns their keys. A claim is a lease: it pushes the item's
   * due time `leaseMs` ahead in one statement (`… FOR UPDATE SKIP LOCKED`), so no other instance
   * takes it meanwhile, and it falls due again by itself if this instance dies before finishing.
   * A kind that knows each item's due time returns DueItems, so its lateness is measured.
   */
  claim(limit: number, leaseMs: number): Promise<readonly (string | DueItem)[]>;
  /**
   * Does one claimed item's work through the same compare-and-set command path as a player's
   * command, so racing a player, the in-process fast path or another instance applies it once.
   */
  run(key: string): Promise<void>;
  /**
   * A claimed item the sweeper will not run now (it is backing off after failures): forget what
   * `claim` kept for it. Its lease brings it back.
   */
  release?(key: string): void;
  /**
   * Set by a kind whose items may wait on others (a webhook receiver that takes its full timeout):
   * up to this many of its items run at once, and the sweeper claims more as each one finishes
   * instead of waiting for the slowest of a batch. Without it, a batch runs to its end before the
   * next claim.
   */
  readonly concurrency?: number;
}
