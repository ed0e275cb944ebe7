import type { ApolloServerPlugin } from '@apollo/server';
import { GraphQLError, OperationTypeNode } from 'graphql';
import { GRAPHQL_PATH } from './graphql-ws-endpoint.js';

/**
 * A subscription sent as an HTTP request is refused before it runs, with a code that tells the
 * client what to do. Apollo would execute it as a query: the resolvers, which read the event the
 * subscription delivers, find none and the client got INTERNAL_SERVER_ERROR (and the log a stack).
 */
export function subscriptionsOverHttpPlugin(): ApolloServerPlugin {
  return {
    requestDidStart: () =>
      Promise.resolve({
        didResolveOperation: ({ operation }) => {
          if (operation?.operation !== OperationTypeNode.SUBSCRIPTION) return Promise.resolve();
          throw new GraphQLError(
            `subscriptions are served over WebSocket only: connect to ${GRAPHQL_PATH} with the graphql-transport-ws protocol (graphql-ws); HTTP answers queries and mutations`,
            { extensions: { code: 'BAD_REQUEST', http: { status: 400 } } },
          );
        },
      }),
  };
}
