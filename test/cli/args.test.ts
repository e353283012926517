import { formatHelp, parseArgs, type ArgsSpec } from '../../src/cli/args';
import { UsageError } from '../../src/cli/errors';

const spec = {
  command: 'things create',
  summary: 'Creates a thing.',
  positionals: [
    { name: 'NAME', required: true, description: 'The name.' },
    { name: 'NOTE', required: false, description: 'A note.' },
  ],
  flags: {
    realm: { type: 'string', valueName: 'REALM', required: true, description: 'The realm.' },
    color: { type: 'string', description: 'A colour.' },
    json: { type: 'boolean', description: 'JSON output.' },
  },
} as const satisfies ArgsSpec<Record<string, import('../../src/cli/args').FlagSpec>>;

/** Parses and returns the flags and positionals, failing when help was returned. */
function parse(argv: string[]) {
  const parsed = parseArgs(argv, spec);
  if (parsed.help) throw new Error('unexpected help');
  return parsed;
}

/** The UsageError message that parsing `argv` throws. */
function usageError(argv: string[]): string {
  try {
    parseArgs(argv, spec);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error(`parsing ${JSON.stringify(argv)} did not throw`);
}

describe('parseArgs', () => {
  it('reads --flag value, --flag=value, booleans and positionals', () => {
    const parsed = parse(['box', '--realm', 'acme', '--color=red', '--json', 'fragile']);
    expect(parsed.flags).toEqual({ realm: 'acme', color: 'red', json: true });
    expect(parsed.positionals).toEqual(['box', 'fragile']);
  });

  it('leaves absent optional flags undefined and absent booleans false', () => {
    const parsed = parse(['box', '--realm', 'acme']);
    expect(parsed.flags).toEqual({ realm: 'acme', color: undefined, json: false });
  });

  it('keeps everything after -- as positionals, even when it looks like a flag', () => {
    const parsed = parse(['--realm', 'acme', '--', '--not-a-flag']);
    expect(parsed.positionals).toEqual(['--not-a-flag']);
  });

  it('accepts a value that starts with a single dash', () => {
    expect(parse(['box', '--realm', '-acme']).flags.realm).toBe('-acme');
  });

  it('returns help for --help or -h without checking required flags', () => {
    expect(parseArgs(['--help'], spec)).toEqual({ help: true });
    expect(parseArgs(['-h', '--unknown'], spec)).toEqual({ help: true });
  });

  it('rejects an unknown long flag and names it', () => {
    expect(usageError(['box', '--realm', 'acme', '--colour', 'red'])).toBe(
      'unknown flag --colour for "orgadmin things create"; see "orgadmin things create --help".',
    );
  });

  it('rejects an unknown short flag', () => {
    expect(usageError(['box', '-x'])).toMatch(/^unknown flag -x for/);
  });

  it('rejects a string flag without a value at the end', () => {
    expect(usageError(['box', '--realm'])).toBe('flag --realm needs a value (--realm REALM).');
  });

  it('rejects a string flag followed by another flag instead of a value', () => {
    expect(usageError(['box', '--realm', '--json'])).toBe('flag --realm needs a value (--realm REALM).');
  });

  it('rejects an empty --flag= value', () => {
    expect(usageError(['box', '--realm='])).toBe('flag --realm needs a value (--realm REALM).');
  });

  it('rejects a value given to a boolean flag', () => {
    expect(usageError(['box', '--realm', 'a', '--json=yes'])).toBe('flag --json does not take a value.');
  });

  it('rejects a flag given twice', () => {
    expect(usageError(['box', '--realm', 'a', '--realm', 'b'])).toBe('flag --realm was given more than once.');
  });

  it('rejects a missing required flag', () => {
    expect(usageError(['box'])).toBe('missing required flag --realm for "orgadmin things create"; see "orgadmin things create --help".');
  });

  it('rejects a missing required positional', () => {
    expect(usageError(['--realm', 'acme'])).toBe('missing NAME for "orgadmin things create"; see "orgadmin things create --help".');
  });

  it('rejects an extra positional', () => {
    expect(usageError(['a', 'b', 'c', '--realm', 'acme'])).toBe(
      'unexpected argument "c" for "orgadmin things create"; see "orgadmin things create --help".',
    );
  });

  it('does not treat inherited object properties as flags', () => {
    expect(usageError(['box', '--realm', 'a', '--toString'])).toMatch(/^unknown flag --toString/);
  });
});

describe('formatHelp', () => {
  it('shows the summary, a usage line with required parts, and every flag', () => {
    const help = formatHelp(spec);
    expect(help).toContain('Creates a thing.');
    expect(help).toContain('Usage: orgadmin things create NAME [NOTE] --realm REALM [flags]');
    expect(help).toMatch(/--realm REALM\s+The realm\. \(required\)/);
    expect(help).toMatch(/--color VALUE\s+A colour\./);
    expect(help).toMatch(/--json\s+JSON output\./);
    expect(help).toMatch(/-h, --help\s+Show this help\./);
  });
});
