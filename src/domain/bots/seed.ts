import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { hexToBytes, utf8ToBytes } from '@noble/hashes/utils.js';
import type { DealSource } from '../types.js';

/**
 * The seed of a bot's choice at one position of a match (`lastSeq`): reproducible, different for
 * every move, and keyed by the chain's anchor (the server's S_N, which is never revealed), so
 * watching bots play tells nothing about any deal. The first 53 bits of
 * HMAC-SHA256(anchor secret, "straight-dominoes/bot/v1|" + matchId + "|" + lastSeq).
 */
export function botSeed(deal: DealSource, lastSeq: number): number {
  const mac = hmac(sha256, hexToBytes(deal.anchor.secret), utf8ToBytes(`straight-dominoes/bot/v1|${deal.matchId}|${lastSeq}`));
  let seed = 0;
  for (let i = 0; i < 6; i++) seed = seed * 256 + mac[i];
  return seed * 32 + (mac[6] >>> 3);
}
