/** R24 next game's leader: a rematch's round 1 is led by the previous winning scorer's seat (config.round1Leader). */
import { apply, newMatch, withRound1Leader } from '../match.js';
import { replayMatch } from '../replay.js';
import { config, randomPolicy } from './kit.js';

describe('R24 next game leader (config.round1Leader)', () => {
  it('round 1 is led by the given seat, with the same deal as by lot', () => {
    const base = config(3, false, {}, 5);
    const byLot = newMatch(base).state;
    for (const seat of [0, 1, 2]) {
      const led = newMatch(withRound1Leader(base, seat));
      expect(led.state.round.starter).toBe(seat);
      expect(led.state.round.turn).toBe(seat);
      expect(led.events).toEqual([{ type: 'ROUND_STARTED', round: 1, starter: seat }]);
      // The lot is not drawn, so it changes nothing else: the shuffle comes first in the stream.
      expect(led.state.round.hands).toEqual(byLot.round.hands);
      expect(led.state.round.boneyard).toEqual(byLot.round.boneyard);
      expect(led.state.config.round1Leader).toBe(seat);
    }
  });

  it('no leader given: the config is stored as ever (no round1Leader key), and round 1 goes by lot', () => {
    const base = config(2);
    expect(withRound1Leader(base, null)).toBe(base);
    expect('round1Leader' in newMatch(base).state.config).toBe(false);
  });

  it('leads with any tile, even under HIGHEST_DOUBLE (as the R23 domino seat does)', () => {
    const s = newMatch(withRound1Leader(config(2, false, { leadRule: 'HIGHEST_DOUBLE' }, 9), 1)).state;
    expect(s.round.mustPlay).toBeNull();
    const tile = s.round.hands[1][0];
    expect(apply(s, { type: 'PLAY', seat: 1, tile }).ok).toBe(true);
  });

  it('refuses a leader that is not a seat', () => {
    expect(() => newMatch({ ...config(2), round1Leader: 2 })).toThrow(/round1Leader must be a seat/);
    expect(() => newMatch({ ...config(2), round1Leader: -1 })).toThrow(/round1Leader/);
  });

  it('replays: the same config and actions give the same state', () => {
    const cfg = withRound1Leader(config(2, false, { targetScore: 100 }, 3), 1);
    let state = newMatch(cfg).state;
    const policy = randomPolicy(4);
    const actions = [];
    for (let i = 0; i < 200 && state.status === 'IN_PROGRESS'; i++) {
      const a = policy(state);
      actions.push(a);
      const r = apply(state, a);
      if (!r.ok) throw new Error(r.violation.code);
      state = r.state;
    }
    expect(replayMatch(cfg, actions)).toEqual(state);
  });
});
