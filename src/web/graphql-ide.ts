import type { ApolloServerPlugin } from '@apollo/server';
import { renderAltair } from 'altair-static';

/** Where the IDE's own files (scripts, styles, fonts) are served from. */
export const IDE_ASSETS_PREFIX = '/graphql-ide/';

const WS_PLACEHOLDER = 'ws://graphql-ide.invalid/graphql';

const FIRST_QUERY = `# Ctrl+Enter runs a query. Subscriptions use graphql-ws on this same address.
query Leaderboard {
  leaderboard(first: 5) { totalCount edges { node { rank player { name } stats { matchesWon } } } }
}
`;

/**
 * The page GET /graphql answers to a browser (Accept: text/html): Altair, served entirely from
 * this server (altair-static's files under IDE_ASSETS_PREFIX), so it works offline. The
 * subscriptions address depends on how the page was reached (host, http or https), so it is
 * computed in the browser rather than fixed here.
 */
export function graphqlIdeHtml(graphqlPath: string): string {
  const html = renderAltair({
    baseURL: IDE_ASSETS_PREFIX,
    endpointURL: graphqlPath,
    subscriptionsEndpoint: WS_PLACEHOLDER,
    initialSubscriptionRequestHandlerId: 'graphql-ws',
    initialQuery: FIRST_QUERY,
    initialName: 'Straight Dominoes',
    disableAccount: true,
    initialSettings: { 'plugin.list': [], disablePushNotification: true },
  });
  const live = `(location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + ${JSON.stringify(graphqlPath)}`;
  return html.replace(`\`${WS_PLACEHOLDER}\``, live);
}

/** An Apollo plugin serving that page as the landing page (the CDN GraphiQL page is off). */
export function graphqlIdePlugin(graphqlPath: string): ApolloServerPlugin {
  const html = graphqlIdeHtml(graphqlPath);
  return {
    async serverWillStart() {
      return {
        async renderLandingPage() {
          return { html };
        },
      };
    },
  };
}
