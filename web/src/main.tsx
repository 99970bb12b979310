import './lib/zod-jitless';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App, startApp } from './app';
import './index.css';

const root = document.getElementById('root');
if (!root) throw new Error('The #root element is missing from index.html');

const app = startApp();
// The router starts (it asks for the screen's modules) and React renders in a task after the one that ran
// the app's script and sent the first reads: in one, they were one task of 200 ms on a phone (Lighthouse's 4×
// CPU), most of the dashboard's blocking time. The first render in a transition: React renders it in slices
// that yield to the browser, not as one task.
setTimeout(() => {
  const started = app.start();
  startTransition(() => {
    createRoot(root).render(
      <StrictMode>
        <App {...started} />
      </StrictMode>,
    );
  });
}, 0);
