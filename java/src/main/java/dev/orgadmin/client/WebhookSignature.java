package dev.orgadmin.client;

import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Objects;
import java.util.regex.Pattern;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The signature every webhook delivery carries in {@link #HEADER}: the lowercase hex HMAC-SHA-256
 * of the request body's exact bytes under the webhook's secret, as the vendor's sender writes it
 * (the Java twin of {@code verifyWebhookSignature} in {@code src/api/webhooks.ts}). Verify the raw
 * body as received, before parsing it:
 *
 * <pre>{@code
 * if (!WebhookSignature.verify(secret, rawBody, request.getHeader(WebhookSignature.HEADER))) return 401;
 * AuditEvent event = AuditEvent.fromDelivery(new String(rawBody, StandardCharsets.UTF_8));
 * }</pre>
 */
public final class WebhookSignature {
    /** The header of a delivery's signature. */
    public static final String HEADER = "X-Keycloak-Signature";

    private static final Pattern HEX_SHA256 = Pattern.compile("[0-9a-fA-F]{64}");

    private WebhookSignature() {
    }

    /**
     * @param secret the webhook's secret ({@link OrgAdminClient#getWebhookSecret})
     * @param body the body's exact bytes
     * @return the signature: lowercase hex HMAC-SHA-256
     */
    public static String sign(String secret, byte[] body) {
        Objects.requireNonNull(body, "body");
        return HexFormat.of().formatHex(hmac(secret, body));
    }

    /**
     * @param secret the webhook's secret
     * @param body the body, as UTF-8 text
     * @return the signature: lowercase hex HMAC-SHA-256
     */
    public static String sign(String secret, String body) {
        return sign(secret, Objects.requireNonNull(body, "body").getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Whether {@code signature} (the {@link #HEADER} value) is the signature of {@code body} under
     * {@code secret}, compared in constant time.
     *
     * @param secret the webhook's secret
     * @param body the body's exact bytes, as received
     * @param signature the header's value, or null when absent
     * @return true when it matches; false for a missing, malformed or wrong signature
     */
    public static boolean verify(String secret, byte[] body, String signature) {
        Objects.requireNonNull(body, "body");
        if (signature == null || !HEX_SHA256.matcher(signature).matches()) return false;
        return MessageDigest.isEqual(hmac(secret, body), HexFormat.of().parseHex(signature));
    }

    /**
     * @param secret the webhook's secret
     * @param body the body as received, as UTF-8 text
     * @param signature the header's value, or null when absent
     * @return true when it matches
     */
    public static boolean verify(String secret, String body, String signature) {
        return verify(secret, Objects.requireNonNull(body, "body").getBytes(StandardCharsets.UTF_8), signature);
    }

    private static byte[] hmac(String secret, byte[] body) {
        Objects.requireNonNull(secret, "secret");
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            // An empty key is legal HMAC, but SecretKeySpec refuses it: a zero byte is the same key (RFC 2104 pads with zeros).
            byte[] key = secret.isEmpty() ? new byte[1] : secret.getBytes(StandardCharsets.UTF_8);
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac.doFinal(body);
        } catch (NoSuchAlgorithmException | InvalidKeyException unavailable) {
            // Every JDK has HmacSHA256; an error here is a broken runtime, not a bad input.
            throw new IllegalStateException("HmacSHA256 is not available", unavailable);
        }
    }
}
