import { MAX_VARIABLE_DEPTH, MAX_VARIABLE_VALUES, variablesShapeError } from './variables-shape.js';

const nested = (levels: number): unknown => {
  let v: unknown = 'x';
  for (let i = 0; i < levels; i++) v = [v];
  return v;
};

describe('variablesShapeError', () => {
  it('lets ordinary variables through, and none at all', () => {
    expect(variablesShapeError(undefined)).toBeNull();
    expect(variablesShapeError(null)).toBeNull();
    expect(variablesShapeError({ input: { seats: 4, rules: { targetScore: 150, spinner: true }, clock: { kind: 'PER_MOVE' } } })).toBeNull();
    expect(variablesShapeError({ events: Array.from({ length: 20 }, () => 'TURN') })).toBeNull();
  });

  it('refuses more values than MAX_VARIABLE_VALUES, counted at every level, as BAD_USER_INPUT', () => {
    const wide = { i: Object.fromEntries(Array.from({ length: 40_000 }, (_, k) => [`k${k}`, 1])) };
    expect(variablesShapeError(wide)?.extensions).toEqual({ code: 'BAD_USER_INPUT', limit: 'variables.values', max: MAX_VARIABLE_VALUES });
    const spread = { a: Array.from({ length: 600 }, () => 1), b: { c: Array.from({ length: 600 }, () => 1) } };
    expect(variablesShapeError(spread)?.message).toBe(`Variables hold more than ${MAX_VARIABLE_VALUES} values`);
    // The variables object counts as one value: MAX_VARIABLE_VALUES − 1 below it is the most.
    expect(variablesShapeError({ a: Array.from({ length: MAX_VARIABLE_VALUES - 2 }, () => 1) })).toBeNull();
    expect(variablesShapeError({ a: Array.from({ length: MAX_VARIABLE_VALUES - 1 }, () => 1) })).not.toBeNull();
  });

  it('refuses nesting deeper than MAX_VARIABLE_DEPTH without recursing into it', () => {
    expect(variablesShapeError({ v: nested(MAX_VARIABLE_DEPTH - 1) })).toBeNull();
    expect(variablesShapeError({ v: nested(MAX_VARIABLE_DEPTH) })?.extensions).toMatchObject({ limit: 'variables.depth', max: MAX_VARIABLE_DEPTH });
    expect(variablesShapeError({ v: nested(100_000) })?.extensions).toMatchObject({ limit: 'variables.depth' });
  });
});
