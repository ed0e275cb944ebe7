import { randomBytes } from 'node:crypto';
import { ApiError } from '../common/api-error.js';
import { chainCheckpoints, DEAL_CHAIN_LENGTH, dealCommitment, isClientSeed, type DealSource } from '../domain/index.js';
import type { LoadedMatch } from './loaded-match.js';

/*
 * The randomness of fair deals enters here, from the OS's CSPRNG; the engine derives everything
 * else from it (docs/fair-deals.md).
 */

/**
 * A new chain: its head S_N and checkpoints (kept secret) and the commitment hex(SHA-256(S_1))
 * (published). The commitment walks the whole chain, so the checkpoints come from the walk's cache.
 */
export function newDealChain(): { chainSecret: string; dealCheckpoints: Uint8Array; dealCommitment: string } {
  const head = { round: DEAL_CHAIN_LENGTH, secret: randomBytes(32).toString('hex') };
  return { chainSecret: head.secret, dealCommitment: dealCommitment(head), dealCheckpoints: chainCheckpoints(head) };
}

/** The seed of a seat whose player gives none (bots too): 16 random hex characters. */
export function randomClientSeed(): string {
  return randomBytes(8).toString('hex');
}

/** A client seed as given, or a random one when none is; BAD_USER_INPUT when it is malformed. */
export function clientSeedOrRandom(given: string | null | undefined): string {
  if (given === null || given === undefined) return randomClientSeed();
  if (!isClientSeed(given)) throw new ApiError('BAD_USER_INPUT', 'clientSeed must be 1 to 64 printable ASCII characters, without "|"');
  return given;
}

/** What a match's deals derive from, once its seats' seeds are final. */
export function dealSourceOf(r: LoadedMatch, clientSeeds: readonly string[]): DealSource {
  return { matchId: r.id, clientSeeds, anchor: { round: DEAL_CHAIN_LENGTH, secret: r.chainSecret } };
}
