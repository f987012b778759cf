package dev.herald.identity;

import java.util.function.Function;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;

/**
 * The tokens each library mints for each algorithm: the ones Herald accepts, and one per defect with the code
 * Herald refuses it with (issue 31, docs/identity.md#interoperability). Every defect is signed properly except
 * where the defect is the signature, so the refusal can only come from the rule under test.
 */
enum TokenCase {
    VALID(null, "sub, aud, iat, an exp an hour on", setting -> setting.signed(claims(setting))),
    VALID_FULL(null, "aud an array holding the project, nbf past, locale, attrs of every kind, no iat",
               setting -> setting.signed(claims(setting).remove("iat")
                       .add("aud", Json.createArrayBuilder().add("another-audience").add(setting.projectId()))
                       .add("nbf", setting.now() - 60).add("exp", setting.now() + 23 * 3600)
                       .add("locale", "pt-BR")
                       .add("attrs", Json.createObjectBuilder().add("plan", "pro").add("seats", 12)
                               .add("ratio", 0.5).add("beta", true).add("app.version", "2.3.1")
                               .add("roles", Json.createArrayBuilder().add("admin").add("billing"))))),
    VALID_WITHIN_CLOCK_SKEW(null, "expired 30 s ago, within the 60 s clock skew",
                            setting -> setting.signed(claims(setting).add("iat", setting.now() - 3600)
                                                              .add("exp", setting.now() - 30))),

    ALG_NONE("USER_TOKEN_ALGORITHM", "alg none, no signature",
             setting -> new TokenSpec(SigningKey.none(), kid(setting.key()), claims(setting).build())),
    OTHER_ALGORITHM("USER_TOKEN_ALGORITHM", "signed properly with another algorithm Herald accepts, under this kid",
                    setting -> new TokenSpec(SigningKey.fresh(otherAlgorithm(setting.key().alg())),
                                             kid(setting.key()), claims(setting).build())),
    ALGORITHM_CONFUSION("USER_TOKEN_ALGORITHM", "HS256 with the registered public key's PEM as the HMAC secret",
                        setting -> new TokenSpec(SigningKey.hmacText(KeyMaterial.publicPem(setting.key().pair())),
                                                 kid(setting.key()), claims(setting).build())),
    BAD_SIGNATURE("USER_TOKEN_SIGNATURE", "signed with another key of the same algorithm, under this kid",
                  setting -> new TokenSpec(SigningKey.fresh(setting.key().alg()), kid(setting.key()),
                                           claims(setting).build())),
    UNKNOWN_KID("USER_TOKEN_KEY_UNKNOWN", "a kid Herald never made",
                setting -> new TokenSpec(setting.key().signer(),
                                         Json.createObjectBuilder().add("kid", "AAAAAAAAAAAAAAAAAAAAAA").build(),
                                         claims(setting).build())),
    MISSING_KID("USER_TOKEN_KEY_UNKNOWN", "no kid",
                setting -> new TokenSpec(setting.key().signer(), JsonObject.EMPTY_JSON_OBJECT, claims(setting).build())),
    REVOKED_KID("USER_TOKEN_KEY_UNKNOWN", "signed by a key revoked before the request",
                setting -> new TokenSpec(setting.revoked().signer(), kid(setting.revoked()), claims(setting).build())),
    OTHER_PROJECTS_KID("USER_TOKEN_KEY_UNKNOWN", "signed by another project's key, aud this project",
                       setting -> new TokenSpec(setting.foreign().signer(), kid(setting.foreign()),
                                                claims(setting).build())),
    EXPIRED("USER_TOKEN_EXPIRED", "exp an hour ago",
            setting -> setting.signed(claims(setting).add("iat", setting.now() - 7200).add("exp", setting.now() - 3600))),
    NOT_YET_VALID("USER_TOKEN_NOT_YET_VALID", "nbf an hour on",
                  setting -> setting.signed(claims(setting).add("nbf", setting.now() + 3600)
                                                    .add("exp", setting.now() + 7200))),
    ISSUED_IN_THE_FUTURE("USER_TOKEN_NOT_YET_VALID", "iat an hour on",
                         setting -> setting.signed(claims(setting).add("iat", setting.now() + 3600)
                                                           .add("exp", setting.now() + 7200))),
    LIFETIME_TOO_LONG("USER_TOKEN_LIFETIME", "exp 25 h after iat (cap 24 h)",
                      setting -> setting.signed(claims(setting).add("exp", setting.now() + 25 * 3600))),
    LIFETIME_TOO_LONG_WITHOUT_IAT("USER_TOKEN_LIFETIME", "exp 25 h on, no iat",
                                  setting -> setting.signed(claims(setting).remove("iat")
                                                                    .add("exp", setting.now() + 25 * 3600))),
    WRONG_AUDIENCE("USER_TOKEN_AUDIENCE", "aud another project",
                   setting -> setting.signed(claims(setting).add("aud", setting.otherProjectId()))),
    WRONG_AUDIENCE_ARRAY("USER_TOKEN_AUDIENCE", "aud an array without this project",
                         setting -> setting.signed(claims(setting).add("aud", Json.createArrayBuilder()
                                 .add(setting.otherProjectId()).add("another-audience")))),
    MISSING_AUDIENCE("USER_TOKEN_AUDIENCE", "no aud", setting -> setting.signed(claims(setting).remove("aud"))),
    MISSING_SUB("USER_TOKEN_CLAIMS", "no sub", setting -> setting.signed(claims(setting).remove("sub"))),
    SUB_TOO_LONG("USER_TOKEN_CLAIMS", "sub of 257 characters",
                 setting -> setting.signed(claims(setting).add("sub", "u".repeat(257)))),
    SUB_A_NUMBER("USER_TOKEN_CLAIMS", "sub a number (Nimbus reads 42 as \"42\", another user's sub)",
                 setting -> setting.signed(claims(setting).add("sub", 42))),
    VALID_SUB_OF_256_EMOJI(null, "sub of 256 characters outside the BMP (512 UTF-16 units)",
                           setting -> setting.signed(claims(setting).add("sub", "\uD83D\uDE00".repeat(256)))),
    SUB_OF_257_EMOJI("USER_TOKEN_CLAIMS", "sub of 257 characters outside the BMP",
                     setting -> setting.signed(claims(setting).add("sub", "\uD83D\uDE00".repeat(257)))),
    MISSING_EXP("USER_TOKEN_CLAIMS", "no exp", setting -> setting.signed(claims(setting).remove("exp"))),
    LOCALE_TOO_LONG("USER_TOKEN_CLAIMS", "locale of 36 characters",
                    setting -> setting.signed(claims(setting).add("locale", "l".repeat(36)))),
    TOO_MANY_ATTRS("USER_TOKEN_CLAIMS", "51 attrs", setting -> {
        JsonObjectBuilder attrs = Json.createObjectBuilder();
        for (int i = 0; i < 51; i++) {
            attrs.add("a" + i, i);
        }
        return setting.signed(claims(setting).add("attrs", attrs));
    }),
    ATTR_VALUE_TOO_LONG("USER_TOKEN_CLAIMS", "an attr string of 257 characters",
                        setting -> setting.signed(claims(setting).add("attrs", Json.createObjectBuilder()
                                .add("plan", "p".repeat(257))))),
    ATTR_NAME_INVALID("USER_TOKEN_CLAIMS", "an attr named \"plan name\"",
                      setting -> setting.signed(claims(setting).add("attrs", Json.createObjectBuilder()
                              .add("plan name", "pro")))),
    ATTR_OBJECT("USER_TOKEN_CLAIMS", "an attr whose value is an object",
                setting -> setting.signed(claims(setting).add("attrs", Json.createObjectBuilder()
                        .add("plan", Json.createObjectBuilder().add("name", "pro"))))),
    ATTR_ARRAY_OF_NUMBERS("USER_TOKEN_CLAIMS", "an attr array holding a number",
                          setting -> setting.signed(claims(setting).add("attrs", Json.createObjectBuilder()
                                  .add("roles", Json.createArrayBuilder().add("admin").add(7))))),
    TOKEN_OVER_8_KIB("USER_TOKEN_MALFORMED", "a claim Herald ignores making the token over 8,192 bytes",
                     setting -> setting.signed(claims(setting).add("padding", "x".repeat(6200))));

