package dev.orgadmin.client;

import java.util.List;

/**
 * What each attempt of a failed request got, oldest first ({@code HTTP 503},
 * {@code timed out after 2000 ms}), and why no further attempt was made. The number of outcomes is
 * the number of attempts actually sent. See {@link OrgAdminException#getAttempts()}.
 */
public final class AttemptLog {
    private final List<String> outcomes;
    private final String stoppedBecause;

    AttemptLog(List<String> outcomes, String stoppedBecause) {
        this.outcomes = List.copyOf(outcomes);
        this.stoppedBecause = stoppedBecause;
    }

    /** @return one line per attempt sent, oldest first; unmodifiable */
    public List<String> getOutcomes() {
        return outcomes;
    }

    /** @return why no further attempt was made; empty when the retry limit was reached or asking again was pointless */
    public String getStoppedBecause() {
        return stoppedBecause;
    }

    /** The summary appended to the exception's message, e.g. {@code 3 attempts: HTTP 503; HTTP 502; HTTP 503; gave up ...}; "" when none. */
    String summary() {
        StringBuilder out = new StringBuilder();
        if (outcomes.size() > 1) out.append(outcomes.size()).append(" attempts: ").append(String.join("; ", outcomes));
        if (!stoppedBecause.isEmpty()) {
            if (out.length() > 0) out.append("; ");
            out.append(stoppedBecause);
        }
        return out.toString();
    }

    @Override
    public String toString() {
        return "AttemptLog{outcomes=" + outcomes + ", stoppedBecause=" + stoppedBecause + "}";
    }
}
