import { Injectable } from '@nestjs/common';
import { ApiError } from '../common/api-error.js';
import { matchIdOf } from '../matches/command-runner.js';
import { buildMatchRecordV2, type MatchRecordV2 } from './record-format-v2.js';
import { RecordRepository } from './record.repository.js';

@Injectable()
export class RecordService {
  constructor(private readonly repo: RecordRepository) {}

  /** Only a FINISHED match is exported: before that its hands are live and its scores moving. */
  async record(matchId: string): Promise<MatchRecordV2> {
    matchId = matchIdOf(matchId);
    const loaded = await this.repo.load(matchId);
    if (!loaded) throw new ApiError('NOT_FOUND', `no match ${matchId}`);
    if (!loaded.source || !loaded.fair)
      throw new ApiError('MATCH_NOT_IN_PROGRESS', `the match is ${loaded.status}: only FINISHED matches have a record`);
    return buildMatchRecordV2(loaded.source, loaded.fair);
  }
}
