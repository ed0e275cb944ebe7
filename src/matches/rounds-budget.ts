import { Inject, Injectable } from '@nestjs/common';
import { GraphQLError } from 'graphql';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import type { RequestContext } from '../players/auth.js';

/**
 * The query cost counts a match as 6 rounds (src/limits/query-cost.ts), but a match may hold up
 * to 1,000 (a high targetScore), and 30 aliases of one such match read 30,000 stored rounds for a
 * cost of a few thousand. So the rounds one query or mutation reads are counted before they are
 * read, and past GRAPHQL_MAX_ROUNDS the rest are refused: the work stays bounded by what the
 * limit allows. The refusal nulls the nearest field that may be null (`match(id)`; for a page of
 * matches, whose fields may not be null, the whole answer).
 */
@Injectable()
export class RoundsBudget {
  private readonly max: number;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.max = config.limits.query.maxRounds;
  }

  spend(context: RequestContext, rounds: number): void {
    const read = (context.roundsRead ?? 0) + rounds;
    if (read > this.max)
      throw new GraphQLError(`Query reads more than ${this.max} rounds (GRAPHQL_MAX_ROUNDS): ask for fewer matches at once`, {
        extensions: { code: 'GRAPHQL_VALIDATION_FAILED', limit: 'GRAPHQL_MAX_ROUNDS', max: this.max },
      });
    context.roundsRead = read;
  }
}
