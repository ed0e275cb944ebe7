import type { ApolloServerPlugin } from '@apollo/server';
import { maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthRule } from '@escape.tech/graphql-armor-max-depth';
import {
  GraphQLError,
  NoSchemaIntrospectionCustomRule,
  parse,
  specifiedRules,
  validate,
  type DocumentNode,
  type GraphQLFormattedError,
  type GraphQLSchema,
  type ParseOptions,
  type ValidationContext,
  type ValidationRule,
} from 'graphql';
import type { Limits } from '../config/limits.config.js';
import { queryCostError } from './query-cost.js';
import { subscriptionRootConditionErrors } from './subscription-root.js';

/**
 * The query limits, defined once and applied by both transports: Apollo (HTTP) takes
 * `parseOptions`, `validationRules` and `costError` through its options and a plugin; the
 * graphql-ws server runs the very same through `parse`/`validate`/`costError` in its subscribe
 * step. Every refusal happens before any resolver runs and names the limit and its value.
 */
export class QueryLimits {
  /** The token limit acts inside the parser: a huge document is abandoned, not built. */
  readonly parseOptions: ParseOptions;
  /** Added to graphql-js's own rules on both transports. */
  readonly validationRules: readonly ValidationRule[];

  constructor(private readonly limits: Limits['query']) {
    this.parseOptions = { maxTokens: limits.maxTokens };
    this.validationRules = [
      maxDepthRule({
        n: limits.maxDepth,
        flattenFragments: true,
        propagateOnRejection: false,
        onReject: [report('GRAPHQL_MAX_DEPTH', limits.maxDepth)],
      }),
      maxAliasesRule({
        n: limits.maxAliases,
        allowList: [],
        propagateOnRejection: false,
        onReject: [report('GRAPHQL_MAX_ALIASES', limits.maxAliases)],
      }),
      ...(limits.introspection ? [] : [NoSchemaIntrospectionCustomRule]),
    ];
  }

  /** graphql-js's parse with the token limit; a refusal says so (GRAPHQL_VALIDATION_FAILED). */
  parse(source: string): DocumentNode {
    try {
      return parse(source, this.parseOptions);
    } catch (e) {
      throw this.tokenLimitError(e) ?? e;
    }
  }

  /** The parser's "more than N tokens" refusal as a limit refusal; null for any other error. */
  tokenLimitError(e: unknown): GraphQLError | null {
    if (!(e instanceof GraphQLError) || !/more tha[nt] \d+ tokens/.test(e.message)) return null;
    const max = this.limits.maxTokens;
    return new GraphQLError(`Query has more than ${max} tokens (GRAPHQL_MAX_TOKENS)`, {
      extensions: { code: 'GRAPHQL_VALIDATION_FAILED', limit: 'GRAPHQL_MAX_TOKENS', max },
    });
  }

  /** graphql-js's rules and the limits, after the one check graphql-js 16 cannot run itself (subscription-root.ts). */
  validate(schema: GraphQLSchema, document: DocumentNode): readonly GraphQLError[] {
    const conditioned = subscriptionRootConditionErrors(document);
    if (conditioned.length > 0) return conditioned;
    try {
      return validate(schema, document, [...specifiedRules, ...this.validationRules]).map((e) => this.withoutSuggestions(e));
    } catch (e) {
      // A rule that throws instead of reporting (as graphql-js 16's single-root-field rule did) refuses the document, no more.
      if (e instanceof GraphQLError) return [e];
      throw e;
    }
  }

  costError(
    schema: GraphQLSchema,
    document: DocumentNode,
    variables: Record<string, unknown> | null | undefined,
    operationName?: string | null,
  ): GraphQLError | null {
    return queryCostError(schema, document, variables, operationName, this.limits.maxCost, this.limits.maxCounts);
  }

  /**
   * Apollo's last say on an HTTP error (formatError): its parser's token refusal named as the
   * limit, as graphql-ws names it, and no suggestions when they are off.
   */
  formatted(error: GraphQLFormattedError): GraphQLFormattedError {
    if (error.extensions?.code === 'GRAPHQL_PARSE_FAILED') {
      const limit = this.tokenLimitError(new GraphQLError(error.message));
      if (limit) return limit.toJSON();
    }
    return this.withoutSuggestions(error);
  }

  /** The cost check on HTTP, once Apollo knows the operation and its variables. */
  apolloPlugin(): ApolloServerPlugin {
    return {
      requestDidStart: async () => ({
        didResolveOperation: async ({ schema, document, request, operationName }) => {
          const error = this.costError(schema, document, request.variables, operationName);
          if (error) throw new GraphQLError(error.message, { extensions: { ...error.extensions, http: { status: 400 } } });
        },
      }),
    };
  }

  /**
   * "Did you mean …?" lists the schema's names to a client probing it; off in production. graphql-js
   * appends it at the end of a message, so only a trailing one is cut, found by position: messages
   * repeat client text, and a pattern scanning for the phrase went quadratic on an id of thousands
   * of "Did you mean" (a 260 KB body held the event loop for 11 s).
   */
  withoutSuggestions<E extends { message: string }>(error: E): E {
    if (this.limits.suggestions || !error.message.endsWith('?')) return error;
    const at = error.message.lastIndexOf(' Did you mean ');
    if (at < 0) return error;
    const message = error.message.slice(0, at).trim();
    if (error instanceof GraphQLError) return new GraphQLError(message, { nodes: error.nodes, extensions: error.extensions }) as unknown as E;
    return { ...error, message };
  }
}

/** Armor's rules report through this: the message names the environment variable that sets the limit. */
function report(variable: string, max: number) {
  return (context: ValidationContext | null, error: GraphQLError): void => {
    const message = `${error.message.replace(/^Syntax Error: /, '').replace(/\.$/, '')} (${variable})`;
    context?.reportError(new GraphQLError(message, { extensions: { code: 'GRAPHQL_VALIDATION_FAILED', limit: variable, max } }));
  };
}
