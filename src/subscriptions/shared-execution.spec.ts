import { buildSchema, parse, type ExecutionArgs } from 'graphql';
import { executeEvent, shareablePayload } from './shared-execution.js';

describe('executeEvent', () => {
  let calls = 0;
  const schema = buildSchema('type Query { x: Int } type Subscription { ev: Ev } type Ev { n: Int, label(prefix: String): String }');
  const rootOf = (n: number) => ({
    ev: {
      n: () => (calls++, n),
      label: ({ prefix }: { prefix?: string }) => `${prefix ?? ''}${n}`,
    },
  });
  const small = parse('subscription { ev { n } }');
  const withArg = parse('subscription($p: String) { ev { n label(prefix: $p) } }');
  const args = (document: ExecutionArgs['document'], variableValues?: Record<string, unknown>): ExecutionArgs => ({
    schema,
    document,
    variableValues,
  });

  beforeEach(() => (calls = 0));

  it('executes a shareable payload once per document and variables, whoever asks', async () => {
    const payload = shareablePayload(rootOf(7));
    const r1 = await executeEvent({ ...args(small), contextValue: { who: 1 } }, payload);
    const r2 = await executeEvent({ ...args(small), contextValue: { who: 2 } }, payload);
    expect(r1).toBe(r2);
    expect(r1).toEqual({ data: { ev: { n: 7 } } });
    expect(calls).toBe(1);
    const a = await executeEvent(args(withArg, { p: 'a' }), payload);
    const b = await executeEvent(args(withArg, { p: 'b' }), payload);
    expect(a).toEqual({ data: { ev: { n: 7, label: 'a7' } } });
    expect(b).toEqual({ data: { ev: { n: 7, label: 'b7' } } });
    expect(calls).toBe(3);
  });

  it('executes an unmarked payload for each subscriber', async () => {
    const payload = rootOf(3);
    await executeEvent(args(small), payload);
    await executeEvent(args(small), payload);
    expect(calls).toBe(2);
  });

  it('never shares between two payloads of the same shape', async () => {
    const r1 = await executeEvent(args(small), shareablePayload(rootOf(1)));
    const r2 = await executeEvent(args(small), shareablePayload(rootOf(2)));
    expect([r1, r2]).toEqual([{ data: { ev: { n: 1 } } }, { data: { ev: { n: 2 } } }]);
  });
});
