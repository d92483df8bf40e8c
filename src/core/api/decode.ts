// Turning a raw answer into a typed result: schema checks with messages that name the
// endpoint and the field that did not fit.

import type { z } from 'zod';
import { ServiceError } from './errors';
import { describeSchemaError } from './schemas';
import type { Answer, Call } from './transport';
import { l10n } from '../text/l10n';

export function badResponse(call: Call, detail: string): ServiceError {
  return new ServiceError({
    kind: 'bad-response',
    operation: call.operation,
    message: l10n.t('{0} returned an unexpected response: {1}', call.endpoint, detail),
  });
}

export function parse<S extends z.ZodType>(call: Call, answer: Answer, schema: S): z.infer<S> {
  const r = schema.safeParse(answer.body);
  if (!r.success) {
    const e = badResponse(call, describeSchemaError(r.error, answer.body));
    throw new ServiceError({ kind: e.kind, operation: e.operation, status: answer.status, message: e.message });
  }
  return r.data;
}
