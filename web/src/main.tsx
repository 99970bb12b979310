import './lib/zod-jitless';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App, startApp } from './app';
import './index.css';

const root = document.getElementById('root');
if (!root) throw new Error('The #root element is missing from index.html');

const app = startApp();
// The first render in a transition: React renders it in slices that yield to the browser, not as one task.
startTransition(() => {
  createRoot(root).render(
    <StrictMode>
      <App {...app} />
    </StrictMode>,
  );
});
