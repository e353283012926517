package dev.orgadmin.client;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One domain of an organization with its verification state and the DNS TXT record that proves the
 * organization controls it (the vendor spec's {@code OrganizationDomainRepresentation}): publish a
 * TXT record named {@code <recordKey>.<domainName>} holding {@link #getRecordValue()}, then
 * {@link OrgAdminClient#verifyDomain}. Immutable.
 */
public final class OrganizationDomain {
    private final String domainName;
    private final boolean verified;
    private final String recordKey;
    private final String recordValue;

    private OrganizationDomain(String domainName, boolean verified, String recordKey, String recordValue) {
        this.domainName = domainName;
        this.verified = verified;
        this.recordKey = recordKey;
        this.recordValue = recordValue;
    }

    /** Reads the wire form ({@code domain_name}, {@code verified}, {@code record_key}, {@code record_value}). */
    static OrganizationDomain fromJson(Object json) {
        Map<String, Object> map = Wire.object(json, "a domain");
        return new OrganizationDomain(Wire.string(map, "domain_name"), Wire.bool(map, "verified"), Wire.string(map, "record_key"),
                Wire.string(map, "record_value"));
    }

    /** The wire form. */
    Map<String, Object> toJson() {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("domain_name", domainName);
        out.put("verified", verified);
        out.put("record_key", recordKey);
        out.put("record_value", recordValue);
        return out;
    }

    /** @return the domain, e.g. {@code globex.example.com} */
    public String getDomainName() {
        return domainName;
    }

    /** @return true once the service found the record (for this organization) */
    public boolean isVerified() {
        return verified;
    }

    /** @return the first label of the TXT record's name, e.g. {@code _org-domain-ownership} */
    public String getRecordKey() {
        return recordKey;
    }

    /** @return the TXT record's name: {@code <recordKey>.<domainName>} */
    public String getRecordName() {
        return recordKey + "." + domainName;
    }

    /** @return the value the TXT record must hold */
    public String getRecordValue() {
        return recordValue;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) return true;
        if (!(o instanceof OrganizationDomain)) return false;
        OrganizationDomain other = (OrganizationDomain) o;
        return verified == other.verified && domainName.equals(other.domainName) && recordKey.equals(other.recordKey)
                && recordValue.equals(other.recordValue);
    }

    @Override
    public int hashCode() {
        return Objects.hash(domainName, verified, recordKey, recordValue);
    }

    @Override
    public String toString() {
        return "OrganizationDomain{domainName=" + domainName + ", verified=" + verified + ", recordKey=" + recordKey
                + ", recordValue=" + recordValue + "}";
    }
}
