import { Parent, ResolveField, Resolver } from '@nestjs/graphql';
import DataLoader from 'dataloader';
import { MatchEndingsRepository } from './match-endings.repository.js';
import { MatchStatus } from './models/enums.js';
import { MatchEnding } from './models/match-ending.model.js';
import { Match } from './models/match.model.js';

/** Match.ending: why a finished match is over, read from its events. */
@Resolver(() => Match)
export class MatchEndingResolver {
  /** The endings of every match resolved in the same tick (a page of matches) in one statement; nothing kept past it. */
  private readonly endings: DataLoader<string, MatchEnding | null>;

  constructor(repo: MatchEndingsRepository) {
    this.endings = new DataLoader((ids) => repo.endingsOf(ids), { cache: false });
  }

  @ResolveField(() => MatchEnding, {
    nullable: true,
    description:
      'How the match ended, once FINISHED: TARGET_REACHED, or the seat whose side lost by resigning or on time (RESIGNED, TIMED_OUT). Null before the end, and for an ABANDONED match.',
  })
  ending(@Parent() match: Match): Promise<MatchEnding | null> | null {
    // Only a finished match has an ending to read: no query for the others.
    return match.status === MatchStatus.FINISHED ? this.endings.load(match.id) : null;
  }
}
