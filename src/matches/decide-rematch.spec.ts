import { randomUUID } from 'node:crypto';
import { decideExpiry, decideRematch, decideRematchSeat, rematchOffered } from './decide-rematch.js';
import { decideJoin, seatPlayer } from './decide-seating.js';
import { defaultSeatSeed } from '../domain/index.js';
import { newDealChain } from './fair-deal-secrets.js';
import type { LoadedMatch } from './loaded-match.js';
import { newMatchFrom, newInviteCode, normalizeInviteCode, settingsOf } from './match-settings.js';
import { rematchLeaderSeat, winningScorer } from './r24-leader.js';
import { MATCH_ID, NO_MATCHMAKING, startedMatch, waitingMatch } from './spec/loaded-matches.js';
import { codeOf, commitOf, joiner } from './spec/decisions.js';

/** A FINISHED match of `players`, won by the score of `winningSeat`. */
function finished(players: string[], winningSeat: number | null, extra: Partial<LoadedMatch> = {}): LoadedMatch {
  const r = startedMatch(players);
  return { ...r, status: 'FINISHED', state: { ...r.state!, status: 'FINISHED', winner: 0, winningSeat }, winnerTeam: 0, ...extra };
}

describe('decideRematch', () => {
  it('the first caller creates it in their old seat, carrying the winning scorer (R24)', () => {
    const plan = decideRematch(finished(['a', 'b'], 1), 'a');
    expect(plan).toEqual({ create: { seat: 0, links: { rematchOfId: MATCH_ID, rematchLeader: { seat: 1, playerId: 'b' } } } });
  });

  it('later callers join the rematch that exists', () => {
    const f = finished(['a', 'b'], 1, { matchmaking: { ...NO_MATCHMAKING, rematchId: 'r' } });
    expect(decideRematch(f, 'b')).toEqual({ join: 'r', seat: 1 });
  });

  it('checks in order: a player of the match (FORBIDDEN), then FINISHED (MATCH_NOT_FINISHED)', () => {
    expect(codeOf(() => decideRematch(startedMatch(['a', 'b']), 'z'))).toBe('FORBIDDEN');
    expect(codeOf(() => decideRematch(startedMatch(['a', 'b']), 'a'))).toBe('MATCH_NOT_FINISHED');
    expect(codeOf(() => decideRematch(waitingMatch(['a', null]), 'a'))).toBe('MATCH_NOT_FINISHED');
  });

  it('a resigned match has no winning score: the rematch goes by lot', () => {
    expect(winningScorer(finished(['a', 'b'], null))).toBeNull();
  });
});

describe('the rematch copies every setting', () => {
  it('seats, teams, bots and their strategies, partnerships, rules, privacy', () => {
    const f = finished(['a', 'b', 'c', 'd'], 0);
    f.partnerships = true;
    f.seats = f.seats.map((s, i) => ({
      ...s,
      team: i % 2,
      isBot: i === 3,
      botStrategy: i === 3 ? 'expert' : null,
      playerId: i === 3 ? null : s.playerId,
    }));
    f.rules = { ...f.rules, targetScore: 150, scoring: 'FIVES_AND_THREES' };
    f.matchmaking = { ...f.matchmaking, private: true };
    const { match, empty } = newMatchFrom(
      settingsOf(f),
      'a',
      { ...newDealChain(), matchId: randomUUID(), pendingOf: null },
      { rematchOfId: f.id, rematchLeader: { seat: 0, playerId: 'a' } },
    );
    expect(settingsOf(empty)).toEqual(settingsOf(f));
    expect(match.seats.map((s) => [s.team, s.isBot, s.botStrategy])).toEqual(f.seats.map((s) => [s.team, s.isBot, s.botStrategy]));
    expect(match.matchmaking).toMatchObject({ private: true, rematchOfId: f.id });
    expect(match.chainSecret).not.toBe(f.chainSecret); // its own fair-deal chain
    // Every seat's seed until someone gives one follows from the commitment: none is left for the server to pick.
    expect(match.seats.map((s) => s.clientSeed)).toEqual([0, 1, 2, 3].map((i) => defaultSeatSeed(match.dealCommitment, i)));
    expect(match.id).not.toBe(f.id);
  });
});

describe('R24 at the rematch start', () => {
  const rematch = (leader: LoadedMatch['matchmaking']['rematchLeader']) =>
    waitingMatch(['a', null], { matchmaking: { ...NO_MATCHMAKING, rematchLeader: leader } });

  it('the winning scorer seated in another seat still leads, from that seat', () => {
    const r = rematch({ seat: 0, playerId: 'b' });
    expect(rematchLeaderSeat(r, ['a', 'b'])).toBe(1);
    const c = commitOf(decideJoin(r, joiner('b')));
    expect(c.state?.round.starter).toBe(1);
    expect(c.state?.config.round1Leader).toBe(1);
    expect(c.roundsStarted).toEqual([{ number: 1, starter: 1 }]);
  });

  it('the winning scorer absent: round 1 by lot, as any match', () => {
    const r = rematch({ seat: 1, playerId: 'z' });
    expect(rematchLeaderSeat(r, ['a', 'b'])).toBeNull();
    expect(commitOf(decideJoin(r, joiner('b'))).state?.config.round1Leader).toBeUndefined();
  });

  it('a bot that made the winning score leads from its seat', () => {
    const r = waitingMatch(['a', 'bot'], { matchmaking: { ...NO_MATCHMAKING, rematchLeader: { seat: 1, playerId: null } } });
    expect(rematchLeaderSeat(r, ['a', null])).toBe(1);
  });
});

