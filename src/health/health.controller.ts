import { Controller, Get } from '@nestjs/common';
import { HealthCheck, HealthCheckService, type HealthCheckResult } from '@nestjs/terminus';
import { DatabaseHealthIndicator } from './database.health.js';

/** Liveness and readiness for orchestrators and the README's smoke test. */
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly database: DatabaseHealthIndicator,
  ) {}

  /** The process is up. */
  @Get()
  @HealthCheck()
  alive(): Promise<HealthCheckResult> {
    return this.health.check([]);
  }

  /** The database answers and every migration in prisma/migrations is applied. */
  @Get('ready')
  @HealthCheck()
  ready(): Promise<HealthCheckResult> {
    return this.health.check([() => this.database.isReady('database')]);
  }
}
