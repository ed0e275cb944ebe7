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

describe('FeedRegistry: the ends re-checks hand to myTurns feeds', () => {
  const registry = () => new FeedRegistry(loadConfig({ FEED_RECHECK_MS: '1000' }), bus);
  const ended = (version: number): MatchSignal => ({ matchId: 'm', version, lastSeq: 9, turnPlayerId: null, endedFor: ['p'] });

  it('hands an end no signal announced to the player alone, once across re-checks that still see it', () => {
    const r = registry();
    const got: (MatchSignal | 'resync')[] = [];
    r.watchPlayer('p', (s) => got.push(s));
    r.endsNow('p', [{ matchId: 'm', version: 7, lastSeq: 9 }]);
    r.endsNow('p', [{ matchId: 'm', version: 7, lastSeq: 9 }]);
    expect(got).toEqual([ended(7)]);
  });

  it('hands none of the ends a signal announced, and a later version of the same match (its rematch offer) once more', () => {
    const r = registry();
    const got: (MatchSignal | 'resync')[] = [];
    r.watchPlayer('p', (s) => got.push(s));
    const dispatch = (r as unknown as { dispatch(s: MatchSignal): void }).dispatch.bind(r);
    dispatch(ended(7));
    r.endsNow('p', [{ matchId: 'm', version: 7, lastSeq: 9 }]);
    r.endsNow('p', [{ matchId: 'm', version: 8, lastSeq: 10 }]);
    expect(got).toEqual([ended(7), { ...ended(8), lastSeq: 10 }]);
  });

  it('keeps nothing for a player once their last feed stops', () => {
    const r = registry();
    const stop = r.watchPlayer('p', () => {});
    expect(r.watchedSince('p')).toBeLessThanOrEqual(Date.now());
    stop();
    expect(r.watchedSince('p')).toBeUndefined();
  });
});
