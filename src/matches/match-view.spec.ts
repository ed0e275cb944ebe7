import { matchModel } from './match-view.js';
import { startedMatch } from './spec/loaded-matches.js';

describe('matchModel', () => {
  it("works out a round's deal secret only when it is read", () => {
    // A stored secret the chain walk cannot decode: reading dealSecret fails, nothing else may.
    const finished = { ...startedMatch(['ann', 'bob']), status: 'FINISHED' as const, chainSecret: 'not hex' };
    const round = matchModel(finished, null).currentRound!;
    expect(round.number).toBe(1);
    expect(round.moves).toEqual([]);
    expect(() => round.dealSecret).toThrow();
  });

  it("reveals the deal secret of the round a finished match ended in, and never a live round's", () => {
    const live = startedMatch(['ann', 'bob']);
    expect(matchModel(live, null).currentRound!.dealSecret).toBeNull();
    expect(matchModel({ ...live, status: 'FINISHED' }, null).currentRound!.dealSecret).toMatch(/^[0-9a-f]{64}$/);
  });
});
