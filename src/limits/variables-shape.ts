import { GraphQLError } from 'graphql';

/** Values one request's variables may hold (objects, lists and scalars alike, all nested ones counted). */
export const MAX_VARIABLE_VALUES = 1_000;
/** How deeply they may nest (the variables object itself is level 0). */
export const MAX_VARIABLE_DEPTH = 10;

/**
 * Refuses variables too big or too deep to hand to graphql-js, before it coerces them. Its
 * coercion reports one error per unknown field, each quoting the whole object it sits in: 40,000
 * unknown keys (a 400 KB body) held the event loop for minutes and exhausted the heap. It also
 * recurses, so a list nested a hundred thousand deep would overflow the stack. No input of this
 * API needs more than a few dozen values (the longest list is a webhook's event names), so the
 * bounds leave room and cost a linear walk of what was sent.
 */
export function variablesShapeError(variables: unknown): GraphQLError | null {
  let values = 1;
  const stack: { value: unknown; depth: number }[] = [{ value: variables, depth: 0 }];
  for (let next = stack.pop(); next; next = stack.pop()) {
    const { value, depth } = next;
    if (value === null || typeof value !== 'object') continue;
    if (depth >= MAX_VARIABLE_DEPTH) return refusal(`Variables nest more than ${MAX_VARIABLE_DEPTH} levels deep`, 'depth', MAX_VARIABLE_DEPTH);
    for (const child of Array.isArray(value) ? value : Object.values(value)) {
      if (++values > MAX_VARIABLE_VALUES) return refusal(`Variables hold more than ${MAX_VARIABLE_VALUES} values`, 'values', MAX_VARIABLE_VALUES);
      stack.push({ value: child, depth: depth + 1 });
    }
  }
  return null;
}

function refusal(message: string, limit: string, max: number): GraphQLError {
  return new GraphQLError(message, { extensions: { code: 'BAD_USER_INPUT', limit: `variables.${limit}`, max } });
}
