import type { ApolloServerPlugin } from '@apollo/server';
import { Kind, OperationTypeNode } from 'graphql';
import type { MetricsService } from './metrics.service.js';

/**
 * Times every GraphQL mutation from request to response, labelled by its root field (playTile,
 * drawTile, createMatch, …): the latency a client of that command sees, minus the network. A
 * document with several root fields is labelled `multiple` (the labels stay bounded by the schema).
 */
export function commandTimingPlugin(metrics: MetricsService): ApolloServerPlugin {
  if (!metrics.enabled) return {};
  return {
    requestDidStart() {
      const start = performance.now();
      let command: string | null = null;
      return Promise.resolve({
        didResolveOperation({ operation }) {
          if (operation?.operation !== OperationTypeNode.MUTATION) return Promise.resolve();
          const fields = operation.selectionSet.selections;
          const first = fields[0];
          command = fields.length === 1 && first.kind === Kind.FIELD ? first.name.value : 'multiple';
          return Promise.resolve();
        },
        willSendResponse({ response }) {
          if (command === null) return Promise.resolve();
          const body = response.body;
          const ok = body.kind === 'single' && !body.singleResult.errors?.length;
          metrics.command(command, (performance.now() - start) / 1000, ok);
          return Promise.resolve();
        },
      });
    },
  };
}
