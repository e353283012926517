/**
 * The "look up by one of two attributes" rule that the `orgadmin_organization` (`id` or `name`)
 * and `orgadmin_user` (`username` or `email`) data sources share, so both say it the same way.
 */
import type { Diagnostics, ObjectValue, Value } from '../../tfplugin/framework/types';
import { isUnknown } from '../../tfplugin/protocol/unknown';

/** The two attributes a data source looks its object up by, and what it looks up. */
export interface LookupChoice {
  /** The first attribute, e.g. `id`; a missing lookup is reported on it. */
  readonly first: string;
  /** The second attribute, e.g. `name`; a conflicting lookup is reported on it. */
  readonly second: string;
  /** What is looked up, for messages: `the organization`. */
  readonly what: string;
}

function isSet(value: Value | undefined): boolean {
  return value !== null && value !== undefined;
}

/** Reports that neither attribute of `choice` is set. */
export function reportMissingLookup(choice: LookupChoice, diags: Diagnostics): void {
  diags.error('Missing lookup', `Set \`${choice.first}\` or \`${choice.second}\` to choose ${choice.what}.`, [choice.first]);
}

/**
 * Checks that exactly one attribute of `choice` is set and that a set one is not empty. Skipped
 * while either is unknown: which one is set is decided only once both are known.
 */
export function validateLookup(config: ObjectValue, choice: LookupChoice, diags: Diagnostics): void {
  const first = config[choice.first];
  const second = config[choice.second];
  if (isUnknown(first) || isUnknown(second)) return;
  if (isSet(first) && isSet(second)) {
    diags.error(
      'Conflicting lookup',
      `Set either \`${choice.first}\` or \`${choice.second}\` to choose ${choice.what}, not both.`,
      [choice.second],
    );
  } else if (!isSet(first) && !isSet(second)) {
    reportMissingLookup(choice, diags);
  }
  for (const name of [choice.first, choice.second]) {
    if (config[name] === '') diags.error(`Invalid ${name}`, `\`${name}\` must not be empty.`, [name]);
  }
}
