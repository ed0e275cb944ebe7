import { Inject, Injectable } from '@nestjs/common';
import type { DueWorkKind } from '../due-work/due-work-kind.js';
import { DueWorkSweeper } from '../due-work/due-work.sweeper.js';
import { CommandRunner } from './command-runner.js';
import { decideExpiry } from './decide-rematch.js';
import { MatchmakingRepository } from './matchmaking.repository.js';

/**
 * Due work: a WAITING match nobody joined for OPEN_MATCH_TTL_HOURS expires (ABANDONED, event
 * MATCH_EXPIRED, its players told as when the last one leaves). The due time is Match.expiresAt,
 * written by the commits that create or join the match; the expiry goes through the same
 * compare-and-set as a join, so of a join and an expiry racing, exactly one applies.
 */
@Injectable()
export class OpenMatchExpiry implements DueWorkKind {
  readonly name = 'open match expiry';

  constructor(
    @Inject(MatchmakingRepository) private readonly repo: MatchmakingRepository,
    @Inject(CommandRunner) private readonly runner: CommandRunner,
    @Inject(DueWorkSweeper) sweeper: DueWorkSweeper,
  ) {
    sweeper.register(this);
  }

  claim(limit: number, leaseMs: number): Promise<string[]> {
    return this.repo.claimExpired(limit, leaseMs);
  }

  async run(key: string): Promise<void> {
    const [id, version] = key.split('@');
    // Read fresh: a cached record older than the claim would see a version that never expires.
    await this.runner.load(id, true);
    await this.runner.run(id, (r) => decideExpiry(r, Number(version)));
  }
}
