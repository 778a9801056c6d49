// The types of engines.mjs (plain JavaScript, shared with the bench).
export interface Engine {
  url: string;
  /** Stops it as a crash would (PostgreSQL's immediate shutdown, SIGQUIT; Redis SIGKILL), its data left on disk. */
  kill(): Promise<void>;
  /** Starts it again on the same folder and port. */
  start(): Promise<void>;
  /** Stops it for good and removes its folder. */
  close(): Promise<void>;
  /** Milliseconds the first start took. */
  startedInMs: number;
}
/** A port nobody listens on now. */
export function freePort(): Promise<number>;
/** PostgreSQL 15 (`PG_BIN`, default Debian's), initdb'd into a temporary folder, on a free port. */
export function startPostgres(): Promise<Engine>;
/** Redis with its append-only file written at every change: what survives a crash (docs/stores.md). */
export function startRedis(): Promise<Engine>;
