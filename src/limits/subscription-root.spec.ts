import { parse } from 'graphql';
import { subscriptionRootConditionErrors } from './subscription-root.js';

const errorsOf = (source: string) => subscriptionRootConditionErrors(parse(source)).map((e) => e.message);

describe('subscriptionRootConditionErrors (@skip/@include on a subscription root)', () => {
  it('finds them on the root field, in inline fragments and in fragments spread at the root, naming the operation', () => {
    expect(errorsOf('subscription S($s: Boolean!) { a @skip(if: $s) }')).toEqual([
      'Subscription "S" must not use `@skip` or `@include` directives in the top level selection.',
    ]);
    expect(errorsOf('subscription { ... @include(if: true) { a } }')).toHaveLength(1);
    expect(errorsOf('subscription { ... on Subscription { a @include(if: false) } }')).toHaveLength(1);
    expect(errorsOf('subscription { ...F } fragment F on Subscription { ...G } fragment G on Subscription { a @skip(if: true) }')).toEqual([
      'Anonymous Subscription must not use `@skip` or `@include` directives in the top level selection.',
    ]);
  });

  it('leaves alone queries, mutations, deeper selections and other directives, and survives fragment cycles', () => {
    expect(errorsOf('query { a @skip(if: true) } mutation { b @include(if: false) }')).toEqual([]);
    expect(errorsOf('subscription { a { b @skip(if: true) } }')).toEqual([]);
    expect(errorsOf('subscription { a @deprecated }')).toEqual([]);
    expect(errorsOf('subscription { ...F } fragment F on Subscription { ...G } fragment G on Subscription { ...F a }')).toEqual([]);
  });
});
