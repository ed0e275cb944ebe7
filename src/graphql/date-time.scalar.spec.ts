import { Kind } from 'graphql';
import { DateTimeScalar, parseDateTime } from './date-time.scalar.js';

const iso = (text: string) => parseDateTime(text)?.toISOString() ?? null;

describe('parseDateTime (ISO 8601 as serializers write it; a time needs its offset)', () => {
  it('reads a date-time with Z or an offset in any common form as the instant it names', () => {
    expect(iso('2026-12-01T10:00:00Z')).toBe('2026-12-01T10:00:00.000Z');
    expect(iso('2026-12-01T10:00:00.000Z')).toBe('2026-12-01T10:00:00.000Z'); // toISOString()
    expect(iso('2026-12-01T11:00:00+01:00')).toBe('2026-12-01T10:00:00.000Z');
    expect(iso('2026-12-01T05:30:00.250-04:30')).toBe('2026-12-01T10:00:00.250Z');
    expect(iso('2026-12-01T10:00Z')).toBe('2026-12-01T10:00:00.000Z'); // Java's OffsetDateTime.toString()
    expect(iso('2026-12-01T10:00:00+0000')).toBe('2026-12-01T10:00:00.000Z'); // strftime's %z, PHP's DATE_ISO8601
    expect(iso('2026-12-01 10:00:00z')).toBe('2026-12-01T10:00:00.000Z');
    expect(iso('2026-12-01T00:30:00+01:00')).toBe('2026-11-30T23:30:00.000Z');
    expect(iso('2024-02-29T00:00:00Z')).toBe('2024-02-29T00:00:00.000Z');
  });

  it('reads a date alone as midnight UTC', () => {
    expect(iso('2026-12-01')).toBe('2026-12-01T00:00:00.000Z');
    expect(parseDateTime('0000-01-01')?.getUTCFullYear()).toBe(0);
  });

  it('refuses a time without an offset, a date or time that is none, and what is no date-time', () => {
    for (const text of [
      '2026-12-01T10:00:00', // the server's local time
      '2026-12-01T10:00',
      '2026-02-30T00:00:00Z',
      '2025-02-29',
      '2026-13-01T00:00:00Z',
      '2026-12-01T24:00:00Z',
      '2026-12-01T10:60:00Z',
      '2026-12-01T10:00:00+24:00',
      '+275760-09-13T00:00:00.000Z',
      '2026-12-01Z',
      'nope',
      '',
      ' 2026-12-01T10:00:00Z',
    ])
      expect({ text, date: parseDateTime(text) }).toEqual({ text, date: null });
  });

  it('is what the scalar applies to variables and literals alike', () => {
    expect(DateTimeScalar.parseValue('2026-12-01T10:00:00Z')).toEqual(new Date('2026-12-01T10:00:00Z'));
    expect(() => DateTimeScalar.parseValue('2026-12-01T10:00:00')).toThrow(/with its offset/);
    expect(() => DateTimeScalar.parseValue(1)).toThrow(/ISO 8601/);
    expect(DateTimeScalar.parseLiteral({ kind: Kind.STRING, value: '2026-12-01' })).toEqual(new Date('2026-12-01T00:00:00Z'));
    expect(() => DateTimeScalar.parseLiteral({ kind: Kind.STRING, value: 'nope' })).toThrow(/ISO 8601.*not "nope"/);
  });
});
