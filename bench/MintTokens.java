import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * HS256 user tokens for bench/users.sh, with the JDK alone: {@code java bench/MintTokens.java KID SECRET_BASE64URL
 * PROJECT COUNT FILE}. User i has the plan, country and app version that spread users over the bench's audiences.
 */
public final class MintTokens {

    private static final String[] PLANS = {"free", "pro", "team"};
    private static final String[] COUNTRIES = {"DE", "FR", "US", "GB", "JP", "BR", "IN", "ES"};

    public static void main(String[] args) throws Exception {
        String kid = args[0];
        byte[] secret = Base64.getUrlDecoder().decode(args[1]);
        String project = args[2];
        int count = Integer.parseInt(args[3]);
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(secret, "HmacSHA256"));
        Base64.Encoder base64 = Base64.getUrlEncoder().withoutPadding();
        String header = base64.encodeToString(("{\"alg\":\"HS256\",\"typ\":\"JWT\",\"kid\":\"" + kid + "\"}")
                                                      .getBytes(StandardCharsets.UTF_8));
        long now = System.currentTimeMillis() / 1000;
        List<String> tokens = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            String claims = ("{\"sub\":\"user-%d\",\"aud\":\"%s\",\"iat\":%d,\"exp\":%d,\"attrs\":{\"plan\":\"%s\","
                    + "\"country\":\"%s\",\"appVersion\":\"2.%d.0\",\"beta\":%b}}").formatted(
                    i, project, now, now + 6 * 3600, PLANS[i % 3], COUNTRIES[i / 3 % 8], i / 24 % 5, i % 7 == 0);
            String signingInput = header + "." + base64.encodeToString(claims.getBytes(StandardCharsets.UTF_8));
            String signature = base64.encodeToString(mac.doFinal(signingInput.getBytes(StandardCharsets.US_ASCII)));
            tokens.add(signingInput + "." + signature);
        }
        Files.write(Path.of(args[4]), tokens);
    }
}
