import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runProcess } from '../../src/cli/process-runner';

/** Runs a one-line Node script as the child (a real process, no shell). */
const node = (script: string, options: Parameters<typeof runProcess>[2] = {}): ReturnType<typeof runProcess> =>
  runProcess(process.execPath, ['-e', script], options);

describe('runProcess', () => {
  it('collects standard output and standard error of a process that succeeds', async () => {
    const result = await node('process.stdout.write("out"); process.stderr.write("err")');
    expect(result).toMatchObject({ code: 0, stdout: 'out', stderr: 'err', timedOut: false });
    expect(result.stoppedAfterMs).toBeUndefined();
    expect(result.elapsedMs).toBeGreaterThan(0);
  });

  it('answers a non-zero exit as a result, not an error (terraform plan exits 2 for changes)', async () => {
    await expect(node('process.stderr.write("changes"); process.exit(2)')).resolves.toMatchObject({ code: 2, stderr: 'changes' });
  });

  it('runs in the given directory with exactly the given environment', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'orgadmin-runner-'));
    try {
      const result = await node('process.stdout.write(JSON.stringify([process.cwd(), process.env.ONLY, process.env.HOME ?? null]))', {
        cwd: dir,
        env: { ONLY: 'this' },
      });
      expect(JSON.parse(result.stdout)).toEqual([await realpath(dir), 'this', null]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('discards standard error when asked to', async () => {
    await expect(node('process.stderr.write("noise"); process.stdout.write("kept")', { stderr: 'ignore' })).resolves.toMatchObject({ stdout: 'kept', stderr: '' });
  });

  it('stops a process that would serve forever once its output says it is ready, and says when', async () => {
    const result = await node('process.stdout.write("ready\\n"); setInterval(() => {}, 1000)', { stopWhen: (stdout) => stdout.includes('\n') });
    expect(result.stdout).toBe('ready\n');
    expect(result.code).toBe(-1);
    expect(result.stoppedAfterMs).toBeGreaterThan(0);
    expect(result.stoppedAfterMs).toBeLessThanOrEqual(result.elapsedMs);
    expect(result.timedOut).toBe(false);
  });

  it('stops a process that outlives its time limit', async () => {
    // The limit is 1 ms: the child cannot print and exit in that time, so nothing waits for long.
    const result = await node('setInterval(() => {}, 1000)', { timeoutMs: 1 });
    expect(result).toMatchObject({ code: -1, timedOut: true });
  });

  it('rejects when the command cannot be started at all', async () => {
    await expect(runProcess(join(tmpdir(), 'no-such-command-orgadmin'), [])).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
