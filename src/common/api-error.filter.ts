import { Catch, type ArgumentsHost } from '@nestjs/common';
import type { GqlExceptionFilter } from '@nestjs/graphql';
import { GraphQLError } from 'graphql';
import { ApiError, httpStatusOf } from './api-error.js';

/** Turns an ApiError into a GraphQL error with `extensions.code`, or a JSON error for REST. */
@Catch(ApiError)
export class ApiErrorFilter implements GqlExceptionFilter {
  catch(error: ApiError, host: ArgumentsHost): unknown {
    if (host.getType() === 'http') {
      // Express's res and Fastify's reply both answer status().send() with JSON for an object.
      const res = host
        .switchToHttp()
        .getResponse<{ header(name: string, value: string): unknown; status(code: number): { send(body: unknown): unknown } }>();
      // A refusal is about this moment (a match not finished yet): no cache may keep it.
      res.header('Cache-Control', 'no-store');
      res.status(httpStatusOf(error.code)).send({ code: error.code, message: error.message });
      return undefined;
    }
    return new GraphQLError(error.message, { extensions: { code: error.code, ...error.details } });
  }
}
