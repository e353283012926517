package dev.orgadmin.client;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The cross-check scenario, run by test/java/java-sdk.test.ts with this SDK and with the TypeScript
 * SDK against one service: create, add members, check, list, roles (create, grant, check, revoke,
 * delete), remove, delete, and the audit log of it all. Prints what it saw as
 * one JSON object on stdout; the harness compares the two objects. Ids that differ between runs are
 * left out (or replaced by {@code {id}}).
 */
public final class CrossCheckScenario {
    private CrossCheckScenario() {
    }

    /**
     * Runs the scenario.
     *
     * @param args unused; the service and the users come from ORGADMIN_IT_* environment variables,
     *     the organization's name from ORGADMIN_XC_NAME
     */
    public static void main(String[] args) {
        OrgAdminClient client = new OrgAdminClient(ItConfig.baseUrl(), ItConfig.realm(), ItConfig.adminTokens());
        String ann = ItConfig.env("ORGADMIN_IT_ANN_ID");
        String bob = ItConfig.env("ORGADMIN_IT_BOB_ID");
        String carol = ItConfig.env("ORGADMIN_IT_CAROL_ID");
        String name = ItConfig.env("ORGADMIN_XC_NAME");
        Map<String, Object> out = new LinkedHashMap<>();

        String id = client.createOrganization(OrganizationInput.named(name).withDisplayName("Cross Check")
                .withDomains("xc.example.com").withAttribute("tier", "gold plus"));
        Organization org = client.getOrganization(id);
        out.put("idMatches", org.getId().equals(id));
        Map<String, Object> organization = new LinkedHashMap<>();
        organization.put("name", org.getName());
        organization.put("displayName", org.getDisplayName());
        organization.put("url", org.getUrl());
        organization.put("domains", org.getDomains());
        organization.put("attributes", org.getAttributes());
        organization.put("realm", org.getRealm());
        out.put("organization", organization);
        out.put("duplicate", failure(() -> client.createOrganization(OrganizationInput.named(name))));

        client.addMember(id, ann);
        client.addMember(id, ann);
        client.addMember(id, bob);
        out.put("afterAdd", Map.of("ann", client.isMember(id, ann), "bob", client.isMember(id, bob), "carol", client.isMember(id, carol)));
        out.put("members", usernames(client.listMembers(id), id));
        out.put("memberCount", client.countMembers(id));
        out.put("memberCountWithoutAdmins", client.countMembers(id, true));
        out.put("found", client.listOrganizations(OrganizationQuery.all().withSearch(name)).stream().map(Organization::getName)
                .collect(Collectors.toList()));

        client.createRole(id, OrganizationRole.named("xc-editor").withDescription("Edits"));
        OrganizationRole created = client.getRole(id, "xc-editor");
        Map<String, Object> roleCreated = new LinkedHashMap<>();
        roleCreated.put("name", created.getName());
        roleCreated.put("description", created.getDescription());
        out.put("roleCreated", roleCreated);
        out.put("granted", results(client.grantRoles(id, ann, List.of("xc-editor", "view-members", "ghost")), id));
        out.put("annRoles", roleNames(client.listMemberRoles(id, ann)));
        out.put("hasRole", Map.of("ann", client.hasRole(id, "xc-editor", ann), "bob", client.hasRole(id, "xc-editor", bob)));
        out.put("roleUsers", usernames(client.listRoleUsers(id, "xc-editor"), id));
        out.put("grantToNonMember", failure(() -> client.grantRole(id, "xc-editor", carol)));
        out.put("revoked", results(client.revokeRoles(id, ann, List.of("view-members")), null));
        out.put("deleted", results(client.deleteRoles(id, List.of("xc-editor", "view-roles")), id));
        out.put("annRolesAfter", roleNames(client.listMemberRoles(id, ann)));
        out.put("annOrganizations", client.listUserOrganizations(ann).stream().filter(o -> o.getId().equals(id)).map(Organization::getName)
                .collect(Collectors.toList()));

        client.removeMember(id, bob);
        out.put("afterRemove", Map.of("ann", client.isMember(id, ann), "bob", client.isMember(id, bob)));
        out.put("membersAfterRemove", usernames(client.listMembers(id), id));

        client.deleteOrganization(id);
        out.put("afterDelete", failure(() -> client.getOrganization(id)));
        out.put("isMemberAfterDelete", client.isMember(id, ann));
        // The audit log of what the scenario did to its organization, newest first.
        List<List<String>> auditLog = new ArrayList<>();
        for (AuditEvent event : client.listEvents(EventQuery.all().withTypes("admin.ORGANIZATION*").withResourcePath("orgs/" + id).withMax(1000))) {
            auditLog.add(List.of(event.getType(), event.getResourcePath() == null ? "" : event.getResourcePath().replace(id, "{id}")));
        }
        out.put("auditLog", auditLog);
        System.out.println(Json.write(out));
    }

    private static List<String> roleNames(List<OrganizationRole> roles) {
        return roles.stream().map(OrganizationRole::getName).collect(Collectors.toList());
    }

    /**
     * Each result as {@code [name, status, ok]}, and, unless {@code id} is null, its error with the
     * organization's id replaced by {@code {id}}.
     */
    private static List<List<Object>> results(List<RoleResult> results, String id) {
        List<List<Object>> out = new ArrayList<>();
        for (RoleResult result : results) {
            List<Object> row = new ArrayList<>(List.of(result.getName(), (long) result.getStatus(), result.isOk()));
            if (id != null) row.add(result.getError() == null ? null : result.getError().replace(id, "{id}"));
            out.add(row);
        }
        return out;
    }

    private static List<String> usernames(List<Member> members, String id) {
        List<String> names = new ArrayList<>();
        for (Member member : members) names.add(member.getUsername().replace(id, "{id}"));
        names.sort(null);
        return names;
    }

    /** What a call that must fail threw: code, status and the service's error. */
    private static Map<String, Object> failure(Runnable call) {
        try {
            call.run();
        } catch (OrgAdminException e) {
            Map<String, Object> seen = new LinkedHashMap<>();
            seen.put("code", e.getCode().code());
            seen.put("status", e.getStatus());
            seen.put("error", e.getError());
            return seen;
        }
        throw new IllegalStateException("the call succeeded but should have failed");
    }
}
