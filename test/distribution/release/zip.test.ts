import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { zipArchive } from '../../../src/distribution/zip';

let root: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'orgadmin-zip-'));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('zipArchive', () => {
  const entries = [
    { name: 'terraform-provider-orgadmin_v1.2.3', data: Buffer.from('#!/bin/sh\necho provider\n'.repeat(100)), mode: 0o755 },
    { name: 'README.txt', data: Buffer.from('read me\n'), mode: 0o644 },
  ];

  it('writes an archive that unzip extracts byte for byte, keeping the executable bit', async () => {
    const file = join(root, 'release.zip');
    await writeFile(file, zipArchive(entries));
    execFileSync('unzip', ['-q', file, '-d', join(root, 'out')]);
    for (const entry of entries) {
      expect(await readFile(join(root, 'out', entry.name))).toEqual(entry.data);
      expect((await stat(join(root, 'out', entry.name))).mode & 0o777).toBe(entry.mode);
    }
    // unzip's own integrity test (CRC-32 of each entry).
    expect(execFileSync('unzip', ['-tq', file], { encoding: 'utf8' })).toMatch(/^No errors detected/);
  });

  it('gives the same bytes for the same files, with no timestamp of the build in them', () => {
    const first = zipArchive(entries);
    expect(zipArchive(entries).equals(first)).toBe(true);
    // 1980-01-01 00:00 in MS-DOS format: time 0, date 0x0021, in the first local header.
    expect(first.readUInt16LE(10)).toBe(0);
    expect(first.readUInt16LE(12)).toBe(0x21);
  });
});
