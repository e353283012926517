/** The same exports as `orgadmin/service`: this package only adds the service's runtime dependencies. */
export * from 'orgadmin/service';
