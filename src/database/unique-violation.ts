import { Prisma } from '../../generated/prisma/client.js';

/** A unique-key violation, whether Prisma mapped it (P2002) or it came from a raw statement. */
export function isUniqueViolation(e: unknown): boolean {
  if ((e as { code?: unknown }).code === '23505') return true; // straight from node-postgres (hot path)
  if (!(e instanceof Prisma.PrismaClientKnownRequestError)) return false;
  if (e.code === 'P2002') return true;
  const meta = e.meta as { code?: string; driverAdapterError?: { cause?: { kind?: string; originalCode?: string } } } | undefined;
  return (
    meta?.code === '23505' ||
    meta?.driverAdapterError?.cause?.kind === 'UniqueConstraintViolation' ||
    meta?.driverAdapterError?.cause?.originalCode === '23505'
  );
}
