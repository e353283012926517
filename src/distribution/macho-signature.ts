/**
 * The code signature of a 64-bit Mach-O executable (macOS), checked the way the kernel checks it
 * page by page: the signature's CodeDirectory holds a SHA-256 hash of every page of the file up to
 * the signature itself. macOS on Apple silicon runs no arm64 code without a valid signature (an
 * ad-hoc one suffices); on Intel, a binary whose signature no longer matches its pages is killed,
 * while an unsigned one runs.
 *
 * Bun signs the arm64 executables it compiles (ad hoc); the x86-64 ones keep the signature of Bun's
 * own binary, which no longer matches once the provider is in it, so ./executable.ts removes it
 * (with the `macho-unsign` library).
 *
 * @see Apple's xnu, osfmk/kern/cs_blobs.h (blob magics, CodeDirectory layout)
 */
import { createHash } from 'node:crypto';

const MH_MAGIC_64 = 0xfeedfacf;
const LC_CODE_SIGNATURE = 0x1d;
const CSMAGIC_EMBEDDED_SIGNATURE = 0xfade0cc0;
const CSMAGIC_CODEDIRECTORY = 0xfade0c02;
const CSSLOT_CODEDIRECTORY = 0;
const CS_HASHTYPE_SHA256 = 2;

/** What {@link codeSignature} found. */
export type CodeSignatureState =
  /** No LC_CODE_SIGNATURE load command. */
  | 'absent'
  /** A CodeDirectory whose page hashes cover the whole file before the signature and all match. */
  | 'valid'
  /** A signature that does not cover the file as it is (or that this check cannot read). */
  | 'invalid';

/** Whether `file` starts like a 64-bit little-endian Mach-O (what Bun's darwin targets are). */
export function isMachO64(file: Buffer): boolean {
  return file.length >= 32 && file.readUInt32LE(0) === MH_MAGIC_64;
}

/** The code signature's offset and size in `file`, from its LC_CODE_SIGNATURE load command. */
function signatureLocation(file: Buffer): { offset: number; size: number } | undefined {
  const commands = file.readUInt32LE(16);
  let at = 32;
  for (let i = 0; i < commands; i++) {
    const command = file.readUInt32LE(at);
    if (command === LC_CODE_SIGNATURE) return { offset: file.readUInt32LE(at + 8), size: file.readUInt32LE(at + 12) };
    at += file.readUInt32LE(at + 4);
  }
  return undefined;
}

/** Checks the code signature of the 64-bit Mach-O `file` (see {@link CodeSignatureState}). */
export function codeSignature(file: Buffer): CodeSignatureState {
  if (!isMachO64(file)) throw new TypeError('not a 64-bit Mach-O file');
  const location = signatureLocation(file);
  if (location === undefined) return 'absent';
  const { offset } = location;
  // The blobs are big-endian, unlike the load commands.
  if (file.readUInt32BE(offset) !== CSMAGIC_EMBEDDED_SIGNATURE) return 'invalid';
  const count = file.readUInt32BE(offset + 8);
  for (let i = 0; i < count; i++) {
    const slot = file.readUInt32BE(offset + 12 + 8 * i);
    if (slot !== CSSLOT_CODEDIRECTORY) continue;
    const directory = offset + file.readUInt32BE(offset + 16 + 8 * i);
    if (file.readUInt32BE(directory) !== CSMAGIC_CODEDIRECTORY) return 'invalid';
    const hashOffset = file.readUInt32BE(directory + 16);
    const codeSlots = file.readUInt32BE(directory + 28);
    const codeLimit = file.readUInt32BE(directory + 32);
    const hashSize = file.readUInt8(directory + 36);
    const hashType = file.readUInt8(directory + 37);
    const pageSize = 2 ** file.readUInt8(directory + 39);
    // Everything before the signature must be covered, in SHA-256 pages that all match.
    if (codeLimit !== offset || hashType !== CS_HASHTYPE_SHA256 || codeSlots !== Math.ceil(codeLimit / pageSize)) return 'invalid';
    for (let page = 0; page < codeSlots; page++) {
      const expected = file.subarray(directory + hashOffset + page * hashSize, directory + hashOffset + (page + 1) * hashSize);
      const actual = createHash('sha256').update(file.subarray(page * pageSize, Math.min((page + 1) * pageSize, codeLimit))).digest();
      if (!actual.subarray(0, hashSize).equals(expected)) return 'invalid';
    }
    return 'valid';
  }
  return 'invalid';
}
