// The page's script: records what a person would not see but a test must (unhandled rejections, every
// frame added), then hydrates the server's markup.
import { hydrateRoot } from 'react-dom/client';
import { StrictMode } from 'react';
import { App, type AppProps } from './app';

const page = window as unknown as { rejections: string[]; framesAdded: number };
page.rejections = [];
page.framesAdded = 0;
addEventListener('unhandledrejection', (event) => page.rejections.push(String(event.reason)));
// Every frame ever put on the page, the frames of forms destroyed since included.
new MutationObserver((records) => {
  for (const record of records) for (const node of record.addedNodes) if (node.nodeName === 'IFRAME') page.framesAdded++;
}).observe(document, { childList: true, subtree: true });
const root = document.getElementById('root')!;
const props = JSON.parse(root.dataset['props']!) as AppProps;
// <StrictMode> at the root: React 19 double-invokes the effects of a newly placed fiber only inside it.
hydrateRoot(
  root,
  <StrictMode>
    <App {...props} />
  </StrictMode>,
);
