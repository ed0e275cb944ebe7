import type { QueryConfig } from 'pg';

/**
 * Named prepared statements for the statements built with `Prisma.sql`. An unnamed statement is
 * parsed, analysed and planned by PostgreSQL on every execution; a command's commit is one
 * statement of several data-modifying CTEs, and re-planning it every time cost the database more
 * than executing it (bench:moves: 8 clients went from 617 to 815 moves/s on a quiet machine).
 * node-postgres prepares a named statement once per connection and then only binds and executes.
 *
 * A text gets a name the first time it is seen. Texts are built from a fixed set of shapes (the
 * values are parameters), so the names stay few; past `MAX_NAMES` distinct texts, any new one runs
 * unnamed, so a shape that did vary with its input could not grow every connection's statements
 * without bound.
 */
export const MAX_NAMES = 256;

export class PreparedStatements {
  private readonly names = new Map<string, string>();

  constructor(private readonly maxNames = MAX_NAMES) {}

  query(sql: { text: string; values: unknown[] }): QueryConfig {
    return { name: this.nameOf(sql.text), text: sql.text, values: sql.values };
  }

  /** Distinct texts named so far. */
  get size(): number {
    return this.names.size;
  }

  private nameOf(text: string): string | undefined {
    let name = this.names.get(text);
    if (name === undefined && this.names.size < this.maxNames) this.names.set(text, (name = `p${this.names.size}`));
    return name;
  }
}
