import { Module } from '@nestjs/common';
import { PlayersModule } from '../players/players.module.js';
import { BenchFloorResolver } from './bench-floor.resolver.js';

/**
 * Bench only: registered by AppModule only with BENCH_FLOOR=true, so the public schema
 * (schema.gql) never has it. bench:moves drives it beside the move commands.
 */
@Module({ imports: [PlayersModule], providers: [BenchFloorResolver] })
export class BenchFloorModule {}
