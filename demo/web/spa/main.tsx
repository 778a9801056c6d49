// The React checkout: an ES module app that imports payframe, mounted in <StrictMode> (which mounts,
// unmounts and mounts again every effect in development: the hosted form must survive it).
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';

const root = document.getElementById('root');
if (root)
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
