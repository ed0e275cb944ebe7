import { Field, Int, ObjectType } from '@nestjs/graphql';

@ObjectType({ description: 'A tile of the double-six set; high >= low.' })
export class Tile {
  @Field(() => Int, { description: 'The larger half, 0..6.' })
  high!: number;
  @Field(() => Int, { description: 'The smaller half, 0..6.' })
  low!: number;
}
