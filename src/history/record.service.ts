import { Injectable } from '@nestjs/common';
import { ApiError } from '../common/api-error.js';
import { assertMatchId } from '../matches/command-runner.js';
import { buildMatchRecord, type MatchRecordV2 } from './record-format.js';
import { RecordRepository } from './record.repository.js';

@Injectable()
export class RecordService {
  constructor(private readonly repo: RecordRepository) {}

  /** Only a FINISHED match is exported: before that its hands are live and its scores moving. */
  async record(matchId: string): Promise<MatchRecordV2> {
    assertMatchId(matchId);
    const loaded = await this.repo.load(matchId);
    if (!loaded) throw new ApiError('NOT_FOUND', `no match ${matchId}`);
    if (!loaded.source) throw new ApiError('MATCH_NOT_IN_PROGRESS', `the match is ${loaded.status}: only FINISHED matches have a record`);
    return buildMatchRecord(loaded.source);
  }
}
