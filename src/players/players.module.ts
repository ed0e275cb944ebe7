import { Module } from '@nestjs/common';
import { AuthGuard } from './auth.js';
import { PlayersResolver } from './players.resolver.js';
import { PlayersService } from './players.service.js';

@Module({ providers: [PlayersService, PlayersResolver, AuthGuard], exports: [PlayersService, AuthGuard] })
export class PlayersModule {}
