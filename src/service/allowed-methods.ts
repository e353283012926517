/**
 * Which methods each known path answers, so that a wrong method on a known path is a 405
 * `method_not_allowed` with an `Allow` header, while an unknown path stays a 404.
 *
 * fastify's router keeps one tree per method and does not say whether a path exists under another
 * method, so the routes are recorded as they are registered (onRoute) and matched here. A path
 * parameter matches one raw path segment (a percent-encoded `/` stays inside it), as in the router.
 */
import type { FastifyInstance } from 'fastify';

/** Order of methods in `Allow`. */
const METHOD_ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/** One route pattern and the methods registered for it. */
interface PatternMethods {
  pattern: RegExp;
  methods: Set<string>;
}

/** `/realms/:realm/orgs` → `^/realms/[^/]+/orgs/?$` (a trailing slash names the same path, as in the router). */
function patternOf(url: string): RegExp {
  const source = url
    .split('/')
    .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${source}/?$`);
}

/** The known routes of an app, filled by {@link AllowedMethods.track} as routes are added. */
export class AllowedMethods {
  private readonly byUrl = new Map<string, PatternMethods>();

  /** Records every route registered on `app` from now on (call before registering routes). */
  track(app: FastifyInstance): void {
    app.addHook('onRoute', (route) => {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      let entry = this.byUrl.get(route.url);
      if (!entry) {
        entry = { pattern: patternOf(route.url), methods: new Set() };
        this.byUrl.set(route.url, entry);
      }
      for (const method of methods) entry.methods.add(method.toUpperCase());
    });
  }

  /** The methods some route answers for this raw path (no query string), in a stable order; empty when none. */
  allowedFor(path: string): string[] {
    const methods = new Set<string>();
    for (const { pattern, methods: routeMethods } of this.byUrl.values()) {
      if (pattern.test(path)) for (const method of routeMethods) methods.add(method);
    }
    // fastify answers HEAD on every GET route.
    if (methods.has('GET')) methods.add('HEAD');
    return [...methods].sort((a, b) => METHOD_ORDER.indexOf(a) - METHOD_ORDER.indexOf(b));
  }
}
