import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { Toaster } from 'sonner';
import { TOAST_DURATION_MS, TOAST_VISIBLE } from '@shared/constants';
import { App } from './App';
import { initRealtime } from './socket';
import { unlockAudioOnFirstGesture } from './sound';
import './index.css';

initRealtime();
unlockAudioOnFirstGesture();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <BrowserRouter>
      <App />
    </BrowserRouter>
    {/* SPEC §9: bottom-right, 4 s, at most 3 visible. */}
    <Toaster
      position="bottom-right"
      duration={TOAST_DURATION_MS}
      visibleToasts={TOAST_VISIBLE}
      richColors
      closeButton
    />
  </StrictMode>,
);
