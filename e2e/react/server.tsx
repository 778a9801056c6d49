// The server's render of the checkout (react-dom/server), bundled for Node with the React of the run.
import { renderToString } from 'react-dom/server';
import { StrictMode } from 'react';
import { App, type AppProps } from './app';

export const render = (props: AppProps): string =>
  renderToString(
    <StrictMode>
      <App {...props} />
    </StrictMode>,
  );
