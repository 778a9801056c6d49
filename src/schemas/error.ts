import * as v from 'valibot';

/**
 * The error body of the service: `{ code, name, message, eventId }`. Only `code` and `name` are required
 * to read a refusal: one without `eventId` (or `message`) keeps its reason; those two are taken when strings.
 */
export const ErrorBodySchema = v.looseObject({ code: v.string(), name: v.string() });
export type ErrorBody = v.InferOutput<typeof ErrorBodySchema>;
