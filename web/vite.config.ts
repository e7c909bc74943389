import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defaultClientConditions, defineConfig, type Plugin } from 'vite';

// Importing the client's entry installs its platform. Its package.json names the built entries
// as side effects, not these sources, so without this the build would drop the install.
const CLIENT_ENTRIES = ['index.ts', 'native.ts'].map((entry) => fileURLToPath(new URL(`../client/${entry}`, import.meta.url)));
const clientEntries: Plugin = {
  name: 'gatehouse-client-entries',
  transform: (code, id) => (CLIENT_ENTRIES.includes(id) ? { code, moduleSideEffects: true } : null),
};

// The demo app runs on the workspace's own @gatehouse/client, read from its sources (the
// `gatehouse-source` export condition) so nothing needs building first.
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react(), clientEntries],
  resolve: { conditions: ['gatehouse-source', ...defaultClientConditions] },
  build: { outDir: 'dist', emptyOutDir: true },
  server: { proxy: { '/api': 'http://localhost:3000' } },
});
