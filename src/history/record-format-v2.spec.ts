import { chainSecretHex, DEAL_CHAIN_LENGTH, dealCommitment, deckFromSecret, hashTimes, resolveRules, type RoundResult } from '../domain/index.js';
import { buildMatchRecordV2, type FairDealSource } from './record-format-v2.js';
import type { RecordSource } from './record-format.js';

const CHAIN = 'ab'.repeat(32);
const fair: FairDealSource = {
  chainSecret: CHAIN,
  dealCommitment: dealCommitment({ round: DEAL_CHAIN_LENGTH, secret: CHAIN }),
  clientSeeds: ['ann', '0123456789abcdef'],
};
const result = (awarded: number[]): RoundResult => ({ end: 'DOMINO', dominoSeat: 0, awarded, hands: [[], [{ high: 6, low: 4 }]] });

function source(rounds: number[], scores: number[]): RecordSource {
  return {
    id: '00000000-0000-4000-8000-000000000001',
    createdAt: new Date('2026-01-01T00:00:00Z'),
    finishedAt: new Date('2026-01-01T00:10:00Z'),
    seatCount: 2,
    partnerships: false,
    rules: resolveRules({ targetScore: 100 }),
    winnerTeam: 0,
    seats: [
      { index: 0, team: 0, isBot: false, botStrategy: null, playerId: 'p0', playerName: 'ann' },
      { index: 1, team: 1, isBot: true, botStrategy: 'greedy', playerId: null, playerName: null },
    ],
    scores,
    rounds: rounds.map((number) => ({ number, starter: 0, status: 'FINISHED' as const, result: result([10, 0]) })),
    moves: [],
    cutShortHands: null,
  };
}

describe('buildMatchRecordV2', () => {
  it('adds the commitment, the client seeds and each round’s revealed secret and deck, never the chain’s head', () => {
    const r = buildMatchRecordV2(source([1, 2], [110, 0]), fair);
    expect(r.version).toBe(2);
    expect(r.dealCommitment).toBe(fair.dealCommitment);
    expect(r.seats.map((s) => s.clientSeed)).toEqual(fair.clientSeeds);
    r.rounds.forEach((round) => {
      expect(round.deal.secret).toBe(chainSecretHex({ round: DEAL_CHAIN_LENGTH, secret: CHAIN }, round.number));
      expect(hashTimes(round.deal.secret, round.number)).toBe(r.dealCommitment);
      expect(round.deal.deck).toEqual(deckFromSecret(round.deal.secret, r.matchId, round.number, fair.clientSeeds));
    });
    expect(JSON.stringify(r)).not.toContain(CHAIN);
    expect(JSON.stringify(r)).not.toContain(chainSecretHex({ round: DEAL_CHAIN_LENGTH, secret: CHAIN }, 3));
    expect(r.ending).toBe('TARGET_REACHED');
  });

  it(`ends DEALS_EXHAUSTED when round ${DEAL_CHAIN_LENGTH} ended below the target or tied`, () => {
    expect(buildMatchRecordV2(source([DEAL_CHAIN_LENGTH], [60, 20]), fair).ending).toBe('DEALS_EXHAUSTED');
    expect(buildMatchRecordV2(source([DEAL_CHAIN_LENGTH], [120, 120]), fair).ending).toBe('DEALS_EXHAUSTED');
    expect(buildMatchRecordV2(source([DEAL_CHAIN_LENGTH], [120, 20]), fair).ending).toBe('TARGET_REACHED');
  });
});
