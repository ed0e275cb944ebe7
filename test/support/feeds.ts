import type { RunningServer } from '../../src/bootstrap.js';
import { FeedRegistry } from '../../src/subscriptions/feed-registry.js';
import { eventually } from './eventually.js';

/**
 * Waits until `count` feeds of `server` watch this match (or this player's turns): from then on
 * every commit reaches them live. A fixed sleep after subscribing is not enough on a loaded machine.
 */
export async function feedsStarted(server: RunningServer, watched: { matchId: string } | { playerId: string }, count = 1): Promise<void> {
  const registry = server.app.get(FeedRegistry);
  await eventually(
    () => registry.feedsOf(watched),
    (n) => n >= count,
    `${count} feed(s) of ${JSON.stringify(watched)} started`,
  );
}
