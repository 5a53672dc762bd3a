// Builds console/dist, the files the pixgate binary embeds (host/src/http/console.rs).
// Deterministic: the same sources and lock file give the same bytes, which
// .ci/console-bundle.sh checks against the committed dist.
import { build } from 'esbuild';
import { copyFile, mkdir, rm } from 'node:fs/promises';

const dist = new URL('./dist/', import.meta.url);
await rm(dist, { recursive: true, force: true });
await mkdir(dist, { recursive: true });

const common = {
  bundle: true,
  minify: true,
  format: 'iife',
  target: ['es2020'],
  legalComments: 'eof',
  charset: 'utf8',
  logLevel: 'warning',
};

// The console: one script and one stylesheet (uPlot's CSS comes in through its import).
await build({
  ...common,
  entryPoints: { console: 'src/main.js' },
  outdir: 'dist',
});
// The API reference's own start-up script; Swagger UI itself is copied as published.
await build({
  ...common,
  entryPoints: { docs: 'src/docs.js' },
  outdir: 'dist',
});

const copies = [
  ['src/index.html', 'index.html'],
  ['src/docs.html', 'docs.html'],
  ['src/favicon.svg', 'favicon.svg'],
  ['node_modules/swagger-ui-dist/swagger-ui-bundle.js', 'swagger-ui-bundle.js'],
  ['node_modules/swagger-ui-dist/swagger-ui.css', 'swagger-ui.css'],
];
for (const [from, to] of copies) {
  await copyFile(new URL(from, import.meta.url), new URL(to, dist));
}
