/**
 * The packed package beside each toolkit's newest release, resolved fresh (an empty app, no lock
 * file), as `cdktf init` and `cdktn init` projects install them: `cdktf`, `cdktf-cli` and
 * `constructs@^10.4.2`, or `cdktn`, `cdktn-cli` and `constructs@^10.4.2`. npm must resolve the
 * packages' peer declarations with whatever those newest versions are (a peer declaration that
 * excluded the newest `constructs` failed the cdktf set with ERESOLVE, though orgadmin does not need
 * cdktn there). `npm install --dry-run` builds the whole tree, which is where ERESOLVE is raised.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { npmChildEnv } from '../helpers/npm-env';
import { emptyApp, npmInstall, packPackages, runOk, type PackedPackages } from '../helpers/packed-package';

jest.setTimeout(300_000);

/** The newest published version of `name`, asked of the registry. */
async function newest(name: string): Promise<string> {
  const { stdout } = await runOk('npm', ['view', name, 'version', '--prefer-online'], { cwd: tmpdir(), env: npmChildEnv() });
  return stdout.trim();
}

describe.each([
  { toolkit: 'cdktf', cli: 'cdktf-cli' },
  { toolkit: 'cdktn', cli: 'cdktn-cli' },
])('orgadmin in a fresh $toolkit app', ({ toolkit, cli }) => {
  let work: string;
  let packed: PackedPackages;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), `orgadmin-peers-${toolkit}-`));
    packed = await packPackages(join(work, 'packs'));
  });

  afterAll(async () => {
    if (work) await rm(work, { recursive: true, force: true });
  });

  it(`resolves with the newest ${toolkit} and ${cli}, constructs@^10.4.2 and the service package`, async () => {
    const versions = { toolkit: await newest(toolkit), cli: await newest(cli) };
    const app = await emptyApp(work, `${toolkit}-app`);
    const { stdout, stderr } = await npmInstall(app, [
      '--dry-run',
      '--prefer-online',
      packed.orgadmin,
      packed.service,
      `${toolkit}@${versions.toolkit}`,
      `${cli}@${versions.cli}`,
      'constructs@^10.4.2',
    ]);
    expect(stderr).not.toMatch(/ERESOLVE|peer dep/i);
    // The dry run lists what it would add: the toolkit at its newest version, and a constructs.
    expect(stdout).toContain(`add ${toolkit} ${versions.toolkit}`);
    expect(stdout).toMatch(/^add constructs 10\.\d+\.\d+$/m);
  });
});
