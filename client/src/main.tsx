import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { App } from './App';
import { AppToaster } from './components/AppToaster';
import { initRealtime } from './socket';
import { unlockAudioOnFirstGesture } from './sound';
import { registerServiceWorker } from './pwa/register';
import { initOutbox } from './stores/outbox';
import './index.css';

initRealtime();
unlockAudioOnFirstGesture();
registerServiceWorker();
initOutbox();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <BrowserRouter>
      <App />
    </BrowserRouter>
    <AppToaster />
  </StrictMode>,
);
