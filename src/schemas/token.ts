import * as v from 'valibot';
import { Timestamp } from './common';

/** 2.1: response of the client-token endpoint. */
export const ClientTokenSchema = v.looseObject({
  accessToken: v.pipe(v.string(), v.minLength(1)),
  tokenType: v.string(),
  expiresOn: Timestamp,
  issuedOn: Timestamp,
});
export type ClientToken = v.InferOutput<typeof ClientTokenSchema>;

/** 4.1: the request carries `grant_type=client_credentials` (see the README for the accepted encodings). */
export const ClientTokenRequestSchema = v.object({ grant_type: v.literal('client_credentials') });
