import * as v from 'valibot';

/** The error body of the service: `{ code, name, message, eventId }`. */
export const ErrorBodySchema = v.looseObject({
  code: v.string(),
  name: v.string(),
  message: v.string(),
  eventId: v.string(),
});
export type ErrorBody = v.InferOutput<typeof ErrorBodySchema>;
