import { Controller, Get, Param, UseFilters, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { RestErrorFilter } from '../common/rest-error.filter.js';
import { BoardPictureService, parseSeq } from './board-picture.service.js';

/**
 * Opened by itself, an SVG is a document that could run script or load from elsewhere: the
 * picture needs neither (its styles are attributes), so the policy allows nothing. As an <img>
 * elsewhere (a chat embedding it) the policy does not apply, and the picture still shows.
 */
const PICTURE_POLICY = "default-src 'none'; frame-ancestors 'none'";

/** GET /matches/:id/board.svg?seq=N — the public layout after move N (the latest by default). */
@Controller('matches')
@UseFilters(RestErrorFilter)
export class BoardController {
  constructor(private readonly pictures: BoardPictureService) {}

  @Get(':id/board.svg')
  async board(@Param('id') id: string, @Query('seq') seq: string | undefined, @Res() reply: FastifyReply): Promise<void> {
    const { svg, final } = await this.pictures.picture(id, parseSeq(seq));
    // A live match changes with every move; a finished one never again.
    await reply
      .header('Content-Type', 'image/svg+xml; charset=utf-8')
      .header('Cache-Control', final ? 'public, max-age=86400, immutable' : 'no-cache')
      .header('Content-Security-Policy', PICTURE_POLICY)
      .send(svg);
  }
}
