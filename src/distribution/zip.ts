/**
 * A minimal, deterministic ZIP writer for release archives: the same files always give the same
 * bytes (fixed timestamps, no extra fields, entries in the given order), so that two builds of a
 * release have the same SHA256SUMS. Unix modes are recorded, so the executable stays executable
 * when Terraform unpacks it.
 */
import { crc32, deflateRawSync } from 'node:zlib';

/** One file of an archive. */
export interface ZipEntry {
  /** Path inside the archive, `/`-separated. */
  name: string;
  data: Buffer;
  /** Unix permission bits, e.g. 0o755. */
  mode: number;
}

/** 1980-01-01 00:00:00, the earliest MS-DOS date: no build time leaks into the archive. */
const DOS_TIME = 0;
const DOS_DATE = (0 << 9) | (1 << 5) | 1;
/** "Version made by": Unix (3), ZIP 2.0, so readers honour the Unix mode in the external attributes. */
const MADE_BY = (3 << 8) | 20;
const NEEDED = 20;
const DEFLATE = 8;
/** General purpose flag bit 11: names are UTF-8. */
const UTF8 = 1 << 11;
const S_IFREG = 0o100000;

/** The bytes of a ZIP archive holding `entries` (deflated; each file and the archive below 4 GiB). */
export function zipArchive(entries: readonly ZipEntry[]): Buffer {
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    // zlib's default level: level 9 takes three times as long for 0.4 % less on the executable.
    const compressed = deflateRawSync(entry.data, { level: 6 });
    const crc = crc32(entry.data);
    if (offset + compressed.length + 30 + name.length > 0xffffffff) throw new RangeError('archive too large for a ZIP without ZIP64');
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(NEEDED, 4);
    local.writeUInt16LE(UTF8, 6);
    local.writeUInt16LE(DEFLATE, 8);
    local.writeUInt16LE(DOS_TIME, 10);
    local.writeUInt16LE(DOS_DATE, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(compressed.length, 18);
    local.writeUInt32LE(entry.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    parts.push(local, name, compressed);

    const header = Buffer.alloc(46);
    header.writeUInt32LE(0x02014b50, 0);
    header.writeUInt16LE(MADE_BY, 4);
    header.writeUInt16LE(NEEDED, 6);
    header.writeUInt16LE(UTF8, 8);
    header.writeUInt16LE(DEFLATE, 10);
    header.writeUInt16LE(DOS_TIME, 12);
    header.writeUInt16LE(DOS_DATE, 14);
    header.writeUInt32LE(crc, 16);
    header.writeUInt32LE(compressed.length, 20);
    header.writeUInt32LE(entry.data.length, 24);
    header.writeUInt16LE(name.length, 28);
    // extra field length, comment length, disk number, internal attributes: all 0
    header.writeUInt32LE(((S_IFREG | (entry.mode & 0o7777)) << 16) >>> 0, 38);
    header.writeUInt32LE(offset, 42);
    central.push(header, name);
    offset += local.length + name.length + compressed.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...parts, directory, end]);
}
