import { Controller, Get, Inject } from '@nestjs/common';
import { HealthCheck, HealthCheckService, HealthIndicatorService, type HealthCheckResult } from '@nestjs/terminus';
import { INSTANCE_STANDING, type InstanceStanding } from '../realtime/instance-slot.js';
import { DatabaseHealthIndicator } from './database.health.js';

/** Liveness and readiness for orchestrators and the README's smoke test. */
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly database: DatabaseHealthIndicator,
    private readonly indicator: HealthIndicatorService,
    @Inject(INSTANCE_STANDING) private readonly instance: InstanceStanding,
  ) {}

  /** The process is up. */
  @Get()
  @HealthCheck()
  alive(): Promise<HealthCheckResult> {
    return this.health.check([]);
  }

  /**
   * The database answers and every migration in prisma/migrations is applied, and this instance
   * is not in conflict with another on its database (PUBSUB=memory beside another instance).
   */
  @Get('ready')
  @HealthCheck()
  ready(): Promise<HealthCheckResult> {
    return this.health.check([
      () => this.database.isReady('database'),
      () => {
        const check = this.indicator.check('instance');
        return this.instance.conflicting ? check.down({ message: 'another instance on this database excludes this one (PUBSUB)' }) : check.up();
      },
    ]);
  }
}
