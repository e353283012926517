/**
 * Import ids of the orgadmin resources: the resource's own ids joined by `/`, optionally preceded
 * by the realm (`ORG/USER` or `REALM/ORG/USER`). Ids that themselves contain `/` cannot be
 * imported this way (the service's ids are UUIDs unless chosen otherwise).
 */
import { MAX_NAME_LENGTH } from '../api/validation';
import type { Diagnostics } from '../tfplugin/framework/types';
import { quote } from './values';

/** What an import id form looks like for one resource type. */
export interface ImportIdForm {
  /** The resource type, for messages: `orgadmin_membership`. */
  readonly typeName: string;
  /** Names of the id's segments without the realm, for messages: `['ORG', 'USER']`. */
  readonly segments: readonly string[];
  /** An example id without the realm, for messages. */
  readonly example: string;
}

/** A parsed import id. */
export interface ParsedImportId {
  /** The realm, when the id named one. */
  readonly realm?: string;
  /** The segments after the realm, one per {@link ImportIdForm.segments}. */
  readonly ids: readonly string[];
}

/** The accepted forms, as text: `ORG/USER or REALM/ORG/USER`. */
export function describeImportIdForms(form: ImportIdForm): string {
  const plain = form.segments.join('/');
  return `\`${plain}\` or \`REALM/${plain}\``;
}

/**
 * Parses an import id of the given form. Reports an error diagnostic (saying which forms are
 * accepted, with an example command) and returns undefined when the id does not fit.
 */
export function parseImportId(id: string, form: ImportIdForm, diags: Diagnostics): ParsedImportId | undefined {
  const fail = (problem: string): undefined => {
    diags.error(
      `Invalid import id for ${form.typeName}`,
      `The import id ${quote(id)} ${problem}. ${form.typeName} is imported by ${describeImportIdForms(form)}, ` +
        `for example:\n\n  terraform import ${form.typeName}.example ${form.example}`,
    );
    return undefined;
  };
  const parts = id.split('/');
  const count = form.segments.length;
  if (parts.length !== count && parts.length !== count + 1) {
    return fail(`has ${parts.length} segment${parts.length === 1 ? '' : 's'} separated by "/", but ${count} or ${count + 1} are expected`);
  }
  const names = parts.length === count ? form.segments : ['REALM', ...form.segments];
  for (let i = 0; i < parts.length; i += 1) {
    const part = parts[i]!;
    if (part === '') return fail(`has an empty ${names[i]} segment`);
    if (part.trim() !== part) return fail(`has spaces around the ${names[i]} segment`);
    if (part.length > MAX_NAME_LENGTH) return fail(`has a ${names[i]} segment longer than ${MAX_NAME_LENGTH} characters`);
  }
  return parts.length === count ? { ids: parts } : { realm: parts[0]!, ids: parts.slice(1) };
}

/**
 * The import id of the given form: `ids` (one per {@link ImportIdForm.segments}) joined by `/`,
 * preceded by `realm` when given. The inverse of {@link parseImportId}; throws (a caller's bug)
 * when the ids do not fit the form or an id holds a `/`.
 */
export function formatImportId(form: ImportIdForm, ids: readonly string[], realm?: string): string {
  if (ids.length !== form.segments.length) throw new Error(`${form.typeName} import ids have ${form.segments.length} segments, ${ids.length} were given`);
  const parts = realm === undefined ? [...ids] : [realm, ...ids];
  const unfit = parts.find((part) => part === '' || part.includes('/'));
  if (unfit !== undefined) throw new Error(`${quote(unfit)} cannot be a segment of an import id of ${form.typeName}`);
  return parts.join('/');
}

