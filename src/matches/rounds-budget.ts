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
/** Views' worth of rounds (GRAPHQL_MAX_ROUNDS × SUBSCRIPTION_EVENTS each) one address's subscriptions may resolve a minute. */
export const VIEWS_PER_ADDRESS = 3;

@Injectable()
export class RoundsBudget {
  private readonly max: number;
  private readonly maxInView: number;
  private readonly maxPerAddress: number;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.max = config.limits.query.maxRounds;
    this.maxInView = this.max * SUBSCRIPTION_EVENTS;
    this.maxPerAddress = this.maxInView * VIEWS_PER_ADDRESS;
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

  /**
   * Per client address, the rounds its subscriptions' events resolved in the current minute: the
   * budget per view and document does not add up across documents, and one address may hold 100
   * sockets of 20 subscriptions, each with a document of its own (an alias is enough). Sixty of
   * them catching up on a 300-round match wrote 2.4 GB. At most VIEWS_PER_ADDRESS views' worth
   * (GRAPHQL_MAX_ROUNDS × SUBSCRIPTION_EVENTS each) a minute per address, then its events that
   * resolve rounds are refused until the minute ends. A shared event is counted against the
   * subscriber it was executed for.
   */
  private readonly perAddress = new Map<string, { until: number; resolved: number }>();

  spend(context: RequestContext, rounds: number): void {
    const read = (context.roundsRead ?? 0) + rounds;
    if (read > this.max) throw this.refusal(`Query reads more than ${this.max} rounds`, 'ask for fewer matches at once');
    context.roundsRead = read;
  }

  /**
   * Refuses an event of a subscription (`view`, `document`, the subscriber's `address`) whose
   * rounds would go past a budget already spent, before they are read.
   */
  checkInView(view: object, document: object, address: string): void {
    if ((this.resolvedPerView.get(view)?.get(document) ?? 0) >= this.maxInView) throw this.inViewRefusal();
    if (this.addressWindow(address).resolved >= this.maxPerAddress) throw this.addressRefusal();
  }

  /** Spends `rounds` resolved for one event of a subscription page (`view`) under `document`'s selection, by `address`. */
  spendInView(view: object, document: object, address: string, rounds: number): void {
    let byDocument = this.resolvedPerView.get(view);
    if (!byDocument) this.resolvedPerView.set(view, (byDocument = new WeakMap()));
    const resolved = (byDocument.get(document) ?? 0) + rounds;
    if (resolved > this.maxInView) throw this.inViewRefusal();
    const window = this.addressWindow(address);
    if (window.resolved + rounds > this.maxPerAddress) throw this.addressRefusal();
    byDocument.set(document, resolved);
    window.resolved += rounds;
  }

  private addressWindow(address: string): { until: number; resolved: number } {
    const now = Date.now();
    let window = this.perAddress.get(address);
    if (!window || window.until <= now) {
      if (this.perAddress.size >= 10_000) for (const [a, w] of this.perAddress) if (w.until <= now) this.perAddress.delete(a);
      this.perAddress.set(address, (window = { until: now + 60_000, resolved: 0 }));
    }
    return window;
  }

  private inViewRefusal(): GraphQLError {
    return this.refusal(
      `These events resolve more than ${this.maxInView} rounds`,
      'read Match.rounds with a query, not in every event of a catch-up',
      this.maxInView,
    );
  }

  private addressRefusal(): GraphQLError {
    return this.refusal(
      `Subscriptions from this address resolved more than ${this.maxPerAddress} rounds this minute`,
      'read Match.rounds with a query, not in every event of a catch-up',
      this.maxPerAddress,
    );
  }

  private refusal(what: string, advice: string, max = this.max): GraphQLError {
    return new GraphQLError(`${what} (GRAPHQL_MAX_ROUNDS): ${advice}`, {
      extensions: { code: 'GRAPHQL_VALIDATION_FAILED', limit: 'GRAPHQL_MAX_ROUNDS', max },
    });
  }
}
