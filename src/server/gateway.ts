import { createCalls, type ServiceCalls, type GatewayOptions } from './calls/calls';
import { createHandlers, type Handlers } from './routes/handlers';

export interface Gateway extends ServiceCalls {
  /** Ready `Request -> Response` handlers for the merchant's own routes. */
  handlers: Handlers;
}

/** The server companion's entry point: every call of the service, and the handlers built on them. Bad options throw `invalid_config`. */
export function createGateway(options: GatewayOptions): Gateway {
  const { core, base } = createCalls(options);
  return { ...core, handlers: createHandlers(core, base.origin, options.onEvent) };
}
