import { loadConfig } from '../config/config.js';
import type { EventBus, MatchSignal } from '../realtime/event-bus.js';
import { FeedRegistry } from './feed-registry.js';

const bus = { onSignal: () => {}, onResync: () => {}, publish: () => Promise.resolve(), close: () => Promise.resolve() } as EventBus;

describe('FeedRegistry: the turns re-checks hand to myTurns feeds', () => {
  const registry = () => new FeedRegistry(loadConfig({ FEED_RECHECK_MS: '1000' }), bus);

  it('hands a turn to every feed of the player whose signal was lost, though another feed of theirs began after it', () => {
    const r = registry();
    const [a, b]: (MatchSignal | 'resync')[][] = [[], []];
    r.watchPlayer('p', (s) => a.push(s));
    // The signal of m's turn (version 5) is lost; then the player opens a second feed, whose
    // catch-up reads that turn and pushes it to that feed alone.
    r.watchPlayer('p', (s) => b.push(s));
    r.turnsKnown('p', [{ id: 'm', version: 5 }]);
    r.turnsNow('p', [{ matchId: 'm', version: 5, lastSeq: 9 }]);
    expect(a).toEqual([{ matchId: 'm', version: 5, lastSeq: 9, turnPlayerId: 'p' }]);
  });

  it("hands a player's one feed none of the turns its catch-up read", () => {
    const r = registry();
    const got: (MatchSignal | 'resync')[] = [];
    r.watchPlayer('p', (s) => got.push(s));
    r.turnsKnown('p', [{ id: 'm', version: 5 }]);
    r.turnsNow('p', [
      { matchId: 'm', version: 5, lastSeq: 9 },
      { matchId: 'n', version: 2, lastSeq: 3 },
    ]);
    expect(got).toEqual([{ matchId: 'n', version: 2, lastSeq: 3, turnPlayerId: 'p' }]);
  });
});
