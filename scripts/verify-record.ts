/**
 * Verifies a version-2 match record, from a file or a URL (GET /matches/:id/record):
 *
 *   npm run verify-record -- record.json
 *   npm run verify-record -- http://localhost:3000/matches/<id>/record
 *
 * Checks the hash chain against the commitment, every round's deck against its secret and the
 * client seeds, and every move, result and score through the rules engine (docs/fair-deals.md).
 * Prints what fails and exits 1; prints one line and exits 0 when everything holds.
 */
import { readFile } from 'node:fs/promises';
import { verifyRecord } from '../src/history/verify-record.js';

async function load(source: string): Promise<unknown> {
  if (/^https?:\/\//i.test(source)) {
    const res = await fetch(source);
    if (!res.ok) throw new Error(`GET ${source}: HTTP ${res.status} ${await res.text()}`);
    return res.json();
  }
  return JSON.parse(await readFile(source, 'utf8'));
}

const source = process.argv[2];
if (!source) {
  console.error('usage: npm run verify-record -- <record.json | URL>');
  process.exit(2);
}
try {
  const verdict = verifyRecord(await load(source));
  if (verdict.ok) {
    console.log(`OK ${source}: ${verdict.rounds} rounds, ${verdict.moves} moves; chain, deals, moves and scores verified`);
    for (const n of verdict.notes) console.log(`  note: ${n}`);
  } else {
    console.error(`FAILED ${source}:`);
    for (const p of verdict.problems) console.error(`  - ${p}`);
    process.exit(1);
  }
} catch (e) {
  console.error(`FAILED ${source}: ${(e as Error).message}`);
  process.exit(1);
}
