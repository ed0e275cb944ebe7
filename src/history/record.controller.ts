import { Controller, Get, Header, Param } from '@nestjs/common';
import type { MatchRecordV2 } from './record-format.js';
import { RecordService } from './record.service.js';

/** GET /matches/:id/record — the versioned match record (docs/match-record.md). */
@Controller('matches')
export class RecordController {
  constructor(private readonly records: RecordService) {}

  @Get(':id/record')
  @Header('Cache-Control', 'public, max-age=3600')
  record(@Param('id') id: string): Promise<MatchRecordV2> {
    return this.records.record(id);
  }
}