    private final String code;
    private final String description;
    private final Function<Setting, TokenSpec> spec;

    TokenCase(String code, String description, Function<Setting, TokenSpec> spec) {
        this.code = code;
        this.description = description;
        this.spec = spec;
    }

    /** The 401's code, or null when Herald accepts the token. */
    String code() {
        return code;
    }

    String description() {
        return description;
    }

    /** The confusion attack needs a public key to misuse: it has no HS256 form. */
    boolean appliesTo(String alg) {
        return this != ALGORITHM_CONFUSION || !"HS256".equals(alg);
    }

    TokenSpec spec(Setting setting) {
        return spec.apply(setting);
    }

    private static JsonObjectBuilder claims(Setting setting) {
        return Json.createObjectBuilder().add("sub", "user-42").add("aud", setting.projectId())
                .add("iat", setting.now()).add("exp", setting.now() + 3600);
    }

    private static JsonObject kid(RegisteredKey key) {
        return Json.createObjectBuilder().add("kid", key.kid()).build();
    }

    private static String otherAlgorithm(String alg) {
        return switch (alg) {
            case "HS256", "EdDSA" -> "ES256";
            case "ES256" -> "EdDSA";
            default -> throw new IllegalArgumentException(alg);
        };
    }

    /**
     * What a library's tokens are made against: one project with its keys, at one instant.
     *
     * @param now            epoch seconds, Herald's clock
     * @param key            the key the valid tokens are signed with
     * @param revoked        a key of the same project and algorithm, revoked
     * @param foreign        a key of the same algorithm registered to the other project
     */
    record Setting(long now, String projectId, String otherProjectId, RegisteredKey key, RegisteredKey revoked,
                   RegisteredKey foreign) {

        TokenSpec signed(JsonObjectBuilder claims) {
            return new TokenSpec(key.signer(), kid(key), claims.build());
        }
    }
}
