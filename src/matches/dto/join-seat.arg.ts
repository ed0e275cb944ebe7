import { Int } from '@nestjs/graphql';

/** The `seat` argument of joinMatch and joinMatchByInvite: partners choose to sit together. */
export const JOIN_SEAT_ARG = {
  type: () => Int,
  nullable: true,
  description:
    "The seat to take, 0-based (with partnerships, seats 0 and 2 are one team, 1 and 3 the other). Omitted: the first free seat. A bot's seat, or none of the match's: BAD_USER_INPUT; a taken one: MATCH_FULL, with extensions.freeSeats.",
} as const;
