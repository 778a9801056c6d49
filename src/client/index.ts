export { collectBrowserInfo } from './browser-info';
export { type Client, createClient } from './client';
export type { Authorization, ClientOptions, ClientTokenGrant } from './config';
export type { CardField, CardInput, TokenizeResult } from './tokenize';
