/**
 * The environment for an npm started by a test. A parent `npm test` (or `npx jest`) puts its own
 * `npm_config_*` variables into the environment (its local prefix, its call, `nodedir` for Node.js
 * 20); an npm started inside a test directory must read its settings as a user's npm would, from
 * the user and global configuration files, not inherit those. Everything else is kept.
 */
export function npmChildEnv(env: NodeJS.ProcessEnv = process.env, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const clean: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) if (!name.toLowerCase().startsWith('npm_config_')) clean[name] = value;
  return { ...clean, npm_config_update_notifier: 'false', ...extra };
}
