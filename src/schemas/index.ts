export * from './amount';
export * from './common';
export * from './error';
export * from './nonce';
export * from './payer';
export * from './payment';
export * from './token';
export * from './issue';
