import { createCalls, type ServiceCalls, type GatewayOptions } from './calls/calls';
import { settleOpen, type OpenSettlement, type SettleOpenOptions } from './calls/attempts';
import { createHandlers, type Handlers } from './routes/handlers';
import { memoryStore } from './store/memory';
import type { PayframeStore } from './store/store';
import { configError } from '../shared/errors';

export interface Gateway extends ServiceCalls {
  /** Ready `Request -> Response` handlers for the merchant's own routes. */
  handlers: Handlers;
  /** The store the gateway keeps its outcomes in (`createGateway({ store })`, or the default memory store). */
  store: PayframeStore;
  /**
   * Settles every attempt of `handlers.pay` still open (its answer lost) or pending, made at least
   * `olderThan` ms ago, oldest first, at most `limit`: for a scheduled job (docs/outcomes.md). Reads the
   * service; never pays. An open attempt nothing named by the end of the service's notification window
   * is closed `void`. Answers what it found.
   */
  settleOpen(options?: SettleOpenOptions): Promise<OpenSettlement>;
}

/** The server companion's entry point: every call of the service, and the handlers built on them. Bad options throw `invalid_config`. */
export function createGateway(options: GatewayOptions): Gateway {
  // The memory store: one process only, forgotten at a restart (docs/stores.md for the others).
  const store = options?.store ?? memoryStore();
  if (typeof store?.notifications?.claim !== 'function' || typeof store?.attempts?.begin !== 'function') {
    throw configError('store must be a payframe store { notifications, attempts } (memoryStore(), postgresStore(...), redisStore(...))');
  }
  const { core, base } = createCalls(options, store);
  return {
    ...core,
    store,
    handlers: createHandlers(core, base.origin, store, options.onEvent),
    settleOpen: (settleOptions) => settleOpen({ get: core.payments.get, hostedSettle: core.hostedPayments.settle }, store, settleOptions),
  };
}
