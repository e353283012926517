/**
 * `cdktf.json` is what `cdktf synth` reads: its app command must synthesize the basic example, and
 * its provider constraint must name the provider the bindings were generated for.
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PROVIDER_SOURCE_ADDRESS } from '../../src/provider';
import { REPO_ROOT } from './helpers';

const exec = promisify(execFile);

interface CdktfJson {
  language: string;
  app: string;
  output: string;
  codeMakerOutput: string;
  terraformProviders: string[];
}

const config = JSON.parse(readFileSync(join(REPO_ROOT, 'cdktf.json'), 'utf8')) as CdktfJson;

describe('cdktf.json', () => {
  it('declares a TypeScript app and the orgadmin provider at ~> 0.1 by its full source address', () => {
    expect(config.language).toBe('typescript');
    expect(config.terraformProviders).toEqual([`${PROVIDER_SOURCE_ADDRESS}@~> 0.1`]);
    expect(existsSync(join(REPO_ROOT, config.codeMakerOutput, 'index.ts'))).toBe(true);
  });

  it('runs an app command that synthesizes examples/basic, as cdktf synth would', async () => {
    const outdir = await mkdtemp(join(tmpdir(), 'orgadmin-cdktf-json-'));
    try {
      // cdktf synth runs the app through a shell in the project directory, with CDKTF_OUTDIR set.
      await exec('/bin/sh', ['-c', config.app], { cwd: REPO_ROOT, env: { ...process.env, CDKTF_OUTDIR: outdir }, timeout: 60_000 });
      const synthesized = JSON.parse(await readFile(join(outdir, 'stacks', 'basic', 'cdk.tf.json'), 'utf8')) as {
        terraform: { required_providers: { orgadmin: { source: string } } };
        resource: Record<string, Record<string, unknown>>;
      };
      expect(synthesized.terraform.required_providers.orgadmin.source).toBe(PROVIDER_SOURCE_ADDRESS);
      expect(Object.keys(synthesized.resource.orgadmin_organization ?? {})).toEqual(['acme', 'globex']);
    } finally {
      await rm(outdir, { recursive: true, force: true });
    }
  });
});
