import { Global, Module } from '@nestjs/common';
import { MATCH_NOTIFIER } from './match-notifier.js';

@Global()
@Module({
  providers: [{ provide: MATCH_NOTIFIER, useValue: { committed: async () => {} } }],
  exports: [MATCH_NOTIFIER],
})
export class RealtimeModule {}
