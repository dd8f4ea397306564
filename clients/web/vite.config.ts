// Builds the single-page client into dist/, which the web port serves (services/web/site.py).
import { defineConfig } from "vite";

export default defineConfig({
  esbuild: { jsx: "automatic", jsxImportSource: "preact" },
  build: { outDir: "dist", emptyOutDir: true, sourcemap: true, target: "es2022", chunkSizeWarningLimit: 1500 },
  server: {
    // `npx vite` during development: RPCs go to the web port of a running `make run`.
    proxy: { "^/sizzle\\.": { target: "http://127.0.0.1:8080", changeOrigin: false } },
  },
});
