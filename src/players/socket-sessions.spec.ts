import type { WebSocket } from 'ws';
import { loadConfig } from '../config/config.js';
import type { PrismaService } from '../database/prisma.service.js';
import { SocketSessions, TOKEN_REVOKED_CLOSE_CODE } from './socket-sessions.js';

/** A socket that records how it was closed. */
function fakeSocket() {
  const socket = { closedWith: null as number | null, once: () => socket, close: (code: number) => (socket.closedWith = code) };
  return socket;
}

/** A database that knows these token digests and answers when told to. */
function slowDatabase(valid: string[]) {
  let answer: () => void = () => {};
  const prisma = {
    background: () => new Promise<{ tokenHash: string }[]>((resolve) => (answer = () => resolve(valid.map((tokenHash) => ({ tokenHash }))))),
  };
  return { prisma: prisma as unknown as PrismaService, answer: () => answer() };
}

describe('SocketSessions.recheck', () => {
  const config = loadConfig({});

  it('closes the sockets whose token is gone, and not one that connected while the query ran', async () => {
    const db = slowDatabase(['kept']);
    const sessions = new SocketSessions(db.prisma, config);
    const kept = fakeSocket();
    const revoked = fakeSocket();
    const late = fakeSocket();
    sessions.track(kept as unknown as WebSocket, 'kept', 'p1');
    sessions.track(revoked as unknown as WebSocket, 'revoked', 'p2');
    const recheck = sessions.recheck();
    sessions.track(late as unknown as WebSocket, 'new-token', 'p3'); // registered and connected meanwhile
    db.answer();
    await recheck;
    sessions.onApplicationShutdown();
    expect({ kept: kept.closedWith, revoked: revoked.closedWith, late: late.closedWith }).toEqual({
      kept: null,
      revoked: TOKEN_REVOKED_CLOSE_CODE,
      late: null,
    });
  });
});
