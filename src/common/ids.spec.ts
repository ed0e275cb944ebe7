import { ApiError } from './api-error.js';
import { canonicalId, quoted } from './ids.js';

const refusal = (f: () => unknown): ApiError => {
  try {
    f();
  } catch (e) {
    if (e instanceof ApiError) return e;
  }
  throw new Error('not refused with an ApiError');
};

describe('ids', () => {
  it('spells a UUID in lower case, whatever case it came in', () => {
    expect(canonicalId('0F8FAD5B-D9CB-469F-A165-70867728950E', 'match')).toBe('0f8fad5b-d9cb-469f-a165-70867728950e');
  });

  it('names a refused id in its message, escaped, and only its start when it is long', () => {
    expect(refusal(() => canonicalId('not a match', 'match')).message).toBe('"not a match" is not a match id');
    expect(refusal(() => canonicalId('a\u0000b', 'player')).message).toBe('"a\\u0000b" is not a player id');
    const long = refusal(() => canonicalId('b'.repeat(900_000), 'match'));
    expect(long.code).toBe('BAD_USER_INPUT');
    expect(long.message).toBe(`"${'b'.repeat(64)}"… (900000 characters) is not a match id`);
  });

  it('counts characters, not UTF-16 units, when it shortens', () => {
    expect(quoted('🀄'.repeat(64))).toBe(JSON.stringify('🀄'.repeat(64)));
    expect(quoted('🀄'.repeat(65))).toBe(`${JSON.stringify('🀄'.repeat(64))}… (65 characters)`);
  });
});
