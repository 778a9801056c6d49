/**
 * `handlers.savedCards()`: the payer's own page lists their saved cards, removes one, or makes one the
 * default. Whose cards they are comes from the merchant's session (`payerOf(request)`), never from the
 * page; every card id the page sends is acted on only when it is one of that payer's cards.
 */
import { detectBrand } from '../../card';
import type { SavedCardsAnswer, SavedCardView } from '../../protocol/wire';
import type { SavedCard } from '../../schemas';
import { configError, PayframeError } from '../../shared/errors';
import type { ServiceCalls } from '../calls/calls';
import { guarded, type Handler, jsonResponse, methodNotAllowed, readJson } from './respond';
import { checked } from '../calls/transport';
import { SavedCardActionSchema } from '../wire';

export interface SavedCardsOptions {
  /**
   * The vault payer id of the shopper behind `request`, from your own session (their sign-in cookie,
   * say), never from the page's body: `undefined` (or `null`) when they have no saved card yet (a GET
   * then answers no cards, a POST `not_found`). Throw `PayframeError('unauthorized')` when nobody is signed in.
   */
  payerOf: (request: Request) => string | null | undefined | Promise<string | null | undefined>;
}

/** What the page may show of a saved card: never its BIN, payer id or holder's name. */
export function savedCardView(card: SavedCard): SavedCardView {
  return {
    id: card.id,
    brand: detectBrand(card.bin)?.id ?? 'unknown',
    last4: card.last4,
    expireMonth: card.expire_month,
    expireYear: card.expire_year,
    isDefault: card.is_default === true,
  };
}

/** Errors after which a change of the payer's cards may have been made: read again before answering. */
const LOST = new Set(['network', 'timeout', 'server_error', 'invalid_response', 'outcome_unknown']);

export function savedCardsHandler(
  gateway: ServiceCalls,
  { payerOf }: SavedCardsOptions,
  report: (status: number, error: unknown) => void,
): Handler {
  const payerIdOf = async (request: Request): Promise<string | undefined> => {
    const payerId = await payerOf(request);
    if (payerId === undefined || payerId === null) return undefined;
    if (typeof payerId !== 'string' || payerId === '') throw configError('payerOf must answer a payer id, or undefined', 'savedCards');
    return payerId;
  };
  const list = async (payerId: string | undefined): Promise<Response> => {
    const cards = payerId === undefined ? [] : (await gateway.payers.cards(payerId)).credit_cards;
    // The default first, whatever order the service lists them in.
    const views = cards.map(savedCardView).sort((a, b) => Number(b.isDefault) - Number(a.isDefault));
    return jsonResponse(200, { cards: views } satisfies SavedCardsAnswer);
  };
  const get = guarded('GET', async (request) => list(await payerIdOf(request)), report);
  const post = guarded(
    'POST',
    async (request) => {
      const payerId = await payerIdOf(request);
      const { action, cardId } = checked(SavedCardActionSchema, await readJson(request));
      // Another payer's card, a removed one, an unknown one: one answer, and nothing is sent to change it.
      const own = payerId !== undefined && (await gateway.payers.cards(payerId)).credit_cards.some((card) => card.id === cardId);
      if (!own) throw new PayframeError('not_found', 'no such card among yours');
      const change = action === 'remove' ? gateway.payers.removeCard(payerId!, cardId) : gateway.payers.setDefaultCard(payerId!, cardId);
      await change.catch(async (error: unknown) => {
        // Its answer lost: the service may have made the change. The payer's cards say whether it did.
        if (!(error instanceof PayframeError && LOST.has(error.code))) throw error;
        const cards = await gateway.payers.cards(payerId!).catch(() => undefined);
        const card = cards?.credit_cards.find((c) => c.id === cardId);
        const done = cards !== undefined && (action === 'remove' ? card === undefined : card?.is_default === true);
        if (!done) throw error;
      });
      return list(payerId);
    },
    report,
  );
  if (typeof payerOf !== 'function') throw configError('payerOf must be a function (request) => payer id', 'savedCards');
  return async (request) => {
    if (request.method === 'GET') return get(request);
    if (request.method === 'POST') return post(request);
    return methodNotAllowed('GET, POST');
  };
}
