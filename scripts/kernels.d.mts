/** the module bytes of one .wat source in src/math/sparse/wasm (scripts/kernels.mjs) */
export function compileWat(file: string): Promise<Uint8Array>;
