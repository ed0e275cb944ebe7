import { defaultSeatSeed } from '../../src/domain/fair-deal.js';

/*
 * The page holds the server to its deal (docs/fair-deals.md, "Holding the server to its
 * commitment"): it reads the id and commitment of the player's next match, then sends a seed of
 * its own making, then checks that the match it got is the one announced.
 */

export interface NextMatch {
  id: string;
  dealCommitment: string;
}

export interface CreatedMatch {
  id: string;
  dealCommitment: string;
  seats: { index: number; isBot: boolean; clientSeed: string }[];
}

/** A client seed from the browser's CSPRNG: 16 hexadecimal digits, as the server's own defaults. */
export function newClientSeed(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(8)), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** What the created match does differently from what was announced before the seed was sent (nothing: []). */
export function drawProblems(announced: NextMatch, created: CreatedMatch): string[] {
  const problems: string[] = [];
  if (created.id !== announced.id) problems.push('its id is not the one announced');
  if (created.dealCommitment !== announced.dealCommitment) problems.push('its deal commitment is not the one announced');
  for (const s of created.seats)
    if (s.isBot && s.clientSeed !== defaultSeatSeed(created.dealCommitment, s.index)) problems.push(`bot ${s.index + 1} has a seed the server chose`);
  return problems;
}
