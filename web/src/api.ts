import { createClient, type Client } from 'graphql-ws';

/**
 * The client's only link to the server: GraphQL over HTTP for queries and commands, graphql-ws for
 * live events, with the player's bearer token kept in this browser's localStorage.
 */
const TOKEN_KEY = 'straight-dominoes.token';
const PLAYER_KEY = 'straight-dominoes.player';

export interface Session {
  token: string;
  player: { id: string; name: string };
}

export function session(): Session | null {
  const token = localStorage.getItem(TOKEN_KEY);
  const player = localStorage.getItem(PLAYER_KEY);
  if (!token || !player) return null;
  try {
    return { token, player: JSON.parse(player) as Session['player'] };
  } catch {
    return null;
  }
}

export function saveSession(s: Session | null): void {
  if (s) {
    localStorage.setItem(TOKEN_KEY, s.token);
    localStorage.setItem(PLAYER_KEY, JSON.stringify(s.player));
  } else {
    localStorage.removeItem(TOKEN_KEY);
    localStorage.removeItem(PLAYER_KEY);
  }
  resetSocket(); // the socket authenticates once, when it connects
}

export class ServerError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const WORDS: Record<string, string> = {
  UNAUTHENTICATED: 'Register or sign in first.',
  FORBIDDEN: 'You may not do that in this match.',
  NOT_FOUND: 'No such match.',
  BAD_USER_INPUT: 'The server refused the input.',
  NOT_YOUR_TURN: 'It is not your turn.',
  ILLEGAL_MOVE: 'That tile cannot be played there.',
  MUST_PLAY: 'You hold a playable tile: play it instead of drawing.',
  BONEYARD_EMPTY: 'The boneyard is empty.',
  STALE_VERSION: 'The match moved on meanwhile; the board is up to date again.',
  MATCH_NOT_IN_PROGRESS: 'The match is not in progress.',
  MATCH_NOT_FINISHED: 'The match is not finished.',
  MATCH_FULL: 'The match is full.',
  TOO_MANY_WAITING_MATCHES: 'You already wait in too many matches: leave one, or wait for one to start.',
  RATE_LIMITED: 'The server is busy: try again in a moment.',
  INTERNAL_SERVER_ERROR: 'The server failed: try again in a moment.',
  NETWORK: 'The server cannot be reached.',
};

/** An error as a sentence for a person: what it means, then the server's own words. */
export function errorText(e: unknown): string {
  if (e instanceof ServerError) {
    const words = WORDS[e.code];
    return words ? `${words} (${e.message})` : e.message;
  }
  return e instanceof Error ? e.message : String(e);
}

/**
 * A failure that says nothing about the request itself: the server could not be reached, was
 * busy or failed. Retrying later may succeed, and nothing about the player's token is known.
 */
export function isConnectionError(e: unknown): boolean {
  return e instanceof ServerError && (e.code === 'NETWORK' || e.code === 'RATE_LIMITED' || e.code === 'INTERNAL_SERVER_ERROR');
}

type GqlErrors = { message: string; path?: (string | number)[]; extensions?: { code?: string } }[];

/** `token`: send this token instead of the saved one (null: none), e.g. to check a token before keeping it. */
export interface GqlOptions {
  token?: string | null;
}

export async function gql<T>(query: string, variables: Record<string, unknown> = {}, options: GqlOptions = {}): Promise<T> {
  const { data, errors } = await gqlWithErrors<T>(query, variables, options);
  const first = errors[0];
  if (first) throw new ServerError(first.extensions?.code ?? 'ERROR', first.message);
  return data as T;
}

/** Data and errors side by side, for a document whose fields may fail one by one. */
export async function gqlWithErrors<T>(
  query: string,
  variables: Record<string, unknown> = {},
  options: GqlOptions = {},
): Promise<{ data: T | null; errors: GqlErrors }> {
  const token = options.token === undefined ? (session()?.token ?? null) : options.token;
  let res: Response;
  try {
    res = await fetch('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify({ query, variables }),
    });
  } catch {
    throw new ServerError('NETWORK', 'request failed');
  }
  const body = (await res.json().catch(() => null)) as { data?: T; errors?: GqlErrors } | null;
  if (!body) throw new ServerError('NETWORK', `the server answered ${res.status}`);
  const errors = body.errors ?? [];
  // A token that is sent but not valid fails the whole request with 401 UNAUTHENTICATED: that
  // answer, and no other failure, says the saved token is no longer any good.
  const refusal = errors.find((e) => e.extensions?.code === 'UNAUTHENTICATED');
  if (token && res.status === 401 && refusal) tokenRefused(token, refusal.message);
  if (!body.data && errors.length === 0) throw new ServerError('NETWORK', `the server answered ${res.status}`);
  return { data: body.data ?? null, errors };
}

/** What became of the saved token after the server refused it. */
export interface TokenProblem {
  /** True: the server said the token is not valid, and this browser forgot it. */
  forgotten: boolean;
  /** The server's words. */
  reason: string;
}
const tokenListeners = new Set<(p: TokenProblem) => void>();

export function onTokenProblem(listener: (p: TokenProblem) => void): () => void {
  tokenListeners.add(listener);
  return () => tokenListeners.delete(listener);
}

function tokenRefused(token: string, reason: string): void {
  if (session()?.token !== token) return; // a token being tried, or one already replaced
  saveSession(null);
  for (const l of tokenListeners) l({ forgotten: true, reason });
}

export type ConnectionState = 'idle' | 'connecting' | 'connected' | 'reconnecting';
const listeners = new Set<(s: ConnectionState) => void>();
let socket: Client | null = null;

export function onConnection(listener: (s: ConnectionState) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function emit(s: ConnectionState): void {
  for (const l of listeners) l(s);
}

/** One shared socket; it reconnects forever (with a capped back-off) while anything listens. */
export function ws(): Client {
  if (socket) return socket;
  const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/graphql`;
  let everConnected = false;
  socket = createClient({
    url,
    lazy: true,
    retryAttempts: Infinity,
    shouldRetry: () => true,
    retryWait: (retries) => new Promise((r) => setTimeout(r, Math.min(500 * 2 ** retries, 4000))),
    connectionParams: () => {
      const s = session();
      return s ? { authorization: `Bearer ${s.token}` } : {};
    },
    on: {
      connecting: () => emit(everConnected ? 'reconnecting' : 'connecting'),
      connected: () => {
        everConnected = true;
        emit('connected');
      },
      // 1000 is the lazy socket closing itself once nothing listens; anything else is a drop.
      closed: (event) => emit((event as CloseEvent | undefined)?.code === 1000 ? 'idle' : 'reconnecting'),
    },
  });
  return socket;
}

function resetSocket(): void {
  const old = socket;
  socket = null;
  void old?.dispose();
}
