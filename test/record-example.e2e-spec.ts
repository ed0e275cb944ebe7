import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RECORD_FORMAT, RECORD_VERSION } from '../src/history/record-format.js';
import { verifyRecord } from '../src/history/verify-record.js';
import { recordValidator, reverify, type RecordT } from './support/history-verify.js';

/**
 * The example of docs/match-record.md is a test vector: a real record written by
 * `npm run docs:record-example`. It must be current (this version, this schema, the same in the
 * page and in the JSON file) and verify, its deals included.
 */
describe('the match-record example in the docs', () => {
  const file = JSON.parse(readFileSync(join(process.cwd(), 'docs/match-record.example.json'), 'utf8')) as RecordT & {
    ending: string;
    format: string;
  };
  const md = readFileSync(join(process.cwd(), 'docs/match-record.md'), 'utf8');
  const block = /<!-- record-example:start -->\s*```json\n([\s\S]*?)```\s*<!-- record-example:end -->/.exec(md);

  it('is the same record in the page and in match-record.example.json', () => {
    expect(block).not.toBeNull();
    expect(JSON.parse(block![1])).toEqual(file);
  });

  it("is of this server's format version and fits its schema", () => {
    expect(file.format).toBe(RECORD_FORMAT);
    expect(file.version).toBe(RECORD_VERSION);
    const { ok, errors } = recordValidator()(file);
    expect(errors).toBeNull();
    expect(ok).toBe(true);
  });

  it('is a complete match whose every score re-verifies', () => {
    expect(file.ending).toBe('TARGET_REACHED');
    expect(file.rounds.every((r) => r.status === 'FINISHED')).toBe(true);
    const { problems, totals } = reverify(file);
    expect(problems).toEqual([]);
    expect(totals).toEqual(file.finalScores);
    expect(file.finalScores[file.winner]).toBeGreaterThanOrEqual(file.rules.targetScore);
    // Seat 0 going out with tiles in hand, as an old hand-written example had it, cannot pass.
    for (const r of file.rounds.filter((x) => x.result?.end === 'DOMINO')) {
      expect(r.result!.hands[r.result!.dominoSeat!].tiles).toEqual([]);
    }
  });

  it('passes the verifier of npm run verify-record: the deal chain, every deck, every move', () => {
    const rec = file as unknown as { dealCommitment: string; rounds: { deal: { secret: string; deck: unknown[] } }[] };
    expect(rec.dealCommitment).toMatch(/^[0-9a-f]{64}$/);
    expect(rec.rounds.every((r) => r.deal.deck.length === 28)).toBe(true);
    expect(verifyRecord(file)).toMatchObject({ ok: true, problems: [] });
  });
});
