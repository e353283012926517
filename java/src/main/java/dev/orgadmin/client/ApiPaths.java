package dev.orgadmin.client;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.StringJoiner;

/**
 * Path builders for every operation (the Java twin of {@code src/api/paths.ts}) and the two
 * encodings the SDK needs. Each path segment is percent-encoded, so ids with {@code /} or spaces
 * stay one path parameter.
 */
final class ApiPaths {
    private ApiPaths() {
    }

    /** Characters {@code encodeURIComponent} leaves alone; the TypeScript SDK encodes with it. */
    private static final String UNRESERVED = "-_.!~*'()";

    /** Percent-encodes like JavaScript's {@code encodeURIComponent} (UTF-8, space as {@code %20}). */
    static String encodeComponent(String value) {
        StringBuilder out = new StringBuilder();
        for (byte b : value.getBytes(StandardCharsets.UTF_8)) {
            int c = b & 0xff;
            if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || UNRESERVED.indexOf(c) >= 0) {
                out.append((char) c);
            } else {
                out.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
                        .append(Character.toUpperCase(Character.forDigit(c & 0xf, 16)));
            }
        }
        return out.toString();
    }

    /** An {@code application/x-www-form-urlencoded} body; null values are left out. */
    static String form(Map<String, String> fields) {
        StringJoiner out = new StringJoiner("&");
        for (Map.Entry<String, String> field : fields.entrySet()) {
            if (field.getValue() == null) continue;
            out.add(formEncode(field.getKey()) + "=" + formEncode(field.getValue()));
        }
        return out.toString();
    }

    /** One form field name or value, as HTML forms encode it (space as {@code +}). */
    static String formEncode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }

    /** A query string ({@code ?a=1&b=x}) from parameters; null values are left out; "" when none remain. */
    static String query(Map<String, ?> params) {
        StringJoiner out = new StringJoiner("&", "?", "");
        out.setEmptyValue("");
        for (Map.Entry<String, ?> param : params.entrySet()) {
            if (param.getValue() == null) continue;
            out.add(encodeComponent(param.getKey()) + "=" + encodeComponent(String.valueOf(param.getValue())));
        }
        return out.toString();
    }

    /** A map for {@link #query}, keys in the order given: {@code params("a", 1, "b", null)}. */
    static Map<String, Object> params(Object... keysAndValues) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) map.put((String) keysAndValues[i], keysAndValues[i + 1]);
        return map;
    }

    static String realm(String realm) {
        return "/realms/" + encodeComponent(realm);
    }

    static String token(String realm) {
        return realm(realm) + "/protocol/openid-connect/token";
    }

    static String orgs(String realm) {
        return realm(realm) + "/orgs";
    }

    static String orgsCount(String realm) {
        return orgs(realm) + "/count";
    }

    static String orgsMe(String realm) {
        return orgs(realm) + "/me";
    }

    static String org(String realm, String orgId) {
        return orgs(realm) + "/" + encodeComponent(orgId);
    }

    static String portalLink(String realm, String orgId) {
        return org(realm, orgId) + "/portal-link";
    }

    static String members(String realm, String orgId) {
        return org(realm, orgId) + "/members";
    }

    static String membersCount(String realm, String orgId) {
        return members(realm, orgId) + "/count";
    }

    static String member(String realm, String orgId, String userId) {
        return members(realm, orgId) + "/" + encodeComponent(userId);
    }

    static String roles(String realm, String orgId) {
        return org(realm, orgId) + "/roles";
    }

    static String role(String realm, String orgId, String name) {
        return roles(realm, orgId) + "/" + encodeComponent(name);
    }

    static String roleUsers(String realm, String orgId, String name) {
        return role(realm, orgId, name) + "/users";
    }

    static String roleUser(String realm, String orgId, String name, String userId) {
        return roleUsers(realm, orgId, name) + "/" + encodeComponent(userId);
    }

    static String userOrganizations(String realm, String userId) {
        return realm(realm) + "/users/" + encodeComponent(userId) + "/orgs";
    }

    static String memberRoles(String realm, String userId, String orgId) {
        return userOrganizations(realm, userId) + "/" + encodeComponent(orgId) + "/roles";
    }

    static String domains(String realm, String orgId) {
        return org(realm, orgId) + "/domains";
    }

    static String domain(String realm, String orgId, String domain) {
        return domains(realm, orgId) + "/" + encodeComponent(domain);
    }

    static String domainVerify(String realm, String orgId, String domain) {
        return domain(realm, orgId, domain) + "/verify";
    }

    static String idps(String realm, String orgId) {
        return org(realm, orgId) + "/idps";
    }

    static String idpLink(String realm, String orgId) {
        return idps(realm, orgId) + "/link";
    }

    static String idp(String realm, String orgId, String alias) {
        return idps(realm, orgId) + "/" + encodeComponent(alias);
    }

    static String idpUnlink(String realm, String orgId, String alias) {
        return idp(realm, orgId, alias) + "/unlink";
    }

    static String idpMappers(String realm, String orgId, String alias) {
        return idp(realm, orgId, alias) + "/mappers";
    }

    static String idpMapper(String realm, String orgId, String alias, String id) {
        return idpMappers(realm, orgId, alias) + "/" + encodeComponent(id);
    }

    /** The vendor's webhook paths, under the realm (not {@code /admin}). */
    static String webhooks(String realm) {
        return realm(realm) + "/webhooks";
    }

    static String webhooksCount(String realm) {
        return webhooks(realm) + "/count";
    }

    static String webhook(String realm, String id) {
        return webhooks(realm) + "/" + encodeComponent(id);
    }

    static String webhookSecret(String realm, String id) {
        return webhook(realm, id) + "/secret";
    }

    static String webhookSends(String realm, String id) {
        return webhook(realm, id) + "/sends";
    }

    static String webhookSend(String realm, String id, String sendId) {
        return webhookSends(realm, id) + "/" + encodeComponent(sendId);
    }

    static String webhookResend(String realm, String id, String sendId) {
        return webhookSend(realm, id, sendId) + "/resend";
    }

    /** The audit log. */
    static String events(String realm) {
        return "/admin/realms/" + encodeComponent(realm) + "/events";
    }

    static String users(String realm) {
        return "/admin/realms/" + encodeComponent(realm) + "/users";
    }

    /**
     * The realm implied by a base address: the first DNS label of its host
     * ({@code https://acme.example.com} → {@code acme}); null for IP addresses and single-label
     * hosts such as {@code localhost}.
     */
    static String realmFromHost(String host) {
        if (host == null || host.isEmpty() || host.startsWith("[") || host.matches("[\\d.]+")) return null;
        int dot = host.indexOf('.');
        if (dot <= 0) return null;
        return host.substring(0, dot);
    }
}
