/** Injection token: the PostgreSQL URL in use (DATABASE_URL, or the embedded server's). */
export const DATABASE_URL = Symbol('DATABASE_URL');
