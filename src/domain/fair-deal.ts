/**
 * Provably fair deals (docs/fair-deals.md): a commit–reveal hash chain and, per round, a byte
 * stream keyed by that round's secret and every seat's client seed.
 *
 * The server draws S_N (32 random bytes) and forms S_k = SHA-256(S_(k+1)) down to S_1; round r
 * is dealt from S_r, and hex(SHA-256(S_1)) is published before any player's seed is known. Once
 * round r is over S_r is revealed: hashing it r times gives the commitment, and it proves nothing
 * about S_(r+1) … S_N, so later deals stay unpredictable.
 *
 * The engine never sees randomness of its own: the chain is anchored by a secret and the round it
 * belongs to (the server's S_N at round N; a verifier's last revealed S_R at round R), and every
 * secret below the anchor is a pure function of it.
 */
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, hexToBytes, utf8ToBytes } from '@noble/hashes/utils.js';
import { FRESH_SET } from './tiles.js';
import type { ChainAnchor, DealSource, Tile } from './types.js';

/** N: the chain's length, so the most rounds a match can deal. */
export const DEAL_CHAIN_LENGTH = 1000;
/** The first field of every stream message; a new scheme would get a new label. */
export const DEAL_LABEL = 'straight-dominoes/deal/v1';

const HEX_SECRET = /^[0-9a-f]{64}$/;
/** 1–64 printable ASCII characters (space to tilde) other than the field separator `|`. */
const CLIENT_SEED = /^[\x20-\x7b\x7d\x7e]{1,64}$/;

export function isClientSeed(s: unknown): s is string {
  return typeof s === 'string' && CLIENT_SEED.test(s);
}

/** The first field of a seat's default seed; see defaultSeatSeed. */
export const SEAT_SEED_LABEL = 'straight-dominoes/seat-seed/v1';

/**
 * The client seed of a seat nobody gave one (a bot's, or a player's who sent none): the first 16
 * hex digits of SHA-256 of `SEAT_SEED_LABEL|commitment|seat`. A function of the commitment, not
 * drawn: once the commitment is out, the server has no seed left to choose, so it cannot pick a
 * bot's (or a silent joiner's) seed after seeing the players' to steer a deal.
 */
export function defaultSeatSeed(commitment: string, seat: number): string {
  return bytesToHex(sha256(utf8ToBytes(`${SEAT_SEED_LABEL}|${commitment}|${seat}`))).slice(0, 16);
}

/** Why a deal source cannot deal (empty when it can). */
export function dealSourceProblems(deal: DealSource | undefined, seats: number): string[] {
  if (!deal) return ['a deal source is required'];
  const problems: string[] = [];
  if (typeof deal.matchId !== 'string' || deal.matchId.length === 0) problems.push('deal.matchId must be a non-empty string');
  if (!Array.isArray(deal.clientSeeds) || deal.clientSeeds.length !== seats) problems.push(`deal.clientSeeds must hold ${seats} seeds`);
  else
    deal.clientSeeds.forEach(
      (s, i) => isClientSeed(s) || problems.push(`client seed of seat ${i} must be 1–64 printable ASCII characters without "|"`),
    );
  const a = deal.anchor;
  if (!a || !Number.isInteger(a.round) || a.round < 1 || a.round > DEAL_CHAIN_LENGTH)
    problems.push(`deal.anchor.round must be 1..${DEAL_CHAIN_LENGTH}`);
  if (!a || typeof a.secret !== 'string' || !HEX_SECRET.test(a.secret)) problems.push('deal.anchor.secret must be 64 lowercase hex digits');
  return problems;
}

/**
 * The chains walked so far, by anchor: walking from S_N to S_1 costs a thousand hashes, and a
 * match needs its secrets again at every round (and its views once rounds are revealed). A bounded
 * cache of a pure function: it changes no result, only how often the hashes are computed.
 */
const walked = new Map<string, { bytes: Uint8Array; filled: number }>();
const MAX_WALKED = 256;

/** S_r from the anchor: SHA-256 applied (anchor.round − r) times. */
export function chainSecret(anchor: ChainAnchor, r: number): Uint8Array {
  if (!Number.isInteger(r) || r < 1 || r > anchor.round) throw new RangeError(`round ${r} is outside the chain 1..${anchor.round}`);
  const key = `${anchor.round}:${anchor.secret}`;
  let chain = walked.get(key);
  if (!chain) {
    if (walked.size >= MAX_WALKED) walked.delete(walked.keys().next().value as string);
    const bytes = new Uint8Array(32 * anchor.round);
    bytes.set(hexToBytes(anchor.secret), 0);
    chain = { bytes, filled: 1 };
    walked.set(key, chain);
  }
  const steps = anchor.round - r;
  while (chain.filled <= steps) {
    const prev = chain.bytes.subarray(32 * (chain.filled - 1), 32 * chain.filled);
    chain.bytes.set(sha256(prev), 32 * chain.filled);
    chain.filled += 1;
  }
  return chain.bytes.slice(32 * steps, 32 * steps + 32);
}

export function chainSecretHex(anchor: ChainAnchor, r: number): string {
  return bytesToHex(chainSecret(anchor, r));
}

