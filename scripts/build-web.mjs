// Builds the web client (web/) into dist/web: one bundled script, its stylesheet and the page.
// Everything comes from this repository and npm; the page loads nothing from another host.
import { copyFile, mkdir } from 'node:fs/promises';
import { build } from 'esbuild';

const out = 'dist/web';
await mkdir(out, { recursive: true });
await build({
  entryPoints: { app: 'web/src/main.ts' },
  bundle: true,
  format: 'esm',
  target: 'es2022',
  platform: 'browser',
  minify: true,
  sourcemap: true,
  tsconfig: 'web/tsconfig.json',
  outdir: out,
  logLevel: 'warning',
});
await copyFile('web/index.html', `${out}/index.html`);
await copyFile('web/styles.css', `${out}/styles.css`);
