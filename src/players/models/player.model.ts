import { Field, ID, ObjectType } from '@nestjs/graphql';

@ObjectType({ description: 'A registered player.' })
export class Player {
  @Field(() => ID, { description: 'Stable id (UUID).' })
  id!: string;

  @Field({ description: 'Display name chosen at registration.' })
  name!: string;
}

@ObjectType({ description: 'A new player and the bearer token that authenticates it. The token is shown only here.' })
export class PlayerSession {
  @Field(() => Player, { description: 'The player just registered.' })
  player!: Player;

  @Field({ description: 'Send as `Authorization: Bearer <token>` (HTTP) or connection param `authorization` (graphql-ws).' })
  token!: string;
}
