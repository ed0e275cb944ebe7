import { offsetFrom } from './database-clock.js';

describe('offsetFrom', () => {
  it("takes the database's answer at the midpoint of the shortest round trip", () => {
    // The database runs 5,000 ms ahead; the answers left it at the trips' midpoints, the first
    // two held up on the way back (so their midpoints are late and their offsets too small).
    const samples = [
      { sentAt: 1_000, dbMs: 6_010, receivedAt: 1_200 },
      { sentAt: 2_000, dbMs: 7_002, receivedAt: 2_040 },
      { sentAt: 3_000, dbMs: 8_001, receivedAt: 3_002 },
    ];
    expect(offsetFrom(samples)).toBe(5_000);
    expect(offsetFrom([samples[1]])).toBe(4_982);
  });

  it('is negative when the database is behind', () => {
    expect(offsetFrom([{ sentAt: 10_000, dbMs: 7_001, receivedAt: 10_002 }])).toBe(-3_000);
  });
});
