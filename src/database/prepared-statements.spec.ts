import { PreparedStatements } from './prepared-statements.js';

describe('PreparedStatements', () => {
  it('names a text once and gives the same name every time it comes again', () => {
    const prepared = new PreparedStatements();
    const a = prepared.query({ text: 'SELECT $1::int', values: [1] });
    const b = prepared.query({ text: 'SELECT $1::text', values: ['x'] });
    const again = prepared.query({ text: 'SELECT $1::int', values: [2] });
    expect(a.name).toBeDefined();
    expect(b.name).not.toBe(a.name);
    expect(again).toEqual({ name: a.name, text: 'SELECT $1::int', values: [2] });
  });

  it('runs new texts unnamed once it holds its maximum, and keeps the names it gave', () => {
    const prepared = new PreparedStatements(2);
    const first = prepared.query({ text: 'SELECT 1', values: [] }).name;
    prepared.query({ text: 'SELECT 2', values: [] });
    expect(prepared.query({ text: 'SELECT 3', values: [] }).name).toBeUndefined();
    expect(prepared.query({ text: 'SELECT 1', values: [] }).name).toBe(first);
    expect(prepared.size).toBe(2);
  });
});
