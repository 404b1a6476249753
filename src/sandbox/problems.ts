/**
 * Problem-details bodies in the shapes of the spec's section 7, with the
 * RFC 9110 `type` links ASP.NET uses.
 */
import type {
  DefaultProblemDetails,
  DefaultValidationProblemDetails,
  ProblemDetails,
  UnconfirmedProblemDetails,
  UnexpectedProblemDetails,
} from '../api/types.js';
import type { FieldErrors } from './validation.js';

const RFC9110 = 'https://tools.ietf.org/html/rfc9110#section-';

export function validationProblem(instance: string, errors: FieldErrors): DefaultValidationProblemDetails {
  return {
    type: `${RFC9110}15.5.1`,
    title: 'One or more validation errors occurred.',
    status: 400,
    detail: null,
    instance,
    errors,
    errorCode: 'ValidationFailed',
  };
}

export function forbiddenProblem(instance: string, detail: string): DefaultProblemDetails {
  return { type: `${RFC9110}15.5.4`, title: 'Forbidden', status: 403, detail, instance, errorCode: 'Forbidden' };
}

export function unconfirmedProblem(instance: string, clientId: string): UnconfirmedProblemDetails {
  return {
    type: `${RFC9110}15.5.4`,
    title: 'Forbidden',
    status: 403,
    detail: `The client '${clientId}' has not been confirmed yet.`,
    instance,
    errorCode: 'Unconfirmed',
    isUnconfirmed: true,
  };
}

export function notFoundProblem(instance: string, detail?: string): ProblemDetails {
  const body: ProblemDetails = { type: `${RFC9110}15.5.5`, title: 'Not Found', status: 404 };
  if (detail !== undefined) body.detail = detail;
  body.instance = instance;
  return body;
}

export function methodNotAllowedProblem(instance: string, method: string): ProblemDetails {
  return {
    type: `${RFC9110}15.5.6`,
    title: 'Method Not Allowed',
    status: 405,
    detail: `The method '${method}' is not allowed; only GET is.`,
    instance,
  };
}

export function tooManyRequestsProblem(instance: string, retryAfterSeconds: number): ProblemDetails {
  return {
    type: 'https://tools.ietf.org/html/rfc6585#section-4',
    title: 'Too Many Requests',
    status: 429,
    detail: `Rate limit exceeded. Retry after ${retryAfterSeconds} second(s).`,
    instance,
  };
}

export function unexpectedProblem(instance: string, status: 500 | 503, timestamp: string, traceId: string): UnexpectedProblemDetails {
  return {
    type: status === 500 ? `${RFC9110}15.6.1` : `${RFC9110}15.6.4`,
    title: 'An unexpected error occurred.',
    status,
    detail: status === 500 ? 'An unexpected error occurred while processing the request.' : 'The service is temporarily unavailable.',
    instance,
    timestamp,
    traceId,
  };
}
