/**
 * Keeps the provider's WebAssembly on V8's baseline compiler (Liftoff).
 *
 * Why: the SDK's HTTP client (undici) parses HTTP/1.1 with llhttp compiled to WebAssembly. By
 * default V8 compiles it with Liftoff and then re-compiles its hot functions with TurboFan on
 * background threads. For llhttp's parser that optimisation is expensive: measured on a small plan
 * (10 organizations, 100 memberships), the configured provider process peaked at 108–111 MiB and
 * used 1.1–1.2 s of CPU with it, 79 MiB and 0.8–0.9 s without. A provider sends a few hundred
 * small requests per Terraform command, where Liftoff's code is fast enough: the optimised code
 * would never pay for itself.
 *
 * Set by the provider when it builds its own HTTP client (at ConfigureProvider), not on the
 * launcher's `#!` line: the self-contained executable takes no Node.js flags, and loading
 * `node:v8` costs start-up time that the schema and validation starts (which never connect) would
 * pay for nothing. It runs before the first WebAssembly module is compiled, which undici does on
 * its first connection.
 */
/** The V8 flag that keeps WebAssembly on the baseline compiler. */
export const WASM_BASELINE_ONLY_FLAG = '--liftoff-only';

/** Turns off WebAssembly's optimising tier for this process (see the module comment). */
export function keepWasmOnBaselineCompiler(): void {
  // Required here, not imported: see the module comment.
  const { setFlagsFromString } = require('node:v8') as typeof import('node:v8');
  setFlagsFromString(WASM_BASELINE_ONLY_FLAG);
}
