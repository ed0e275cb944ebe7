import { Agent } from 'undici';

/**
 * The tests' HTTP clients let an idle keep-alive socket go after 1 s, well inside the server's
 * HTTP_KEEPALIVE_TIMEOUT_MS (5 s). fetch's own default keeps it for the server's hint less 2 s,
 * timed in coarse ticks that fall behind real time when the event loop is slow (the test process
 * also runs in-process servers, on a shared machine): under load a client could send a request
 * on a socket the server had just closed, and fail with "SocketError: other side closed". A
 * timeout of 1 s or less runs on an ordinary timer.
 */
const agent = new Agent({ keepAliveTimeout: 1_000, keepAliveMaxTimeout: 1_000 });
const fetchOf = globalThis.fetch;
globalThis.fetch = (input, init) => fetchOf(input, { dispatcher: agent, ...init } as RequestInit);
