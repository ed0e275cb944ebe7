import { parse, validate, type DocumentNode, type GraphQLError, type GraphQLSchema } from 'graphql';

/** Distinct subscription texts remembered; clients send a handful, so this is generous. */
const MAX_DOCUMENTS = 1_000;

/**
 * graphql-ws parses and validates every `subscribe` message again, where Apollo's HTTP path keeps
 * a document store. Clients send the same few subscription texts over and over (every reconnect
 * of every client after a deploy), so both results are remembered: a parse by its text (LRU), a
 * validation by the parsed document, which graphql-js never mutates.
 */
export function cachedOperations(): { parse: typeof parse; validate: typeof validate } {
  const documents = new Map<string, DocumentNode>();
  const validations = new WeakMap<DocumentNode, readonly GraphQLError[]>();
  return {
    parse: ((source, options) => {
      if (typeof source !== 'string' || options) return parse(source, options);
      const hit = documents.get(source);
      if (hit) {
        documents.delete(source); // re-insert: Map order is recency order
        documents.set(source, hit);
        return hit;
      }
      const document = parse(source); // throws a GraphQLError for bad syntax: nothing is remembered
      documents.set(source, document);
      if (documents.size > MAX_DOCUMENTS) documents.delete(documents.keys().next().value!);
      return document;
    }) as typeof parse,
    validate: ((schema: GraphQLSchema, document: DocumentNode, ...rest: unknown[]) => {
      if (rest.length > 0) return (validate as (...a: unknown[]) => readonly GraphQLError[])(schema, document, ...rest);
      let errors = validations.get(document);
      if (!errors) {
        errors = validate(schema, document);
        validations.set(document, errors);
      }
      return errors;
    }) as typeof validate,
  };
}
