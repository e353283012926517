package dev.orgadmin.client;

import java.util.Map;
import java.util.Objects;

/** The answer of "create admin portal link". Immutable. */
public final class PortalLink {
    private final String user;
    private final String link;
    private final String redirect;

    private PortalLink(String user, String link, String redirect) {
        this.user = user;
        this.link = link;
        this.redirect = redirect;
    }

    static PortalLink fromJson(Object json) {
        Map<String, Object> map = Wire.object(json, "the portal link");
        return new PortalLink(Wire.string(map, "user"), Wire.string(map, "link"), Wire.string(map, "redirect"));
    }

    /**
     * @return the id of the user the link acts for
     */
    public String getUser() {
        return user;
    }

    /**
     * @return the one-time link (a secret: do not log it)
     */
    public String getLink() {
        return link;
    }

    /**
     * @return where the portal sends the user afterwards
     */
    public String getRedirect() {
        return redirect;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) return true;
        if (!(o instanceof PortalLink)) return false;
        PortalLink other = (PortalLink) o;
        return user.equals(other.user) && link.equals(other.link) && redirect.equals(other.redirect);
    }

    @Override
    public int hashCode() {
        return Objects.hash(user, link, redirect);
    }

    /** Leaves the link out: it grants access to the portal. */
    @Override
    public String toString() {
        return "PortalLink{user=" + user + ", redirect=" + redirect + "}";
    }
}
