import { Module } from '@nestjs/common';
import { MatchesModule } from '../matches/matches.module.js';
import { BoardPictureService } from './board-picture.service.js';
import { BoardController } from './board.controller.js';

/** Board pictures: the layout drawn as SVG, with the same drawing code as the web client. */
@Module({
  imports: [MatchesModule],
  controllers: [BoardController],
  providers: [BoardPictureService],
})
export class BoardModule {}
