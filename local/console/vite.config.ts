/**
 * The web console's build (`npm run console:build`): plain TypeScript and DOM, uPlot for charts,
 * @tickfeed/client for the API. Served by the local HTTP API under /console (local/console-site.ts).
 */
import { defineConfig } from 'vite';

export default defineConfig({
  root: import.meta.dirname,
  base: '/console/',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // The console is a local tool: no source maps to serve, small enough not to split.
    sourcemap: false,
    target: 'es2022',
  },
  logLevel: 'warn',
});
