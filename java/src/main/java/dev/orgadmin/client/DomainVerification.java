package dev.orgadmin.client;

import java.util.Map;
import java.util.Objects;

/**
 * The answer of {@link OrgAdminClient#verifyDomain}: the domain as it now stands and, as this
 * service's addition to the vendor's answer, what the DNS lookup found ({@link #getOutcome()}:
 * {@code verified}, {@code no_record}, {@code value_mismatch} or {@code lookup_failed}), which tells
 * a missing record from a wrong value or an unreachable DNS server. The hosted service answers the
 * domain only: the lookup fields are then null. Immutable.
 */
public final class DomainVerification {
    private final OrganizationDomain domain;
    private final String recordName;
    private final String outcome;
    private final String detail;

    private DomainVerification(OrganizationDomain domain, String recordName, String outcome, String detail) {
        this.domain = domain;
        this.recordName = recordName;
        this.outcome = outcome;
        this.detail = detail;
    }

    static DomainVerification fromJson(Object json) {
        Map<String, Object> map = Wire.object(json, "a domain verification");
        OrganizationDomain domain = OrganizationDomain.fromJson(map);
        Object verification = map.get("verification");
        if (verification == null) return new DomainVerification(domain, null, null, null);
        Map<String, Object> lookup = Wire.object(verification, "\"verification\"");
        return new DomainVerification(domain, Wire.string(lookup, "record_name"), Wire.string(lookup, "outcome"), Wire.string(lookup, "detail"));
    }

    /** The wire form: the domain's fields and, when known, {@code verification}. */
    Map<String, Object> toJson() {
        Map<String, Object> out = domain.toJson();
        if (outcome != null) {
            Map<String, Object> lookup = new java.util.LinkedHashMap<>();
            lookup.put("record_name", recordName);
            lookup.put("outcome", outcome);
            lookup.put("detail", detail);
            out.put("verification", lookup);
        }
        return out;
    }

    /** @return the domain after the check */
    public OrganizationDomain getDomain() {
        return domain;
    }

    /** @return true when the domain is verified (now or before) */
    public boolean isVerified() {
        return domain.isVerified();
    }

    /** @return the TXT record name that was looked up, or null when the service did not say */
    public String getRecordName() {
        return recordName;
    }

    /** @return {@code verified}, {@code no_record}, {@code value_mismatch} or {@code lookup_failed}; null when the service did not say */
    public String getOutcome() {
        return outcome;
    }

    /** @return one sentence on what the lookup found, or null when the service did not say */
    public String getDetail() {
        return detail;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) return true;
        if (!(o instanceof DomainVerification)) return false;
        DomainVerification other = (DomainVerification) o;
        return domain.equals(other.domain) && Objects.equals(recordName, other.recordName) && Objects.equals(outcome, other.outcome)
                && Objects.equals(detail, other.detail);
    }

    @Override
    public int hashCode() {
        return Objects.hash(domain, recordName, outcome, detail);
    }

    @Override
    public String toString() {
        return "DomainVerification{domain=" + domain + ", recordName=" + recordName + ", outcome=" + outcome + ", detail=" + detail + "}";
    }
}
