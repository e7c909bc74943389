import { configureApi } from '@gatehouse/client';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app.js';
import './styles.css';

// The admin group keeps its data under `/api/admin/...`; sessions without a group are unaffected.
configureApi({ baseURL: '/api', routeGroupInDataPath: true });

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
