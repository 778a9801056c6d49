import * as v from 'valibot';
import { TimestampSchema } from './common';

/** The interface document's 2.1: response of the client-token endpoint. */
export const ClientTokenSchema = v.looseObject({
  accessToken: v.pipe(v.string(), v.minLength(1)),
  tokenType: v.string(),
  expiresOn: TimestampSchema,
  issuedOn: TimestampSchema,
});
export type ClientToken = v.InferOutput<typeof ClientTokenSchema>;
