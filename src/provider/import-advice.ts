/**
 * How a diagnostic tells a user to import an object the configuration does not manage yet: the
 * `terraform import` command and the equivalent `import {}` block, with the resource's address
 * left as `<name>` (the provider never knows it).
 */

/**
 * The two ways to import `id` into a resource of `typeName`, ready to follow a sentence that ends
 * in a colon: `terraform import TYPE.<name> ID`, then "or with an import block:" and the block.
 *
 * @example
 * diags.error('Role already exists', `… To manage it with this resource, import it:\n\n${importCommands(TYPE, id)}`);
 */
export function importCommands(typeName: string, id: string): string {
  return `  terraform import ${typeName}.<name> ${id}\n\n` + `or with an import block:\n\n  import {\n    to = ${typeName}.<name>\n    id = "${id}"\n  }`;
}
