import type { DocumentNode } from 'graphql';

/**
 * A parsed document costs about this many bytes of heap per character of its text, the text
 * included (graphql-js keeps a node and a location for every token: measured at 69–80 for a
 * 1 KiB and a 17 KiB subscription), so the cache's bound in bytes is a bound on its memory.
 */
export const HEAP_BYTES_PER_CHAR = 96;

/**
 * graphql-ws parses and validates every `subscribe` message again, where Apollo's HTTP path keeps
 * a document store. Clients send the same few subscription texts over and over (every reconnect
 * of every client after a deploy), so documents that parsed and validated are remembered by
 * their text, least recently used first out, within a budget in bytes. A document that failed
 * is never remembered: a client sending large invalid texts cannot grow it.
 */
export class OperationCache {
  private readonly documents = new Map<string, DocumentNode>();
  private used = 0;

  constructor(private readonly maxBytes: number) {}

  /** The remembered document for this text (now the most recently used), if any. */
  get(source: string): DocumentNode | undefined {
    const hit = this.documents.get(source);
    if (hit) {
      this.documents.delete(source); // re-insert: Map order is recency order
      this.documents.set(source, hit);
    }
    return hit;
  }

  /** Remember a document that parsed and validated; one larger than the whole budget is not kept. */
  remember(source: string, document: DocumentNode): void {
    const cost = costOf(source);
    if (cost > this.maxBytes || this.documents.has(source)) return;
    this.documents.set(source, document);
    this.used += cost;
    for (const [text] of this.documents) {
      if (this.used <= this.maxBytes) break;
      this.documents.delete(text);
      this.used -= costOf(text);
    }
  }

  get bytes(): number {
    return this.used;
  }

  get size(): number {
    return this.documents.size;
  }
}

function costOf(source: string): number {
  return source.length * HEAP_BYTES_PER_CHAR;
}
