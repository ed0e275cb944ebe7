import { chainSecretHexFrom, DEAL_CHAIN_LENGTH, deckFromSecret, type Tile } from '../domain/index.js';
import { buildRecordBody, type RecordBody, type RecordRound, type RecordSource } from './record-format.js';

/**
 * The match-record format, version 2 (docs/match-record.md, docs/match-record.v2.schema.json):
 * the record body (record-format.ts) plus what re-derives every deal (docs/fair-deals.md) — the
 * commitment, every seat's client seed, and per round its revealed secret and deck. Every round of
 * a FINISHED match is revealed, the one a resignation cut short included; S_N and the rest of the
 * chain never are.
 */

export interface RecordDeal {
  secret: string;
  deck: Tile[];
}

export interface MatchRecordV2 extends Omit<RecordBody, 'seats' | 'rounds' | 'ending'> {
  dealCommitment: string;
  seats: (RecordBody['seats'][number] & { clientSeed: string })[];
  rounds: (RecordRound & { deal: RecordDeal })[];
  /** DEALS_EXHAUSTED: round N ended with no side at the target (or a tie), so the match ended there. */
  ending: RecordBody['ending'] | 'DEALS_EXHAUSTED';
}

/** The fair-deal inputs of a match, as stored (the chain's head stays on the server). */
export interface FairDealSource {
  chainSecret: string;
  /** S_16 … S_512 of the chain (absent: walked from chainSecret) */
  dealCheckpoints?: Uint8Array | null;
  dealCommitment: string;
  clientSeeds: string[]; // by seat index
}

export function buildMatchRecordV2(src: RecordSource, fair: FairDealSource): MatchRecordV2 {
  const body = buildRecordBody(src);
  const anchor = { round: DEAL_CHAIN_LENGTH, secret: fair.chainSecret };
  const rounds = body.rounds.map((r) => {
    const secret = chainSecretHexFrom(anchor, fair.dealCheckpoints ?? null, r.number);
    const deck = deckFromSecret(secret, src.id, r.number, fair.clientSeeds).map((t) => ({ high: t.high, low: t.low }));
    return { ...r, deal: { secret, deck } };
  });
  const last = rounds[rounds.length - 1];
  const top = Math.max(...body.finalScores);
  const exhausted =
    body.ending === 'TARGET_REACHED' &&
    last?.number === DEAL_CHAIN_LENGTH &&
    last.result?.end !== 'MATCH_WON' &&
    (top < body.rules.targetScore || body.finalScores.filter((s) => s === top).length > 1);
  // Spelled out so the commitment comes first, as readers meet it in the docs.
  return {
    format: body.format,
    version: body.version,
    matchId: body.matchId,
    createdAt: body.createdAt,
    finishedAt: body.finishedAt,
    dealCommitment: fair.dealCommitment,
    rules: body.rules,
    ...(body.round1Leader === undefined ? {} : { round1Leader: body.round1Leader }),
    seats: body.seats.map((s) => ({ ...s, clientSeed: fair.clientSeeds[s.index] })),
    teams: body.teams,
    rounds,
    finalScores: body.finalScores,
    winner: body.winner,
    ending: exhausted ? 'DEALS_EXHAUSTED' : body.ending,
    ...(body.forfeit ? { forfeit: body.forfeit } : {}),
  };
}