describe('decideRematchSeat', () => {
  it('the old seat when free, else the first free human seat; idempotent when seated', () => {
    expect(commitOf(decideRematchSeat(waitingMatch(['a', null, null]), joiner('b'), 2)).seatChanges?.[0].index).toBe(2);
    expect(commitOf(decideRematchSeat(waitingMatch(['a', null, 'x']), joiner('b'), 2)).seatChanges?.[0].index).toBe(1);
    expect(decideRematchSeat(waitingMatch(['a', 'b', null]), joiner('b'), 1)).toEqual({ unchanged: true });
  });

  it('in partnerships, a player whose old seat was taken keeps their team when a seat of it is free', () => {
    const partners = (players: (string | null)[]): LoadedMatch => {
      const r = waitingMatch(players);
      return { ...r, partnerships: true, seats: r.seats.map((s) => ({ ...s, team: s.index % 2 })) };
    };
    // Seat 0 (team 0) taken by a stranger: seat 2 is team 0's other seat, before the free seat 1.
    expect(commitOf(decideRematchSeat(partners(['x', null, null, 'c']), joiner('a'), 0)).seatChanges?.[0].index).toBe(2);
    // Team 0 full: the first free seat, whichever team.
    expect(commitOf(decideRematchSeat(partners(['x', null, 'y', null]), joiner('a'), 0)).seatChanges?.[0].index).toBe(1);
  });

  it('a rematch that started without the caller is full, playing or since finished', () => {
    expect(codeOf(() => decideRematchSeat(startedMatch(['a', 'x']), joiner('b'), 1))).toBe('MATCH_FULL');
    expect(codeOf(() => decideRematchSeat({ ...startedMatch(['a', 'x']), status: 'FINISHED' as const }, joiner('b'), 1))).toBe('MATCH_FULL');
    // One the caller played is theirs as it is (a retry of the request that seated them).
    expect(decideRematchSeat({ ...startedMatch(['a', 'b']), status: 'FINISHED' as const }, joiner('b'), 1)).toEqual({ unchanged: true });
  });

  it('an abandoned rematch is not in progress, to its own players too (it expired with them seated)', () => {
    expect(codeOf(() => decideRematchSeat(waitingMatch(['a', null], { status: 'ABANDONED' }), joiner('b'), 1))).toBe('MATCH_NOT_IN_PROGRESS');
    expect(codeOf(() => decideRematchSeat(waitingMatch(['a', null], { status: 'ABANDONED' }), joiner('a'), 0))).toBe('MATCH_NOT_IN_PROGRESS');
  });

  it('REMATCH_OFFERED goes on the finished match, which stays FINISHED', () => {
    const c = rematchOffered(finished(['a', 'b'], 0), 1);
    expect(c.status).toBe('FINISHED');
    expect(c.finished).toBeUndefined();
    expect(c.events).toEqual([{ type: 'REMATCH_OFFERED', moveSeq: null, seat: 1 }]);
  });
});

describe('private matches and invite codes', () => {
  it('joinMatch refuses a private match; the invite code seats', () => {
    const r = waitingMatch(['a', null], { matchmaking: { ...NO_MATCHMAKING, private: true } });
    expect(codeOf(() => decideJoin(r, joiner('b')))).toBe('FORBIDDEN');
    expect(commitOf(decideJoin(r, joiner('b'), 'invite')).status).toBe('IN_PROGRESS');
    // Already seated says so first.
    expect(codeOf(() => decideJoin(r, joiner('a')))).toBe('BAD_USER_INPUT');
  });

  it('a join that leaves the match WAITING restarts its time to live; one that starts it does not', () => {
    expect(commitOf(decideJoin(waitingMatch(['a', null, null]), joiner('b'))).restartsExpiry).toBe(true);
    expect(seatPlayer(waitingMatch(['a', null]), joiner('b'), 1).restartsExpiry).toBeUndefined();
  });

  it('codes: 16 Crockford base32 characters, all different; typed in any case, with dashes', () => {
    const codes = new Set(Array.from({ length: 1000 }, () => newInviteCode()));
    expect(codes.size).toBe(1000);
    for (const c of codes) expect(c).toMatch(/^[0-9A-HJKMNP-TV-Z]{16}$/);
    expect(normalizeInviteCode('abcd-efgh 1234')).toBe('ABCDEFGH1234');
  });

  it('codes: the letters base32 leaves out read as the digits they look like (O as 0, I and L as 1), in either case', () => {
    expect(normalizeInviteCode('O1IL-oil')).toBe('0111011');
    expect(normalizeInviteCode('4k0q-m2lz')).toBe('4K0QM21Z');
    // U, also left out, looks like no digit: it stays, and no code matches it.
    expect(normalizeInviteCode('u')).toBe('U');
    // Every code read back as typed, and every look-alike of one, is the code.
    const code = newInviteCode();
    expect(normalizeInviteCode(code)).toBe(code);
    expect(normalizeInviteCode(code.replace(/0/g, 'o').replace(/1/g, 'l'))).toBe(code);
  });
});

describe('decideExpiry', () => {
  it('abandons a WAITING match still at the claimed version, with MATCH_EXPIRED', () => {
    const c = commitOf(decideExpiry(waitingMatch(['a', null]), 1));
    expect(c.status).toBe('ABANDONED');
    expect(c.finished).toBe(true);
    expect(c.events).toEqual([{ type: 'MATCH_EXPIRED', moveSeq: null }]);
  });

  it('does nothing once anything happened since the claim (a join, a leave) or the match is no longer WAITING', () => {
    expect(decideExpiry(waitingMatch(['a', null]), 0)).toEqual({ unchanged: true });
    expect(decideExpiry(startedMatch(['a', 'b']), 3)).toEqual({ unchanged: true });
  });
});
