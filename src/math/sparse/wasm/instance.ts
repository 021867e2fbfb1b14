/**
 * Instantiating the WebAssembly kernels of ./kernels.ts: each instance gets a memory of its own,
 * sized for the arrays its owner lays out in it (f64 arrays first, then i32 ones, every start
 * 8-byte aligned). Compilation or memory can be refused (no address space left, a browser's
 * policy); the owners then run their JavaScript versions.
 */

/** bytes of a base64 string (atob: Node ≥ 16 and browsers) */
function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  const bin = atob(text), out = new Uint8Array(new ArrayBuffer(bin.length));
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** byte offsets of arrays with these element counts, the first `nF64` of them f64 (8 bytes), the rest i32 */
export function kernelLayout(lengths: readonly number[], nF64: number): { offsets: Int32Array; bytes: number } {
  const offsets = new Int32Array(lengths.length);
  let bytes = 0;
  for (let i = 0; i < lengths.length; i++) { offsets[i] = bytes; bytes += 8 * Math.ceil(((i < nF64 ? 8 : 4) * lengths[i]!) / 8); }
  return { offsets, bytes };
}

/**
 * The module of `base64` instantiated on a new memory of at least `bytes`, with its exports
 * `names` checked to be functions; null when WebAssembly is missing or refuses
 */
export function instantiateKernels(base64: string, bytes: number, names: readonly string[]): { exports: WebAssembly.Exports; memory: ArrayBuffer } | null {
  if (typeof WebAssembly !== 'object' || bytes > 2 ** 31 - 65536) return null;
  let mem: WebAssembly.Memory, instance: WebAssembly.Instance;
  try {
    mem = new WebAssembly.Memory({ initial: Math.max(1, Math.ceil(bytes / 65536)) });
    instance = new WebAssembly.Instance(new WebAssembly.Module(fromBase64(base64)), { env: { mem } });
  } catch {
    return null;
  }
  for (const n of names) if (typeof instance.exports[n] !== 'function') throw new Error(`WebAssembly kernels: the module lacks ${n} (run npm run kernels)`);
  return { exports: instance.exports, memory: mem.buffer };
}