/**
 * Rounds whose secrets a server keeps beside S_N, so that revealing S_r costs fewer than max(16, r)
 * hashes (up to r ≤ 512) instead of up to N − r: a page of finished matches asking for their
 * rounds' secrets must not cost two thousand hashes a match. Each S_k is a pure function of S_N,
 * so keeping them changes no deal; they are as secret as S_N until their round is revealed.
 */
export const CHAIN_CHECKPOINT_ROUNDS: readonly number[] = [16, 32, 64, 128, 256, 512];

/** S_k of every checkpoint round k, ascending, 32 bytes each, from the head S_N. */
export function chainCheckpoints(head: ChainAnchor): Uint8Array {
  const out = new Uint8Array(32 * CHAIN_CHECKPOINT_ROUNDS.length);
  CHAIN_CHECKPOINT_ROUNDS.forEach((k, i) => out.set(chainSecret(head, k), 32 * i));
  return out;
}

/**
 * hex S_r from the head and its checkpoints (as chainCheckpoints gives them): hashed down from the
 * nearest checkpoint at or above r, uncached as it is short; from the head (the cached walk) above
 * the last checkpoint, or when the checkpoints are missing or not of this shape.
 */
export function chainSecretHexFrom(head: ChainAnchor, checkpoints: Uint8Array | null, r: number): string {
  if (
    checkpoints &&
    checkpoints.length === 32 * CHAIN_CHECKPOINT_ROUNDS.length &&
    head.round === DEAL_CHAIN_LENGTH &&
    Number.isInteger(r) &&
    r >= 1
  ) {
    const i = CHAIN_CHECKPOINT_ROUNDS.findIndex((k) => k >= r);
    if (i >= 0) {
      let s = checkpoints.slice(32 * i, 32 * i + 32);
      for (let k = CHAIN_CHECKPOINT_ROUNDS[i]; k > r; k--) s = sha256(s);
      return bytesToHex(s);
    }
  }
  return chainSecretHex(head, r);
}

/** hex(SHA-256(S_1)): published from the match's creation on. */
export function dealCommitment(anchor: ChainAnchor): string {
  return bytesToHex(sha256(chainSecret(anchor, 1)));
}

/** SHA-256 applied `times` times to a hex secret (a verifier's check: S_r hashed r times is the commitment). */
export function hashTimes(secretHex: string, times: number): string {
  let s = hexToBytes(secretHex);
  for (let i = 0; i < times; i++) s = sha256(s);
  return bytesToHex(s);
}

/** A source of 32-byte blocks, numbered from 0. */
export type BlockSource = (counter: number) => Uint8Array;

/** The blocks of round `round`: HMAC-SHA256(S_r, label|matchId|round|seeds…|counter). */
export function roundBlocks(secret: Uint8Array, matchId: string, round: number, clientSeeds: readonly string[]): BlockSource {
  const keyed = hmac.create(sha256, secret);
  const prefix = utf8ToBytes(`${DEAL_LABEL}|${matchId}|${round}|${clientSeeds.join('|')}|`);
  return (counter) =>
    keyed
      .clone()
      .update(prefix)
      .update(utf8ToBytes(String(counter)))
      .digest();
}

/** The stream's reader: `next32()` takes the next 4 bytes big-endian; `uniform(n)` by rejection. */
export interface DealStream {
  next32(): number;
  uniform(n: number): number;
}

export function dealStream(blocks: BlockSource): DealStream {
  let block: Uint8Array = new Uint8Array(0);
  let at = 0;
  let counter = 0;
  const next32 = (): number => {
    if (at + 4 > block.length) {
      block = blocks(counter++);
      at = 0;
    }
    const x = ((block[at] << 24) | (block[at + 1] << 16) | (block[at + 2] << 8) | block[at + 3]) >>> 0;
    at += 4;
    return x;
  };
  return {
    next32,
    uniform(n) {
      // x < 2^32 − (2^32 mod n): the largest multiple of n below 2^32, so x mod n is unbiased.
      const limit = 0x100000000 - (0x100000000 % n);
      let x = next32();
      while (x >= limit) x = next32();
      return x % n;
    },
  };
}

/** Fisher–Yates from the canonical order: for i = 27 … 1, swap deck[i] with deck[uniform(i + 1)]. */
export function shuffleDeck(stream: DealStream): Tile[] {
  const deck = FRESH_SET.slice();
  for (let i = deck.length - 1; i > 0; i--) {
    const j = stream.uniform(i + 1);
    const t = deck[i];
    deck[i] = deck[j];
    deck[j] = t;
  }
  return deck;
}

/** The stream of round `round` of a deal source. */
export function roundStream(deal: DealSource, round: number): DealStream {
  return dealStream(roundBlocks(chainSecret(deal.anchor, round), deal.matchId, round, deal.clientSeeds));
}

/** Round r's deck from its revealed secret alone (what a verifier does). */
export function deckFromSecret(secretHex: string, matchId: string, round: number, clientSeeds: readonly string[]): Tile[] {
  return shuffleDeck(dealStream(roundBlocks(hexToBytes(secretHex), matchId, round, clientSeeds)));
}
