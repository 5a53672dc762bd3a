// Builds this directory's step into a WebAssembly component: `npm run build`.
//
// `node build.mjs [--step policy|provider|economics] [--source FILE] [--out FILE] [--wit DIR]`
// overrides what package.json's `pixgate` field and name say (the repository's CI builds its
// samples this way). The engine inside (StarlingMonkey) is pre-initialised with your module
// already evaluated, so a call starts with your code loaded.
//
// The build ends with `pixgate policy seal` (the `pixgate` on your PATH, or the one `$PIXGATE`
// names): the engine's libc imports WASI files, which pixgate refuses at upload, and sealing
// answers them inside the component with none. `--no-seal` leaves the engine's output as it is.
import { componentize } from '@bytecodealliance/componentize-js';
import { spawnSync } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';

const WORLDS = { policy: 'policy-step', provider: 'provider-step', economics: 'economics-step' };

const pkg = JSON.parse(await readFile(new URL('./package.json', import.meta.url), 'utf8'));
const { values } = parseArgs({
  options: {
    step: { type: 'string' },
    source: { type: 'string' },
    out: { type: 'string' },
    wit: { type: 'string' },
    'no-seal': { type: 'boolean' },
  },
});
const step = values.step ?? pkg.pixgate?.step;
const world = WORLDS[step];
if (!world) {
  console.error(`unknown step \`${step}\`: policy, provider or economics`);
  process.exit(2);
}
const source = values.source ?? `src/${step}.js`;
const out = values.out ?? `dist/${pkg.name}.wasm`;

const started = performance.now();
const { component } = await componentize({
  sourcePath: source,
  witPath: values.wit ?? 'wit',
  worldName: world,
  // With these on, the engine imports wasi:http (for fetch), and pixgate refuses a component
  // that reaches for the network. A step has nothing to fetch: everything is in its input.
  disableFeatures: ['http', 'fetch-event'],
});
await mkdir(dirname(out), { recursive: true });
await writeFile(out, component);
const seconds = ((performance.now() - started) / 1000).toFixed(1);
const mb = (component.length / 1e6).toFixed(1);
console.log(`built ${out} (${world}, ${mb} MB) from ${source} in ${seconds} s`);

if (!values['no-seal']) {
  const pixgate = process.env.PIXGATE || 'pixgate';
  const sealed = spawnSync(pixgate, ['policy', 'seal', out], { stdio: 'inherit' });
  if (sealed.error) {
    console.error(
      `could not run \`${pixgate} policy seal ${out}\` (${sealed.error.code ?? sealed.error.message}): ` +
        'put pixgate on your PATH or name it in $PIXGATE; pixgate refuses an unsealed upload',
    );
    process.exit(1);
  }
  if (sealed.status !== 0) process.exit(sealed.status ?? 1);
}
