/**
 * writeInPieces: the package files (the self-contained executable among them) are written in
 * 64 KiB pieces, byte for byte, with their mode; a write the kernel takes only in part goes on
 * where it stopped. Why pieces: see its comment (page-cache folios and the provider's RSS,
 * measured by bench:provider).
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WRITE_PIECE_BYTES, writeInPieces } from '../../../src/distribution/package-dir';

// The module object itself (an `import * as` copy would not see the spy).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const fsPromises = require('node:fs/promises') as typeof import('node:fs/promises');

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'write-in-pieces-'));
});
afterEach(async () => {
  jest.restoreAllMocks();
  await rm(dir, { recursive: true, force: true });
});

it.each([0, 1, WRITE_PIECE_BYTES - 1, WRITE_PIECE_BYTES, WRITE_PIECE_BYTES + 1, 5 * WRITE_PIECE_BYTES + 123])(
  'writes %i bytes exactly, with the mode asked for',
  async (size) => {
    const content = randomBytes(size);
    const path = join(dir, `file-${size}`);
    await writeInPieces(path, content, 0o700);
    expect((await readFile(path)).equals(content)).toBe(true);
    expect((await stat(path)).mode & 0o777).toBe(0o700);
  },
);

it('writes no piece larger than WRITE_PIECE_BYTES, and goes on after a partial write', async () => {
  const realOpen = fsPromises.open;
  const lengths: number[] = [];
  jest.spyOn(fsPromises, 'open').mockImplementation(async (...args: Parameters<typeof realOpen>) => {
    const handle = await realOpen(...args);
    const write = handle.write.bind(handle) as (buffer: Buffer, offset: number, length: number) => Promise<{ bytesWritten: number }>;
    let first = true;
    // The first write is taken only in part (as a kernel may): the rest must follow.
    (handle as unknown as { write: typeof write }).write = async (buffer, offset, length) => {
      lengths.push(length);
      const taken = first ? Math.floor(length / 3) : length;
      first = false;
      return write(buffer, offset, taken);
    };
    return handle;
  });
  const content = randomBytes(3 * WRITE_PIECE_BYTES + 10);
  const path = join(dir, 'pieces');
  await writeInPieces(path, content, 0o644);
  expect((await readFile(path)).equals(content)).toBe(true);
  // Asked for: a full piece (of which a third was taken), then full pieces from where it stopped.
  const rest = content.length - Math.floor(WRITE_PIECE_BYTES / 3) - 2 * WRITE_PIECE_BYTES;
  expect(lengths).toEqual([WRITE_PIECE_BYTES, WRITE_PIECE_BYTES, WRITE_PIECE_BYTES, rest]);
});
