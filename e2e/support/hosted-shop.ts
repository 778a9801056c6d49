// A merchant's checkout on the service's hosted payment page, as a merchant would write it with
// payframe/server: no script and no card on its pages, a "Pay on the bank's page" button that posts to
// handlers.hostedPage, the return page of handlers.hostedReturn, and the notification route, all three
// settling one book of orders through the same onPayment.
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { SandboxHandle } from '../../src/sandbox';
import { createGateway, type Handler, type HostedSettlement, type Payment, toNodeListener } from '../../src/server';
import { startSandbox, trustedTls } from './tls';

export const NOTIFY_AUTH = 'Bearer hosted-shop-notify';

const page = (title: string, body: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title></head><body><main><h1>${title}</h1>${body}</main></body></html>`;

const CHECKOUT = page(
  'Checkout',
  `<p>Total: 19.900 OMR</p>
<form method="post" action="/checkout/hosted"><button type="submit">Pay on the bank's page</button></form>`,
);

const SAID: Record<HostedSettlement['status'], string> = {
  approved: 'Thank you: your order is paid.',
  declined: 'The payment was declined: nothing was charged.',
  pending: 'We are waiting for your bank.',
  open: 'You have not paid yet.',
  expired: 'The payment page expired: nothing was charged.',
};

export interface HostedShop {
  url: string;
  sandbox: SandboxHandle;
  /** The shop's orders by invoice number: what `onPayment` set last (a payment's state), or 'sent to the page'. */
  orders: Map<string, string>;
  close(): Promise<void>;
}

export async function startHostedShop(): Promise<HostedShop> {
  const orders = new Map<string, string>();
  let url = '';
  let routes: Record<string, Handler> = {};
  const server: Server = createServer(trustedTls(), (req, res) => {
    const path = new URL(req.url ?? '/', 'https://localhost').pathname;
    const route = routes[`${req.method} ${path}`];
    if (route) return toNodeListener(route)(req, res);
    if (req.method === 'GET' && path === '/') {
      return res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': "default-src 'none'" })
        .end(CHECKOUT);
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, 'localhost', resolve));
  url = `https://localhost:${(server.address() as AddressInfo).port}`;
  const sandbox = await startSandbox({ notifyUrl: `${url}/notify`, notifyAuthorization: NOTIFY_AUTH });
  const { id, clientId, clientSecret } = sandbox.merchant;
  const gateway = createGateway({ merchantId: id, clientId, clientSecret, baseUrl: sandbox.url });
  const onPayment = (payment: Payment) => void orders.set(String(payment.transaction?.invoice_number), payment.state);
  let n = 0;
  routes = {
    'POST /checkout/hosted': gateway.handlers.hostedPage({
      order: () => ({
        intent: 'sale',
        amount: { currency: 'OMR', total: '19.900' },
        invoiceNumber: `ORDER-${Date.now()}-${++n}`,
        returnUrl: `${url}/checkout/return`,
      }),
      onSession: ({ invoiceNumber }) => void orders.set(invoiceNumber, 'sent to the page'),
    }),
    'GET /checkout/return': gateway.handlers.hostedReturn({
      onPayment,
      render: (settlement) =>
        new Response(page('Your order', `<p role="status" data-status="${settlement.status}">${SAID[settlement.status]}</p>`), {
          headers: { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': "default-src 'none'" },
        }),
    }),
    'POST /notify': gateway.handlers.notification({ authorization: NOTIFY_AUTH, onPayment }),
  };
  return {
    url,
    sandbox,
    orders,
    close: async () => {
      await sandbox.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
