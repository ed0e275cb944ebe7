import fc from 'fast-check';
import type { IntrospectionInputTypeRef, IntrospectionInputValue, IntrospectionSchema } from 'graphql';

/** Real values the fuzzer mixes in, so that hostile values also reach the deep paths (a real match, a real cursor). */
export interface FuzzFixtures {
  matchIds: string[];
  playerIds: string[];
  cursors: string[];
}

const b64 = (s: string) => Buffer.from(s).toString('base64url');

/** Text that has broken servers: NULs, controls, invisible formatting, lone surrogates, huge and empty. */
const hostileText = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    'Ann\u0000',
    '\u0000\u0001\u001f\u007f',
    '\t\n\r',
    '\u202eevil',
    '\u200b',
    '\ufeff',
    '\ud800',
    'a\udc00b',
    '\uffff',
    '💥'.repeat(50),
    'x'.repeat(41),
    'x'.repeat(101),
    'x'.repeat(100_000),
    '\'; DROP TABLE "Match"; --',
    '%00',
    '../../etc/passwd',
    'null',
    '0',
    '-1',
    '1e309',
  ),
  fc.string({ maxLength: 60 }),
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc.string({ unit: fc.integer({ min: 0, max: 0x1f }).map((c) => String.fromCharCode(c)), maxLength: 10 }),
);

/** Cursors: real ones, tampered ones, and well-formed encodings of out-of-range contents. */
function cursorText(f: FuzzFixtures): fc.Arbitrary<string> {
  const uuid = fc.oneof(fc.uuid(), fc.constantFrom(...f.playerIds, ...f.matchIds));
  const date = fc.constantFrom(
    '0000-01-01T00:00:00.000Z',
    '-271821-04-20T00:00:00.000Z',
    '+275760-09-13T00:00:00.000Z',
    '2026-01-01T00:00:00.000Z',
    'x',
  );
  const count = fc.oneof(fc.integer(), fc.constantFrom(2 ** 31, 2 ** 53, -1, 1e300, NaN).map(String));
  return fc.oneof(
    f.cursors.length > 0 ? fc.constantFrom(...f.cursors) : fc.constant(''),
    fc.tuple(date, fc.oneof(uuid, hostileText)).map(([d, id]) => b64(`${d}|${id}`)),
    fc.tuple(count, count, fc.oneof(uuid, hostileText)).map(([w, p, id]) => b64(`${w}|${p}|${id}`)),
    hostileText.map(b64),
    hostileText,
  );
}

function idText(f: FuzzFixtures): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom(...f.matchIds, ...f.playerIds),
    fc.uuid(),
    fc.constantFrom('00000000-0000-0000-0000-000000000000', 'ffffffff-ffff-ffff-ffff-ffffffffffff', 'not-a-uuid', '1', "1' OR '1'='1"),
    hostileText,
  );
}

const int = fc.oneof(
  fc.constantFrom(0, 1, -1, 2, 3, 4, 6, 7, 28, 100, 101, 2 ** 31 - 1, -(2 ** 31), 2 ** 31, -(2 ** 31) - 1, 2 ** 53, -(2 ** 53), 1.5),
  fc.integer({ min: -10, max: 300 }),
  fc.integer(),
);

const dateTime = fc.oneof(
  fc.constantFrom(
    '0000-01-01T00:00:00.000Z',
    '0001-01-01T00:00:00.000Z',
    '1969-12-31T23:59:59.999Z',
    '-271821-04-20T00:00:00.000Z',
    '+275760-09-13T00:00:00.000Z',
    '9999-12-31T23:59:59.999Z',
    'yesterday',
    '',
  ),
  fc.date({ min: new Date(-8.64e15), max: new Date(8.64e15), noInvalidDate: true }).map((d) => d.toISOString()),
  fc.integer().map((n) => n * 1_000_000),
);

/**
 * A value for a GraphQL input type, mostly well-typed (so it passes validation and reaches the
 * resolver) and hostile in content; sometimes of the wrong type or null where none is allowed.
 */
export function valueFor(
  type: IntrospectionInputTypeRef,
  argName: string,
  schema: IntrospectionSchema,
  f: FuzzFixtures,
  depth = 0,
): fc.Arbitrary<unknown> {
  if (type.kind === 'NON_NULL')
    return fc.oneof({ weight: 20, arbitrary: valueFor(type.ofType, argName, schema, f, depth) }, { weight: 1, arbitrary: fc.constant(null) });
  const nullable = (a: fc.Arbitrary<unknown>) => fc.oneof({ weight: 6, arbitrary: a }, { weight: 1, arbitrary: fc.constant(null) });
  if (type.kind === 'LIST') return nullable(fc.array(valueFor(type.ofType, argName, schema, f, depth + 1), { maxLength: 3 }));
  const wrongType = fc.constantFrom<unknown>(true, 'str', 3, {}, []);
  switch (type.kind) {
    case 'SCALAR': {
      const scalar =
        type.name === 'Int' || type.name === 'Float'
          ? int
          : type.name === 'Boolean'
            ? fc.boolean()
            : type.name === 'ID'
              ? idText(f)
              : type.name === 'DateTime'
                ? dateTime
                : /after|before|cursor/i.test(argName)
                  ? cursorText(f)
                  : /id$/i.test(argName)
                    ? fc.oneof(idText(f), hostileText)
                    : hostileText;
      return nullable(fc.oneof({ weight: 15, arbitrary: scalar }, { weight: 1, arbitrary: wrongType }));
    }
    case 'ENUM': {
      const e = schema.types.find((t) => t.name === type.name);
      const values = e && e.kind === 'ENUM' ? e.enumValues.map((v) => v.name) : [];
      return nullable(fc.oneof({ weight: 15, arbitrary: fc.constantFrom(...values) }, { weight: 1, arbitrary: hostileText }));
    }
    case 'INPUT_OBJECT': {
      const t = schema.types.find((x) => x.name === type.name);
      if (!t || t.kind !== 'INPUT_OBJECT' || depth > 3) return fc.constant(null);
      return nullable(inputObject(t.inputFields, schema, f, depth + 1));
    }
  }
}

function inputObject(fields: readonly IntrospectionInputValue[], schema: IntrospectionSchema, f: FuzzFixtures, depth: number): fc.Arbitrary<unknown> {
  const record: Record<string, fc.Arbitrary<unknown>> = {};
  for (const field of fields) record[field.name] = valueFor(field.type, field.name, schema, f, depth);
  const required = fields.filter((x) => x.type.kind === 'NON_NULL').map((x) => x.name);
  return fc.record(record, { requiredKeys: required });
}

/** The GraphQL spelling of a type reference, for a variable definition. */
export function typeText(type: IntrospectionInputTypeRef): string {
  if (type.kind === 'NON_NULL') return `${typeText(type.ofType)}!`;
  if (type.kind === 'LIST') return `[${typeText(type.ofType)}]`;
  return type.name;
}
