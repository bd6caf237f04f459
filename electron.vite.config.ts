import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig, externalizeDepsPlugin } from 'electron-vite';
import pkg from './package.json';

// electron-vite reads the Electron major from node_modules/electron/package.json;
// the declared range names the same major, so a broken or partial install of the
// electron package never stops the build (the build never needs the binary).
process.env.ELECTRON_MAJOR_VER ??= pkg.devDependencies.electron.replace(/^\D*/, '').split('.')[0];

// One build for the three Electron targets plus the headless CLI (out/main/cli.js) and the
// model thread's entry (out/main/llmThread.js), the audit writer's (out/main/ledgerWriter.js)
// and the BPE counter's (out/main/bpeCounter.js), which both main entries start.
// Node 20 is the floor (the CLI runs on the user's Node); Electron embeds Node 22.
export default defineConfig({
  main: {
    plugins: [externalizeDepsPlugin()],
    build: {
      target: 'node20',
      outDir: 'out/main',
      rollupOptions: {
        input: {
          index: resolve(__dirname, 'src-main/electron/main.ts'),
          cli: resolve(__dirname, 'src-main/cli/index.ts'),
          // The model thread (core/llm/thread): provider streams off the main thread.
          llmThread: resolve(__dirname, 'src-main/core/llm/thread/entry.ts'),
          // The audit writer (core/ledger/auditWriter): a cell's host-call rows committed off the main thread.
          ledgerWriter: resolve(__dirname, 'src-main/core/ledger/auditWriter/entry.ts'),
          // The BPE token counter (core/archive/bpeThread): its tables load off the main thread.
          bpeCounter: resolve(__dirname, 'src-main/core/archive/bpeThread/entry.ts'),
        },
      },
    },
  },
  preload: {
    plugins: [externalizeDepsPlugin()],
    build: {
      target: 'node20',
      outDir: 'out/preload',
      rollupOptions: { input: { index: resolve(__dirname, 'src-preload/index.ts') } },
    },
  },
  renderer: {
    root: 'src-renderer',
    plugins: [react()],
    build: {
      target: 'chrome120',
      minify: true,
      outDir: resolve(__dirname, 'out/renderer'),
      rollupOptions: { input: { index: resolve(__dirname, 'src-renderer/index.html') } },
    },
  },
});
