// The test merchant's page for a saved card: the CVV-only hosted form, whose frame posts the CVV to
// this merchant's own route. The page's script hands over the saved card's id, never sees the CVV.
(() => {
  const query = new URLSearchParams(location.search);
  const client = Payframe.createClient({
    merchantId: query.get('merchant'),
    baseUrl: query.get('gateway'),
    authorization: () => fetch('/client-token', { method: 'POST' }).then((r) => r.json()),
  });
  const brand = query.get('brand') || undefined;
  if (query.has('label')) document.getElementById('cvv-label').textContent = query.get('label');
  const frameUrl = query.get('frameUrl') || undefined;
  const form = (window.form = Payframe.mountFields({ client, fields: { cvv: { container: '#saved-cvv' } }, brand, frameUrl }));
  const status = document.getElementById('status');
  form.on('error', (error) => (status.textContent = `${error.code}: ${error.message}`));
  document.getElementById('pay').addEventListener('submit', async (event) => {
    event.preventDefault();
    status.textContent = 'Paying…';
    try {
      const paid = await form.postCvv({ url: '/pay/saved-card', body: { savedCardId: query.get('card') } });
      status.textContent = `Paid: ${paid.state}`;
    } catch (error) {
      status.textContent = `${error.code}: ${error.fields ? error.fields.join(', ') : error.message}`;
    }
  });
})();
