/**
 * Test helper: the demo provider (fixtures/) bundled with the project's build script into a
 * filesystem mirror, and a terraform working directory that installs it from there. One per test
 * file; its commands run with a clean environment (no TF_* of the machine, checkpoint off).
 */
import { execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const TERRAFORM = process.env.TERRAFORM_BIN ?? '/usr/local/bin/terraform';
const REPO = resolve(__dirname, '../../../..');

/** What one terraform command did. */
export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** The `terraform` and `provider "demo"` blocks every demo configuration starts with. */
export function demoPreamble(storePath: string): string {
  return `terraform {
  required_providers {
    demo = { source = "example/demo", version = "1.0.0" }
  }
}

provider "demo" {
  store_path = ${JSON.stringify(storePath)}
}
`;
}

/** A mirror with the bundled demo provider and one working directory using it. */
export class DemoTerraform {
  private constructor(
    /** Temporary root holding everything below. */
    readonly root: string,
    /** The working directory. */
    readonly workDir: string,
    /** The demo provider's store file. */
    readonly storePath: string,
    /** The mirror directory (provider processes have it in their command line). */
    readonly mirror: string,
    private readonly extraEnv: Record<string, string>,
  ) {}

  /** Builds the demo provider into a fresh mirror; `extraEnv` goes to every terraform command. */
  static async create(prefix: string, extraEnv: Record<string, string> = {}): Promise<DemoTerraform> {
    const root = mkdtempSync(join(tmpdir(), prefix));
    const demo = new DemoTerraform(root, join(root, 'work'), join(root, 'store.json'), join(root, 'mirror'), extraEnv);
    mkdirSync(demo.workDir);
    mkdirSync(join(root, 'tmp'));
    const platformDir = join(demo.mirror, 'registry.terraform.io/example/demo/1.0.0/linux_amd64');
    mkdirSync(platformDir, { recursive: true });
    await new Promise<void>((done, fail) =>
      execFile(
        process.execPath,
        [join(REPO, 'scripts/build-provider.mjs'), resolve(__dirname, '../fixtures/demo-main.ts'), '--out', join(platformDir, 'terraform-provider-demo_v1.0.0')],
        (error, _stdout, stderr) => (error ? fail(new Error(`build failed: ${stderr}`)) : done()),
      ),
    );
    writeFileSync(
      join(root, 'cli.tfrc'),
      `provider_installation {
  filesystem_mirror {
    path    = ${JSON.stringify(demo.mirror)}
    include = ["registry.terraform.io/example/*"]
  }
  direct {
    exclude = ["registry.terraform.io/example/*"]
  }
}
`,
    );
    return demo;
  }

  /** Writes main.tf: the preamble, then `body`. */
  writeConfig(body: string): void {
    writeFileSync(join(this.workDir, 'main.tf'), `${demoPreamble(this.storePath)}\n${body}`);
  }

  /** Runs `terraform ...args` in the working directory. */
  run(args: string[]): Promise<RunResult> {
    return new Promise((done, fail) => {
      const child = spawn(TERRAFORM, args, {
        cwd: this.workDir,
        env: {
          PATH: process.env.PATH,
          HOME: this.root,
          CHECKPOINT_DISABLE: '1',
          TF_IN_AUTOMATION: '1',
          TF_CLI_CONFIG_FILE: join(this.root, 'cli.tfrc'),
          TMPDIR: join(this.root, 'tmp'), // where the providers put their sockets
          ...this.extraEnv,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk) => (stdout += chunk));
      child.stderr.on('data', (chunk) => (stderr += chunk));
      child.on('error', fail);
      child.on('close', (code) => done({ code: code ?? -1, stdout, stderr }));
    });
  }

  /** Runs a command that must succeed; throws with its output otherwise. */
  async succeed(args: string[]): Promise<RunResult> {
    const result = await this.run(args);
    if (result.code !== 0) throw new Error(`terraform ${args.join(' ')} exited ${result.code}:\n${result.stdout}\n${result.stderr}`);
    return result;
  }

  /** Process ids whose command line mentions the mirror (the provider executables). */
  providerProcesses(): string[] {
    const found: string[] = [];
    for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
      try {
        if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(this.mirror)) found.push(pid);
      } catch {
        // the process ended meanwhile
      }
    }
    return found;
  }

  /** Removes everything. */
  cleanup(): void {
    rmSync(this.root, { recursive: true, force: true });
  }
}
