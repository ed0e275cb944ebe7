import { Kind } from 'graphql';
import { DateTimeScalar, parseDateTime } from './date-time.scalar.js';

describe('parseDateTime (RFC 3339 date-times, offset required)', () => {
  it('reads a date-time with Z or an offset, with or without a fraction, as the instant it names', () => {
    expect(parseDateTime('2026-12-01T10:00:00Z')?.toISOString()).toBe('2026-12-01T10:00:00.000Z');
    expect(parseDateTime('2026-12-01T11:00:00+01:00')?.toISOString()).toBe('2026-12-01T10:00:00.000Z');
    expect(parseDateTime('2026-12-01T05:30:00.250-04:30')?.toISOString()).toBe('2026-12-01T10:00:00.250Z');
    expect(parseDateTime('2026-12-01 10:00:00z')?.toISOString()).toBe('2026-12-01T10:00:00.000Z');
    expect(parseDateTime('2024-02-29T00:00:00Z')?.toISOString()).toBe('2024-02-29T00:00:00.000Z');
    expect(parseDateTime('0000-01-01T00:00:00.000Z')?.getUTCFullYear()).toBe(0);
  });

  it('refuses a time without an offset, a date alone, a date that is no date, and what is no date-time', () => {
    for (const text of [
      '2026-12-01T10:00:00', // the server's local time
      '2026-12-01',
      '2026-02-30T00:00:00Z',
      '2025-02-29T00:00:00Z',
      '2026-13-01T00:00:00Z',
      '2026-12-01T24:00:00Z',
      '2026-12-01T10:60:00Z',
      '2026-12-01T10:00:00+24:00',
      '2026-12-01T10:00Z',
      '+275760-09-13T00:00:00.000Z',
      'nope',
      '',
      ' 2026-12-01T10:00:00Z',
    ])
      expect({ text, date: parseDateTime(text) }).toEqual({ text, date: null });
  });

  it('is what the scalar applies to variables and literals alike', () => {
    expect(DateTimeScalar.parseValue('2026-12-01T10:00:00Z')).toEqual(new Date('2026-12-01T10:00:00Z'));
    expect(() => DateTimeScalar.parseValue('2026-12-01T10:00:00')).toThrow(/RFC 3339/);
    expect(() => DateTimeScalar.parseValue(1)).toThrow(/RFC 3339/);
    expect(DateTimeScalar.parseLiteral({ kind: Kind.STRING, value: '2026-12-01T10:00:00Z' })).toEqual(new Date('2026-12-01T10:00:00Z'));
    expect(() => DateTimeScalar.parseLiteral({ kind: Kind.STRING, value: 'nope' })).toThrow(/RFC 3339.*not "nope"/);
  });
});
