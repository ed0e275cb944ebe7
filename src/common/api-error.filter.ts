import { Catch, type ArgumentsHost } from '@nestjs/common';
import type { GqlExceptionFilter } from '@nestjs/graphql';
import type { Response } from 'express';
import { GraphQLError } from 'graphql';
import { ApiError, httpStatusOf } from './api-error.js';

/** Turns an ApiError into a GraphQL error with `extensions.code`, or a JSON error for REST. */
@Catch(ApiError)
export class ApiErrorFilter implements GqlExceptionFilter {
  catch(error: ApiError, host: ArgumentsHost): unknown {
    if (host.getType() === 'http') {
      const res = host.switchToHttp().getResponse<Response>();
      res.status(httpStatusOf(error.code)).json({ code: error.code, message: error.message });
      return undefined;
    }
    return new GraphQLError(error.message, { extensions: { code: error.code, ...error.details } });
  }
}
