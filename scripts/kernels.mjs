// Compiles the WebAssembly kernels (src/math/sparse/wasm/*.wat) with wabt and writes their bytes,
// base64, into src/math/sparse/wasm/kernels.ts. Run after editing a .wat file: `npm run kernels`.
// test/math/sparse/wasm.test.ts fails when the embedded bytes are not the compilation of the sources.
import { readFileSync, writeFileSync, renameSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import wabtInit from 'wabt';

const dir = join(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'math', 'sparse', 'wasm');

/** the module bytes of one .wat source */
export async function compileWat(file) {
  const wabt = await wabtInit();
  const mod = wabt.parseWat(file, readFileSync(join(dir, file), 'utf8'));
  mod.validate();
  const { buffer } = mod.toBinary({ log: false, write_debug_names: false });
  mod.destroy();
  return Buffer.from(buffer);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const sources = [
    ['supernodal.wat', 'SUPERNODAL_WASM', 'the supernodal LDLᵀ factorization and solve'],
    ['blockrows.wat', 'BLOCKROWS_WASM', 'G u over the kept constraint Jacobian blocks'],
  ];
  let text = `/**
 * The WebAssembly kernels, compiled from the .wat sources next to this file by \`npm run kernels\`
 * (scripts/kernels.mjs). Generated: do not edit; test/math/sparse/wasm.test.ts checks that these
 * bytes are the compilation of the sources.
 */
`;
  for (const [file, name, what] of sources) {
    const bytes = await compileWat(file);
    text += `\n/** ${file}: ${what} (${bytes.length} bytes) */\nexport const ${name} = '${bytes.toString('base64')}';\n`;
    console.log(`${file}: ${bytes.length} bytes`);
  }
  const out = join(dir, 'kernels.ts');
  writeFileSync(out + '.tmp', text);
  renameSync(out + '.tmp', out);
  console.log(`wrote ${out}`);
}
