import { Inject, Injectable } from '@nestjs/common';
import type { DueWorkKind } from '../../due-work/due-work-kind.js';
import { DueWorkSweeper } from '../../due-work/due-work.sweeper.js';
import { CommandRunner } from '../command-runner.js';
import { MatchCache } from '../match-cache.js';
import { CLOCK, type Clock } from './clock.js';
import { ClockRepository } from './clock.repository.js';
import { decideClockWork } from './decide-clock.js';

/**
 * The clocks' due work: every instance's sweeper claims matches whose "clockDueAt" has come
 * (DEADLINE_SOON at 80 % of a turn, then the deadline) and runs each through the same
 * compare-and-set command path as a move, so a timeout racing a last-second move, or another
 * instance's sweep, applies once. Deadlines live only in the database: a restart loses none.
 */
@Injectable()
export class ClockService implements DueWorkKind {
  readonly name = 'clock';

  constructor(
    @Inject(ClockRepository) private readonly repo: ClockRepository,
    @Inject(CommandRunner) private readonly runner: CommandRunner,
    @Inject(MatchCache) private readonly cache: MatchCache,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(DueWorkSweeper) sweeper: DueWorkSweeper,
  ) {
    sweeper.register(this);
  }

  claim(limit: number, leaseMs: number): Promise<string[]> {
    return this.repo.claimDue(this.clock.now(), limit, leaseMs);
  }

  async run(matchId: string): Promise<void> {
    // Decided on the database's row, never on a cached one: an older cached turn may show a later
    // deadline (a bigger bank), and "not due" from it would leave the work to the lease's end.
    this.cache.forget(matchId);
    await this.runner.run(matchId, (r) => decideClockWork(r, this.clock.now()));
  }
}
