import { randomBytes } from 'node:crypto';
import { ApiError } from '../common/api-error.js';
import { chainCheckpoints, DEAL_CHAIN_LENGTH, dealCommitment, isClientSeed, type DealSource } from '../domain/index.js';
import type { LoadedMatch } from './loaded-match.js';

/*
 * The randomness of fair deals enters here, from the OS's CSPRNG: a chain's head S_N, and nothing
 * else of a deal (a seat nobody gives a seed gets one derived from the commitment). The engine
 * derives everything else from it (docs/fair-deals.md).
 */

/** A deal chain: its head S_N and checkpoints (kept secret) and the commitment hex(SHA-256(S_1)) (published). */
export interface DealChain {
  chainSecret: string;
  dealCheckpoints: Uint8Array;
  dealCommitment: string;
}

/** A new chain from 32 CSPRNG bytes. The commitment walks the whole chain, so the checkpoints come from the walk's cache. */
export function newDealChain(): DealChain {
  const head = { round: DEAL_CHAIN_LENGTH, secret: randomBytes(32).toString('hex') };
  return { chainSecret: head.secret, dealCommitment: dealCommitment(head), dealCheckpoints: chainCheckpoints(head) };
}

/**
 * A client seed as given, or null when none is (the seat keeps its default seed, defaultSeatSeed);
 * BAD_USER_INPUT when it is malformed.
 */
export function givenClientSeed(given: string | null | undefined): string | null {
  return given === null || given === undefined ? null : validClientSeed(given);
}

/** A client seed as given; BAD_USER_INPUT when it is malformed. */
export function validClientSeed(given: string): string {
  if (!isClientSeed(given)) throw new ApiError('BAD_USER_INPUT', 'clientSeed must be 1 to 64 printable ASCII characters, without "|"');
  return given;
}

/** What a match's deals derive from, once its seats' seeds are final. */
export function dealSourceOf(r: LoadedMatch, clientSeeds: readonly string[]): DealSource {
  return { matchId: r.id, clientSeeds, anchor: { round: DEAL_CHAIN_LENGTH, secret: r.chainSecret } };
}
