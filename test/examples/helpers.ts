/**
 * Helpers for the example tests: synthesize an example the way a user does (`node` on its
 * `main.ts` through the examples' TypeScript loader) and run terraform in the synthesized stack.
 */
import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { runTerraform, terraformEnv, type TerraformResult } from '../e2e/helpers/terraform';

/** The repository root. */
export const REPO_ROOT = resolve(__dirname, '..', '..');

/** The output of a node process. */
export interface ProcessResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `node --require examples/register.js <script> ...args`; never throws for a non-zero exit. */
export function runExampleScript(script: string, args: readonly string[], env: NodeJS.ProcessEnv, timeoutMs = 60_000): Promise<ProcessResult> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, ['--require', join(REPO_ROOT, 'examples', 'register.js'), join(REPO_ROOT, script), ...args], {
      cwd: REPO_ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolvePromise({ code: code ?? -1, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') });
    });
  });
}

/** Synthesizes an example's `main.ts` into `outdir` and returns the stack directory. */
export async function synthExample(example: string, stack: string, outdir: string, env: Record<string, string> = {}): Promise<string> {
  const result = await runExampleScript(`examples/${example}/main.ts`, [], { ...terraformEnv(env), CDKTF_OUTDIR: outdir });
  if (result.code !== 0) throw new Error(`synth of examples/${example} exited ${result.code}\n${result.stderr}`);
  return join(outdir, 'stacks', stack);
}

/** Terraform in a synthesized stack directory, with a fixed environment. */
export class StackDir {
  constructor(
    readonly dir: string,
    readonly env: NodeJS.ProcessEnv,
  ) {}

  /** Runs `terraform <command> -no-color ...rest`. */
  run(command: string, ...rest: string[]): Promise<TerraformResult> {
    return runTerraform(this.dir, [command, '-no-color', ...rest], this.env);
  }

  /** Runs a command and throws with terraform's output unless it exits 0. */
  async ok(command: string, ...rest: string[]): Promise<TerraformResult> {
    const result = await this.run(command, ...rest);
    if (result.code !== 0) throw new Error(`terraform ${command} exited ${result.code}\n${result.stdout}\n${result.stderr}`);
    return result;
  }

  /** `terraform plan -detailed-exitcode`: 0 no changes, 2 changes, 1 error. */
  plan(...rest: string[]): Promise<TerraformResult> {
    return this.run('plan', '-detailed-exitcode', '-input=false', ...rest);
  }
}
