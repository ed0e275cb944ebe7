/** A GraphQL-over-HTTP client: real requests to the running server, as any client would send. */
export interface GqlErrorShape {
  message: string;
  extensions?: { code?: string; [k: string]: unknown };
}

export class GqlError extends Error {
  constructor(readonly errors: GqlErrorShape[]) {
    super(errors.map((e) => `${e.extensions?.code ?? '?'}: ${e.message}`).join('; '));
  }
  get code(): string | undefined {
    return this.errors[0]?.extensions?.code;
  }
}

export class GqlClient {
  constructor(
    readonly baseUrl: string,
    readonly token?: string,
    readonly me?: { id: string; name: string },
  ) {}

  get id(): string {
    if (!this.me) throw new Error('anonymous client');
    return this.me.id;
  }

  /** The raw response body: data and errors as the server sent them. */
  async raw(query: string, variables: Record<string, unknown> = {}): Promise<{ status: number; body: { data?: unknown; errors?: GqlErrorShape[] } }> {
    const res = await fetch(`${this.baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(this.token ? { authorization: `Bearer ${this.token}` } : {}) },
      body: JSON.stringify({ query, variables }),
    });
    return { status: res.status, body: (await res.json()) as { data?: unknown; errors?: GqlErrorShape[] } };
  }

  /** The data, or a GqlError carrying the server's errors. */
  async request<T>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
    const { body } = await this.raw(query, variables);
    if (body.errors?.length) throw new GqlError(body.errors);
    return body.data as T;
  }

  /** The error code a request fails with (the test fails if it succeeds). */
  async errorCode(query: string, variables: Record<string, unknown> = {}): Promise<string | undefined> {
    const { body } = await this.raw(query, variables);
    if (!body.errors?.length) throw new Error(`expected an error, got ${JSON.stringify(body.data)}`);
    return body.errors[0].extensions?.code;
  }
}
