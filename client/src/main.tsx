import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { APP_SUBTITLE, APP_TITLE } from '@shared/labels';
import './index.css';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <main className="grid min-h-screen place-items-center bg-slate-900 text-white">
      <div className="text-center">
        <h1 className="text-3xl font-bold">{APP_TITLE}</h1>
        <p className="text-slate-300">{APP_SUBTITLE}</p>
      </div>
    </main>
  </StrictMode>,
);
