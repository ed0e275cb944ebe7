import { Controller, Get, Param, UseFilters, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { RestErrorFilter } from '../common/rest-error.filter.js';
import type { MatchRecordV2 } from './record-format-v2.js';
import { RecordService } from './record.service.js';

/** GET /matches/:id/record — the versioned match record (docs/match-record.md). */
@Controller('matches')
@UseFilters(RestErrorFilter)
export class RecordController {
  constructor(private readonly records: RecordService) {}

  @Get(':id/record')
  async record(@Param('id') id: string, @Res({ passthrough: true }) reply: FastifyReply): Promise<MatchRecordV2> {
    const record = await this.records.record(id);
    // A finished match's record never changes; only a record that was built may be cached (a
    // refusal, e.g. for a match still playing, must not outlive the reason for it).
    reply.header('Cache-Control', 'public, max-age=3600');
    return record;
  }
}
