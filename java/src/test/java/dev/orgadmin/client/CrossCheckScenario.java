package dev.orgadmin.client;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The cross-check scenario, run by test/java/java-sdk.test.ts with this SDK and with the TypeScript
 * SDK against one service: create, add members, check, list, remove, delete. Prints what it saw as
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

        client.removeMember(id, bob);
        out.put("afterRemove", Map.of("ann", client.isMember(id, ann), "bob", client.isMember(id, bob)));
        out.put("membersAfterRemove", usernames(client.listMembers(id), id));

        client.deleteOrganization(id);
        out.put("afterDelete", failure(() -> client.getOrganization(id)));
        out.put("isMemberAfterDelete", client.isMember(id, ann));
        System.out.println(Json.write(out));
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
