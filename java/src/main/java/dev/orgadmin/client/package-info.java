/**
 * The Java SDK of the Organization Administration Service: {@link dev.orgadmin.client.OrgAdminClient}
 * with one typed method per operation, {@link dev.orgadmin.client.ClientCredentialsTokenSource} and
 * {@link dev.orgadmin.client.StaticTokenSource} for bearer tokens, and
 * {@link dev.orgadmin.client.OrgAdminException} with one subclass per kind of failure. It needs only
 * the JDK (17+): {@code java.net.http.HttpClient} and a small JSON reader and writer of its own.
 *
 * <p>The TypeScript SDK ({@code orgadmin/client}) has the same shape, retry policy and error codes.
 */
package dev.orgadmin.client;
