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

/**
 * Another tab of this browser signed in as someone else, or out: the token this page would send
 * is no longer the one it shows. The socket is reopened with the new one, and `changed` redraws.
 */
export function onSessionChangedElsewhere(changed: () => void): void {
  let pending: ReturnType<typeof setTimeout> | undefined;
  window.addEventListener('storage', (e) => {
    if (e.storageArea !== localStorage || (e.key !== null && e.key !== TOKEN_KEY && e.key !== PLAYER_KEY)) return;
    // A session is two keys, so one change elsewhere is two events: act once both have landed,
    // and only if the token is not the one this page already uses.
    clearTimeout(pending);
    pending = setTimeout(() => {
      const token = session()?.token ?? null;
      if (token === tokenInUse) return;
      tokenInUse = token;
      resetSocket();
      changed();
    }, SESSION_SETTLE_MS);
  });
}

/** The token this page sends (or none): changed here by saveSession, elsewhere by another tab. */
let tokenInUse: string | null = session()?.token ?? null;
const SESSION_SETTLE_MS = 50;

export function saveSession(s: Session | null): void {
  tokenInUse = s?.token ?? null;
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
  RATE_LIMITED: 'Too many requests just now: wait a moment, then try again.',
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
  // The token this page uses, not the saved one: another tab may have saved a different one a
  // moment ago, and until this page has redrawn as that player its clicks are still its own.
  const token = options.token === undefined ? tokenInUse : options.token;
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

/**
 * The socket was closed with 4403: the server refused the token it was opened with. That is
 * checked over HTTP before the token is forgotten (a 401 there forgets it, see gqlWithErrors),
 * so only the server's answer about the token itself ever removes it.
 */
async function socketRefusedToken(token: string, reason: string): Promise<void> {
  if (session()?.token !== token) return;
  try {
    await gql('query TokenCheck { me { id } }', {}, { token });
  } catch (e) {
    if (e instanceof ServerError && e.code === 'UNAUTHENTICATED') return; // forgotten and told already
  }
  if (session()?.token !== token) return;
  for (const l of tokenListeners) l({ forgotten: false, reason });
}

/**
 * idle: no socket open (nothing to follow); connecting, connected; reconnecting after a drop;
 * offline: the browser has no network; stopped: the server closed the socket for a reason that a
 * retry cannot fix (see TERMINAL), so it is not reopened.
 */
export type ConnectionState = 'idle' | 'connecting' | 'connected' | 'reconnecting' | 'offline' | 'stopped';
export interface ConnectionStatus {
  state: ConnectionState;
  /** For 'stopped': why, in words. */
  detail?: string;
}
const listeners = new Set<(s: ConnectionStatus) => void>();
let current: ConnectionStatus = { state: 'idle' };
let socket: Client | null = null;

export function onConnection(listener: (s: ConnectionStatus) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function connectionStatus(): ConnectionStatus {
  return current;
}

function emit(state: ConnectionState, detail?: string): void {
  current = { state, detail };
  for (const l of listeners) l(current);
}

/**
 * Close codes after which the same socket must not be opened again (docs/errors.md): a refused
 * token (4403), too many sockets with one token (4290), and a client the server cannot talk to.
 * graphql-ws gives up on its own on 4500 and 4429 too, where the docs say to come back later:
 * subscribeLive (feed.ts) does that.
 */
const TERMINAL: Record<number, string> = {
  4403: 'the server refused your token',
  4290: 'too many pages are open with your token: close some, then reload this one',
  4400: 'the server did not understand this page (reload it)',
  4401: 'the server did not understand this page (reload it)',
  4406: 'the server did not understand this page (reload it)',
  4409: 'the server did not understand this page (reload it)',
  1009: 'a message was too big for the server',
};

export function closeCodeOf(e: unknown): number | null {
  return typeof e === 'object' && e !== null && 'code' in e && typeof e.code === 'number' && 'reason' in e ? e.code : null;
}

/** A ping when the socket has been quiet this long, and a dead socket when no pong follows in time. */
const KEEPALIVE_MS = 8_000;
const PONG_TIMEOUT_MS = 4_000;
const RETRY_CAP_MS = 4_000;
const OFFLINE_RETRY_MS = 15_000;
let wakeRetry: (() => void) | null = null;
/** A socket is open or being opened (graphql-ws reconnects it), as opposed to idle or stopped. */
let active = false;

/** One shared socket; it reconnects (with a capped back-off) while anything listens, unless told not to. */
export function ws(): Client {
  if (socket) return socket;
  const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/graphql`;
  let everConnected = false;
  let token: string | null = null;
  let pongDue: ReturnType<typeof setTimeout> | undefined;
  const mine = (): boolean => socket === client; // events of a replaced client say nothing now
  const client: Client = createClient({
    url,
    lazy: true,
    retryAttempts: Infinity,
    shouldRetry: (e) => {
      const code = closeCodeOf(e);
      return code === null || !(code in TERMINAL);
    },
    retryWait: (retries) =>
      new Promise((resolve) => {
        // Without a network every attempt fails at once (and logs a console error): wait for the
        // 'online' event instead, with a long timer in case the browser's guess is wrong.
        const wait = navigator.onLine ? Math.min(500 * 2 ** retries, RETRY_CAP_MS) : OFFLINE_RETRY_MS;
        const timer = setTimeout(done, wait);
        function done(): void {
          clearTimeout(timer);
          if (wakeRetry === done) wakeRetry = null;
          resolve();
        }
        wakeRetry = done; // the network came back: try at once
      }),
    keepAlive: KEEPALIVE_MS,
    connectionParams: () => {
      const s = session();
      token = s?.token ?? null;
      return s ? { authorization: `Bearer ${s.token}` } : {};
    },
    on: {
      connecting: () => {
        if (!mine()) return;
        active = true;
        emit(!navigator.onLine ? 'offline' : everConnected ? 'reconnecting' : 'connecting');
      },
      connected: () => {
        everConnected = true;
        if (mine()) emit('connected');
      },
      ping: (received) => {
        if (received) return; // the server's ping: graphql-ws answers it
        clearTimeout(pongDue);
        // No pong in time: the connection is dead without a close (a dropped network). Terminate
        // it now, so graphql-ws reconnects instead of waiting for TCP to give up.
        pongDue = setTimeout(() => client.terminate(), PONG_TIMEOUT_MS);
      },
      pong: (received) => {
        if (received) clearTimeout(pongDue);
      },
      closed: (event) => {
        clearTimeout(pongDue);
        if (!mine()) return;
        const code = closeCodeOf(event);
        // 1000 is the lazy socket closing itself once nothing listens; anything else is a drop.
        if (code === 1000) {
          active = false;
          return emit(navigator.onLine ? 'idle' : 'offline');
        }
        if (code !== null && code in TERMINAL) {
          active = false;
          emit('stopped', TERMINAL[code]);
          const reason = (event as { reason?: string }).reason || TERMINAL[code];
          if (code === 4403 && token) void socketRefusedToken(token, reason);
          return;
        }
        emit(navigator.onLine ? 'reconnecting' : 'offline');
      },
    },
  });
  socket = client;
  return client;
}

function resetSocket(): void {
  const old = socket;
  socket = null;
  void old?.dispose();
  active = false;
  emit(navigator.onLine ? 'idle' : 'offline');
}

// The browser knows at once when its network goes: say so, and drop a socket that may hang
// silently; when the network is back, reconnect without waiting out the back-off.
window.addEventListener('offline', () => {
  emit('offline');
  socket?.terminate();
});
window.addEventListener('online', () => {
  if (wakeRetry) wakeRetry();
  else if (current.state === 'offline') emit(active ? 'reconnecting' : 'idle');
});
