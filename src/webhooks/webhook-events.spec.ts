import type { Commit } from '../matches/loaded-match.js';
import { webhookBody, webhookEventsOf } from './webhook-events.js';

const base: Commit = {
  matchId: '00000000-0000-4000-8000-000000000001',
  expectedVersion: 4,
  lastEventSeq: 9,
  status: 'IN_PROGRESS',
  state: null,
  winnerTeam: null,
  moves: [],
  events: [],
  roundsFinished: [],
  roundsStarted: [],
};
const seats = ['p0', null, 'p2'];

describe('webhookEventsOf', () => {
  it('a plain move that hands nobody the turn: no event', () => {
    expect(webhookEventsOf(base, seats)).toEqual([]);
  });

  it('TURN to the human whose turn the commit began, with the version it made', () => {
    expect(webhookEventsOf({ ...base, turnTo: 'p2' }, seats)).toEqual([
      { playerId: 'p2', type: 'TURN', data: { matchId: base.matchId, matchVersion: 5, seat: 2, round: null } },
    ]);
  });

  it('MATCH_STARTED and MATCH_FINISHED to every seated human, never to a bot seat', () => {
    expect(webhookEventsOf({ ...base, started: true }, seats).map((e) => [e.playerId, e.type])).toEqual([
      ['p0', 'MATCH_STARTED'],
      ['p2', 'MATCH_STARTED'],
    ]);
    const finished = webhookEventsOf({ ...base, status: 'FINISHED', finished: true, winnerTeam: 0 }, seats);
    expect(finished.map((e) => [e.playerId, e.type, e.data.winnerTeam])).toEqual([
      ['p0', 'MATCH_FINISHED', 0],
      ['p2', 'MATCH_FINISHED', 0],
    ]);
    // An abandoned match is not "finished".
    expect(webhookEventsOf({ ...base, status: 'ABANDONED', finished: true }, seats)).toEqual([]);
  });

  it('REMATCH_OFFERED to every other human of the finished match, naming the offering seat', () => {
    const offered = { ...base, status: 'FINISHED' as const, events: [{ type: 'REMATCH_OFFERED' as const, moveSeq: null, seat: 0 }] };
    expect(webhookEventsOf(offered, seats)).toEqual([
      { playerId: 'p2', type: 'REMATCH_OFFERED', data: { matchId: base.matchId, matchVersion: 5, seat: 2, offeredBySeat: 0 } },
    ]);
  });

  it('PLAYER_JOINED and PLAYER_LEFT of a match that still waits, to every other human seated', () => {
    const waiting = { ...base, status: 'WAITING' as const };
    const joined = {
      ...waiting,
      seatChanges: [{ index: 2, playerId: 'p2', clientSeed: 's' }],
      events: [{ type: 'PLAYER_JOINED' as const, moveSeq: null }],
    };
    expect(webhookEventsOf(joined, seats)).toEqual([
      { playerId: 'p0', type: 'PLAYER_JOINED', data: { matchId: base.matchId, matchVersion: 5, seat: 0, joinedSeat: 2 } },
    ]);
    const left = {
      ...waiting,
      seatChanges: [{ index: 1, playerId: null, clientSeed: 's' }],
      events: [{ type: 'PLAYER_LEFT' as const, moveSeq: null }],
    };
    expect(webhookEventsOf(left, seats)).toEqual([
      { playerId: 'p0', type: 'PLAYER_LEFT', data: { matchId: base.matchId, matchVersion: 5, seat: 0, leftSeat: 1 } },
      { playerId: 'p2', type: 'PLAYER_LEFT', data: { matchId: base.matchId, matchVersion: 5, seat: 2, leftSeat: 1 } },
    ]);
    // The last one out abandons the match: nobody is left to tell.
    expect(webhookEventsOf({ ...left, status: 'ABANDONED', finished: true }, [null, null, null])).toEqual([]);
    // A join that fills the table is MATCH_STARTED, not PLAYER_JOINED.
    expect(webhookEventsOf({ ...joined, status: 'IN_PROGRESS', started: true }, seats).map((e) => e.type)).toEqual([
      'MATCH_STARTED',
      'MATCH_STARTED',
    ]);
  });

  it('MATCH_EXPIRED to every human seated in the match nobody joined', () => {
    const expired = { ...base, status: 'ABANDONED' as const, finished: true, events: [{ type: 'MATCH_EXPIRED' as const, moveSeq: null }] };
    expect(webhookEventsOf(expired, seats)).toEqual([
      { playerId: 'p0', type: 'MATCH_EXPIRED', data: { matchId: base.matchId, matchVersion: 5, seat: 0 } },
      { playerId: 'p2', type: 'MATCH_EXPIRED', data: { matchId: base.matchId, matchVersion: 5, seat: 2 } },
    ]);
  });

  it('the body is the Standard Webhooks shape: type, timestamp, data', () => {
    const [e] = webhookEventsOf({ ...base, turnTo: 'p0' }, seats);
    expect(JSON.parse(webhookBody(e, new Date('2026-12-01T00:00:00Z')))).toEqual({
      type: 'TURN',
      timestamp: '2026-12-01T00:00:00.000Z',
      data: { matchId: base.matchId, matchVersion: 5, seat: 0, round: null },
    });
  });
});
