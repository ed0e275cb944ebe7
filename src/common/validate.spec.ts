import { ApiError } from './api-error.js';
import { clientMoveId, dateInRange, intInRange, playerName } from './validate.js';

const refused = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    return e instanceof ApiError ? e.code : 'not an ApiError';
  }
  return 'accepted';
};

describe('shared validators', () => {
  it.each([
    ['Ann\u0000', 'NUL'],
    ['a\u0007b', 'a control character'],
    ['\u202eevil', 'a bidirectional override'],
    ['zero\u200bwidth', 'a zero-width space'],
    ['b\ufeffom', 'a byte-order mark'],
    ['\ud800', 'a lone surrogate'],
    ['\ue000', 'a private-use character'],
    ['a\u2028b', 'a line separator'],
    ['a\u2029b', 'a paragraph separator'],
    ['\u3164', 'the Hangul filler (a letter that draws nothing)'],
    ['Ann\uffa0', 'the halfwidth Hangul filler'],
    ['x\u034fy', 'the combining grapheme joiner'],
    ['\u2800', 'the blank braille pattern alone'],
    ['\u200d\u200d\u200d', 'joiners alone'],
    ['\ufe0f', 'a variation selector alone'],
    ['\u0301\u0316', 'combining marks alone'],
    ['', 'nothing'],
    ['   ', 'only spaces'],
    ['x'.repeat(41), '41 characters'],
  ])('refuses a name of %j (%s)', (name) => expect(refused(() => playerName(name))).toBe('BAD_USER_INPUT'));

  it('refuses a name too long to normalise before normalising it (NFC reorders runs of combining marks in quadratic time)', () => {
    const marks = `a${'\u0301\u0316'.repeat(260_000)}`; // about 1 MiB: normalising it would take minutes
    expect(refused(() => playerName(marks))).toBe('BAD_USER_INPUT');
    // A name of 40 characters (code points) once composed, sent decomposed, is still taken.
    expect(playerName('e\u0301\u0316'.repeat(20))).toBe('\u00e9\u0316'.repeat(20));
  });

  it('trims and normalises names, counts code points, keeps ZWJ sequences', () => {
    expect(playerName('  Zoe\u0301 ')).toBe('Zo\u00e9');
    expect(playerName('🀄'.repeat(40))).toBe('🀄'.repeat(40));
    expect(playerName('👩‍👩‍👧')).toBe('👩‍👩‍👧');
    // What the invisible-character rules must leave alone: a variation selector, ZWNJ in Persian, Devanagari's marks.
    for (const name of ['❤️', 'می‌خواهم', 'नमस्ते', '!!!', 'a\u2800b', 'Ann \u{1F3F4}\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}'])
      expect(playerName(name)).toBe(name);
    // A tag character outside a flag's sequence is as invisible as any other.
    expect(refused(() => playerName('Ann\u{E0067}'))).toBe('BAD_USER_INPUT');
  });

  it('takes a clientMoveId as sent, refusing controls and lengths outside 1..100', () => {
    expect(clientMoveId(' c-42 ')).toBe(' c-42 ');
    expect(clientMoveId(null)).toBeNull();
    for (const bad of ['', 'c\u0000', 'x'.repeat(101)]) expect(refused(() => clientMoveId(bad))).toBe('BAD_USER_INPUT');
  });

  it('keeps dates within 1970..9999 and integers within their range', () => {
    expect(refused(() => dateInRange(new Date('0000-01-01T00:00:00Z'), 'from'))).toBe('BAD_USER_INPUT');
    expect(refused(() => dateInRange(new Date(8.64e15), 'to'))).toBe('BAD_USER_INPUT');
    expect(refused(() => dateInRange(new Date(NaN), 'to'))).toBe('BAD_USER_INPUT');
    expect(dateInRange(new Date('2026-12-01T00:00:00Z'), 'from').toISOString()).toBe('2026-12-01T00:00:00.000Z');
    expect(refused(() => intInRange(2 ** 31, 'n', 0, 2 ** 31 - 1))).toBe('BAD_USER_INPUT');
    expect(refused(() => intInRange(1.5, 'n', 0, 10))).toBe('BAD_USER_INPUT');
    expect(intInRange(7, 'n', 0, 10)).toBe(7);
  });
});
