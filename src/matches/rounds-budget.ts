import { Inject, Injectable } from '@nestjs/common';
import { GraphQLError } from 'graphql';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { SUBSCRIPTION_EVENTS } from '../limits/query-cost.js';
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
  private readonly maxInView: number;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.max = config.limits.query.maxRounds;
    this.maxInView = this.max * SUBSCRIPTION_EVENTS;
  }

  /**
   * Per view of a match and per subscription document: the events a feed builds from one stored
   * state of the match (a live commit's, or every page of a catch-up while the match stands
   * still) share one view, and each event resolves `Match.rounds` again (every answer holds the
   * match). A catch-up of a 1,000-round match with `rounds { moves }` selected would build and
   * write the whole history once per event, thousands of times; here one view resolves at most
   * GRAPHQL_MAX_ROUNDS × SUBSCRIPTION_EVENTS rounds per document (as the query cost counts a
   * subscription's selection ten times), whoever else watches the match.
   */
  private readonly resolvedPerView = new WeakMap<object, WeakMap<object, number>>();

  spend(context: RequestContext, rounds: number): void {
    const read = (context.roundsRead ?? 0) + rounds;
    if (read > this.max) throw this.refusal(`Query reads more than ${this.max} rounds`, 'ask for fewer matches at once');
    context.roundsRead = read;
  }

  /** Spends `rounds` resolved for one event of a subscription page (`view`) under `document`'s selection. */
  spendInView(view: object, document: object, rounds: number): void {
    let byDocument = this.resolvedPerView.get(view);
    if (!byDocument) this.resolvedPerView.set(view, (byDocument = new WeakMap()));
    const resolved = (byDocument.get(document) ?? 0) + rounds;
    if (resolved > this.maxInView)
      throw this.refusal(
        `These events resolve more than ${this.maxInView} rounds`,
        'read Match.rounds with a query, not in every event of a catch-up',
      );
    byDocument.set(document, resolved);
  }

  private refusal(what: string, advice: string): GraphQLError {
    return new GraphQLError(`${what} (GRAPHQL_MAX_ROUNDS): ${advice}`, {
      extensions: { code: 'GRAPHQL_VALIDATION_FAILED', limit: 'GRAPHQL_MAX_ROUNDS', max: this.max },
    });
  }
}
