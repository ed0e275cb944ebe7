import { Module } from '@nestjs/common';
import { AuthGuard } from './auth.js';
import { PlayersResolver } from './players.resolver.js';
import { PlayersService } from './players.service.js';
import { SocketSessions } from './socket-sessions.js';

@Module({ providers: [PlayersService, PlayersResolver, AuthGuard, SocketSessions], exports: [PlayersService, AuthGuard, SocketSessions] })
export class PlayersModule {}
