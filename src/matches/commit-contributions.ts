import { Injectable } from '@nestjs/common';
import type { Prisma } from '../../generated/prisma/client.js';
import type { Commit } from './loaded-match.js';

/**
 * Writes another module adds to every command's single commit statement (the webhook outbox):
 * data-modifying CTEs guarded by the compare-and-set, so they are written with the commit or not
 * at all. A module above matches registers its contributor when it starts, so matches never
 * imports it; the history index and stats, which belong to matches, are not contributions.
 */
export interface CommitContributor {
  /**
   * @param seats who sits in each seat once the commit holds (null: a bot or a free seat)
   * @param guard a condition that holds only when the commit's compare-and-set did
   */
  ctes(c: Commit, seats: readonly (string | null)[], guard: Prisma.Sql): Prisma.Sql[];
}

@Injectable()
export class CommitContributions {
  private readonly contributors: CommitContributor[] = [];

  register(contributor: CommitContributor): void {
    this.contributors.push(contributor);
  }

  ctes(c: Commit, seats: readonly (string | null)[], guard: Prisma.Sql): Prisma.Sql[] {
    return this.contributors.flatMap((x) => x.ctes(c, seats, guard));
  }
}
