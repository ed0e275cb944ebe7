import { chainSecretHex, DEAL_CHAIN_LENGTH, deckFromSecret, type Tile } from '../domain/index.js';
import { buildMatchRecord, type MatchRecordV1, type RecordRound, type RecordSource } from './record-format.js';

/**
 * The match-record format, version 2 (docs/match-record.md, docs/match-record.v2.schema.json):
 * version 1 plus what re-derives every deal (docs/fair-deals.md) — the commitment, every seat's
 * client seed, and per round its revealed secret and deck. Every round of a FINISHED match is
 * revealed, the one a resignation cut short included; S_N and the rest of the chain never are.
 */
export const RECORD_VERSION_2 = 2;

export interface RecordDeal {
  secret: string;
  deck: Tile[];
}

export interface MatchRecordV2 extends Omit<MatchRecordV1, 'version' | 'seats' | 'rounds' | 'ending'> {
  version: typeof RECORD_VERSION_2;
  dealCommitment: string;
  seats: (MatchRecordV1['seats'][number] & { clientSeed: string })[];
  rounds: (RecordRound & { deal: RecordDeal })[];
  /** DEALS_EXHAUSTED: round N ended with no side at the target (or a tie), so the match ended there. */
  ending: MatchRecordV1['ending'] | 'DEALS_EXHAUSTED';
}

/** The fair-deal inputs of a match, as stored (the chain's head stays on the server). */
export interface FairDealSource {
  chainSecret: string;
  dealCommitment: string;
  clientSeeds: string[]; // by seat index
}

export function buildMatchRecordV2(src: RecordSource, fair: FairDealSource): MatchRecordV2 {
  const v1 = buildMatchRecord(src);
  const anchor = { round: DEAL_CHAIN_LENGTH, secret: fair.chainSecret };
  const rounds = v1.rounds.map((r) => {
    const secret = chainSecretHex(anchor, r.number);
    const deck = deckFromSecret(secret, src.id, r.number, fair.clientSeeds).map((t) => ({ high: t.high, low: t.low }));
    return { ...r, deal: { secret, deck } };
  });
  const last = rounds[rounds.length - 1];
  const top = Math.max(...v1.finalScores);
  const exhausted =
    v1.ending === 'TARGET_REACHED' &&
    last?.number === DEAL_CHAIN_LENGTH &&
    last.result?.end !== 'MATCH_WON' &&
    (top < v1.rules.targetScore || v1.finalScores.filter((s) => s === top).length > 1);
  return {
    ...v1,
    version: RECORD_VERSION_2,
    dealCommitment: fair.dealCommitment,
    seats: v1.seats.map((s) => ({ ...s, clientSeed: fair.clientSeeds[s.index] })),
    rounds,
    ending: exhausted ? 'DEALS_EXHAUSTED' : v1.ending,
  };
}
