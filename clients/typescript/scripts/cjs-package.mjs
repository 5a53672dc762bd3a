// dist/cjs is CommonJS inside a package whose "type" is "module": a package.json there says so,
// so Node's require() reads those files as CommonJS.
import { writeFileSync } from "node:fs";
writeFileSync(new URL("../dist/cjs/package.json", import.meta.url), '{ "type": "commonjs" }\n');
