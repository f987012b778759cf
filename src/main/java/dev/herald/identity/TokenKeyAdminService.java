package dev.herald.identity;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.Base64;

import dev.herald.admin.Actor;
import dev.herald.admin.AdminRequests;
import dev.herald.admin.AdminResponses;
import dev.herald.admin.BodyFields;
import dev.herald.admin.Ids;
import dev.herald.admin.PageRequest;
import dev.herald.api.ApiException;
import dev.herald.api.Json;
import dev.herald.api.Timestamps;
import dev.herald.api.RouteFallbacks;
import dev.herald.audit.AuditEntry;
import dev.herald.project.Project;
import dev.herald.project.ProjectAdminService;
import dev.herald.project.ProjectStore;

import io.helidon.dbclient.DbClient;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

/**
 * Token keys in the management API (docs/api.md, Token keys): make an HS256 secret (shown once, in the answer that
 * made it), register an ES256 or EdDSA public key, list, revoke. A revoked key stops verifying at once on this
 * instance and within the change log's staleness on the others.
 */
public final class TokenKeyAdminService implements HttpService {

    private static final BodyFields NEW_KEY = BodyFields.of("algorithm", "publicKey")
            .readOnly("kid", "projectId", "secret", "createdAt", "revokedAt");
    private static final String TARGET = "token-key";
    private static final int SECRET_BYTES = 32;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final ProjectStore projects;
    private final TokenKeyStore keys;
    private final Clock clock;

    public TokenKeyAdminService(DbClient db, UserTokens tokens, Clock clock) {
        this.projects = new ProjectStore(db);
        this.keys = tokens.store();
        this.clock = clock;
    }

    @Override
    public void routing(HttpRules rules) {
        rules.post("/projects/{projectId}/token-keys", this::create)
                .get("/projects/{projectId}/token-keys", this::list)
                .head("/projects/{projectId}/token-keys", this::list)
                .delete("/token-keys/{kid}", this::revoke)
                .any("/projects/{projectId}/token-keys", RouteFallbacks.methodNotAllowed("GET, HEAD, POST"))
                .any("/token-keys/{kid}", RouteFallbacks.methodNotAllowed("DELETE"));
    }

    private void create(ServerRequest request, ServerResponse response) {
        Project project = ProjectAdminService.existing(projects, request.path().pathParameters().get("projectId"));
        JsonObject body = AdminRequests.body(request, NEW_KEY);
        TokenAlgorithm algorithm = AdminRequests.optionalChoice(body.get("algorithm"), "algorithm",
                                                                 TokenAlgorithm.wireNames())
                .flatMap(TokenAlgorithm::fromWireName)
                .orElseThrow(() -> ApiException.validation("algorithm", "algorithm is required: one of "
                        + String.join(", ", TokenAlgorithm.wireNames()), TokenAlgorithm.wireNames()));
        JsonValue publicKey = body.get("publicKey");
        String secret = null;
        String jwk = null;
        if (algorithm == TokenAlgorithm.HS256) {
            if (publicKey != null && publicKey != JsonValue.NULL) {
                throw ApiException.validation(PublicKeys.FIELD, "HS256 takes no publicKey: Herald makes the secret");
            }
            byte[] bytes = new byte[SECRET_BYTES];
            RANDOM.nextBytes(bytes);
            secret = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
        } else {
            jwk = registered(algorithm, publicKey);
        }
        TokenKey created = new TokenKey(Ids.newId(), project.id(), algorithm, secret, jwk, clock.millis(), null);
        keys.create(created, AuditEntry.of(Actor.of(request), created.createdAt(), "token-key.created", project.id(),
                                           TARGET, created.kid(), json(created, false)));
        AdminResponses.created(request, response, "/api/v1/admin/token-keys/" + created.kid(),
                               json(created, true));
    }

    private void list(ServerRequest request, ServerResponse response) {
        Project project = ProjectAdminService.existing(projects, request.path().pathParameters().get("projectId"));
        AdminResponses.page(request, response, keys.listByProject(project.id(), PageRequest.of(request)),
                            key -> json(key, false));
    }

    private void revoke(ServerRequest request, ServerResponse response) {
        TokenKey key = keys.find(request.path().pathParameters().get("kid"))
                .orElseThrow(() -> AdminRequests.notFound("Token key"));
        long now = clock.millis();
        keys.revoke(key, now, AuditEntry.of(Actor.of(request), now, "token-key.revoked", key.projectId(), TARGET,
                                            key.kid(), Json.builders().createObjectBuilder().build()));
        AdminResponses.noContent(response);
    }

    /** The public key as registered: a JWK object, or a PEM string. */
    private static String registered(TokenAlgorithm algorithm, JsonValue publicKey) {
        if (publicKey instanceof JsonObject jwk) {
            return PublicKeys.fromJwkText(algorithm, jwk.toString());
        }
        if (publicKey instanceof JsonString pem) {
            return PublicKeys.fromPem(algorithm, pem.getString());
        }
        throw ApiException.validation(PublicKeys.FIELD, "publicKey is required for " + algorithm.name()
                + ": a public JWK object or a PEM \"PUBLIC KEY\" string");
    }

    /** @param withSecret true only in the answer that made the key: the secret is never shown again */
    static JsonObject json(TokenKey key, boolean withSecret) {
        JsonObjectBuilder json = Json.builders().createObjectBuilder()
                .add("kid", key.kid())
                .add("projectId", key.projectId())
                .add("algorithm", key.algorithm().name());
        if (withSecret && key.secret() != null) {
            json.add("secret", key.secret());
        } else {
            json.addNull("secret");
        }
        if (key.publicKey() == null) {
            json.addNull("publicKey");
        } else {
            json.add("publicKey", Json.parseObject(key.publicKey().getBytes(StandardCharsets.UTF_8)).orElseThrow());
        }
        json.add("createdAt", Timestamps.format(key.createdAt()));
        if (key.revokedAt() == null) {
            json.addNull("revokedAt");
        } else {
            json.add("revokedAt", Timestamps.format(key.revokedAt()));
        }
        return json.build();
    }
}
