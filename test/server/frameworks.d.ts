// The servers the tests mount payframe on that ship no types of their own: used as their docs show.
declare module 'express';
declare module 'express-4';
declare module 'koa';
