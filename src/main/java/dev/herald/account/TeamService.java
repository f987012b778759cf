package dev.herald.account;

import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

import dev.herald.admin.Actor;
import dev.herald.admin.AdminRequests;
import dev.herald.admin.AdminResponses;
import dev.herald.admin.BodyFields;
import dev.herald.admin.Role;
import dev.herald.api.ApiException;
import dev.herald.api.ApiPaths;
import dev.herald.api.Json;
import dev.herald.api.RouteFallbacks;
import dev.herald.api.Timestamps;
import dev.herald.ratelimit.ClientAddresses;
import dev.herald.wire.RequestBodies;

import io.helidon.http.Status;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;

/**
 * The team (docs/api.md#team): an owner lists the accounts, those of the configuration read-only beside those made
 * in the console; invites a colleague with a one-time link; changes a role; disables or enables an account; resets
 * its credential (a new link). The colleague takes the link ({@code POST /invites/accept}) without a caller, counted
 * with the sign-ins' failures, and receives the account's token, shown this once.
 */
final class TeamService implements HttpService {

    /** As admin.accounts allows, but at most 64 characters: the audit log's target ids are no longer. */
    static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._@-]{0,63}");
    private static final BodyFields NEW_ACCOUNT = BodyFields.of("name", "role")
            .readOnly("source", "state", "createdBy", "createdAt", "inviteExpiresAt",
                      "inviteExpired", "invite");
    private static final BodyFields ACCOUNT_CHANGE = BodyFields.of("role", "disabled")
            .readOnly("name", "source", "state", "createdBy", "createdAt", "inviteExpiresAt",
                      "inviteExpired", "invite");
    private static final BodyFields ACCEPTANCE = BodyFields.of("secret");
    /** The console's page that takes an invitation: the secret in the fragment, which no request carries. */
    private static final String INVITE_PAGE = "/console/#/invite/";
    private static final List<String> ROLES = List.of(Role.OWNER.id(), Role.EDITOR.id(), Role.VIEWER.id());

    private final TeamStore team;
    private final ClientAddresses clients;
    private final AuthFailures failures;

    TeamService(TeamStore team, ClientAddresses clients, AuthFailures failures) {
        this.team = team;
        this.clients = clients;
        this.failures = failures;
    }

    @Override
    public void routing(HttpRules rules) {
        rules.get("/accounts", this::list)
                .head("/accounts", this::list)
                .post("/accounts", this::invite)
                .get("/accounts/{name}", this::get)
                .head("/accounts/{name}", this::get)
                .patch("/accounts/{name}", this::change)
                .post("/accounts/{name}/reset", this::reset)
                .post("/invites/accept", this::accept)
                .any("/accounts", RouteFallbacks.methodNotAllowed("GET, HEAD, POST"))
                .any("/accounts/{name}", RouteFallbacks.methodNotAllowed("GET, HEAD, PATCH"))
                .any("/accounts/{name}/reset", RouteFallbacks.methodNotAllowed("POST"))
                .any("/invites/accept", RouteFallbacks.methodNotAllowed("POST"));
    }

    /** The configuration's accounts first, in its order, then the console's by name. */
    private void list(ServerRequest request, ServerResponse response) {
        requireOwner(request);
        JsonArrayBuilder list = Json.builders().createArrayBuilder();
        team.configured().forEach(account -> list.add(configuredJson(account)));
        for (TeamStore.Member member : team.list()) {
            if (!isConfigured(member.name())) {
                list.add(team.json(member));
            }
        }
        AdminResponses.ok(request, response, list.build());
    }

    private void get(ServerRequest request, ServerResponse response) {
        requireOwner(request);
        String name = accountName(request);
        Optional<AccountSettings> configured = team.configured(name);
        if (configured.isPresent()) {
            AdminResponses.ok(request, response, configuredJson(configured.get()).build());
            return;
        }
        AdminResponses.ok(request, response, team.json(existing(name)).build());
    }

    private void invite(ServerRequest request, ServerResponse response) {
        Actor owner = requireOwner(request);
        JsonObject body = AdminRequests.body(request, NEW_ACCOUNT);
        // Not stripped: " olive" made "olive" (409 CONFIGURED_ACCOUNT), which hid what was sent; refused, it says so.
        String name = AdminRequests.optionalString(body, "name").orElse("");
        if (!name.equals(name.strip())) {
            throw ApiException.validation("name", "name has spaces around it: send the name alone");
        }
        if (!NAME.matcher(name).matches()) {
            throw ApiException.validation("name", "name is required: 1 to 64 letters, digits, '.', '_', '@' or '-',"
                    + " a letter or digit first");
        }
        Role role = role(body).orElseThrow(() -> AdminRequests.notOneOf("role", ROLES));
        TeamStore.Invite invite = team.invite(name, role, owner);
        AdminResponses.created(request, response, ApiPaths.ADMIN + "/accounts/" + name, withInvite(invite));
    }

    private void change(ServerRequest request, ServerResponse response) {
        Actor owner = requireOwner(request);
        String name = accountName(request);
        JsonObject body = AdminRequests.body(request, ACCOUNT_CHANGE);
        Optional<Role> role = role(body);
        Optional<Boolean> disabled = AdminRequests.optionalBoolean(body, "disabled");
        if (role.isEmpty() && disabled.isEmpty()) {
            throw ApiException.validation("role", "A change of an account takes role, disabled, or both");
        }
        TeamStore.Member changed = team.update(name, role, disabled, owner);
        AdminResponses.ok(request, response, team.json(changed).build());
    }

    private void reset(ServerRequest request, ServerResponse response) {
        Actor owner = requireOwner(request);
        TeamStore.Invite invite = team.reset(accountName(request), owner);
        AdminResponses.ok(request, response, withInvite(invite));
    }

    /**
     * Takes an invitation: its secret is all the caller has, so a wrong one is a failed authentication, counted as a
     * wrong token is, and one answer covers an unknown, used and expired secret alike.
     */
    private void accept(ServerRequest request, ServerResponse response) {
        AdminAuthFilter.refuseCrossSite(request, "An invitation");
        JsonObject body = AdminRequests.body(request, ACCEPTANCE, RequestBodies.MAX_SIGN_IN_BYTES);
        String secret = AdminRequests.optionalString(body, "secret").map(String::strip).orElse("");
        if (secret.isEmpty()) {
            throw ApiException.validation("secret", "secret is required: the part of the invitation link after"
                    + " #/invite/");
        }
        TeamStore.Accepted[] accepted = new TeamStore.Accepted[1];
        AuthFailures.Attempt attempt = failures.attempt(clients.clientOf(request), () -> {
            accepted[0] = team.accept(secret).orElse(null);
            return accepted[0] != null;
        });
        if (attempt.blocked()) {
            throw AuthFailures.blocked(response, attempt);
        }
        if (!attempt.authenticated()) {
            throw ApiException.error(Status.NOT_FOUND_404, "INVITE_NOT_VALID", "This invitation link is unknown,"
                    + " used already or expired; ask an owner for a new one");
        }
        AdminResponses.ok(request, response, Json.builders().createObjectBuilder()
                .add("name", accepted[0].account().name())
                .add("role", accepted[0].account().role().id())
                .add("token", accepted[0].token())
                .build());
    }

    /**
     * The account a path names, or 404 when no account can have that name: MariaDB compares names ignoring trailing
     * spaces, and {@code dave%20} found dave, changed him, and then answered 500 when the name read back differed.
     */
    private static String accountName(ServerRequest request) {
        String name = request.path().pathParameters().get("name");
        if (!NAME.matcher(name).matches()) {
            throw AdminRequests.notFound("Account");
        }
        return name;
    }

    private TeamStore.Member existing(String name) {
        return team.find(name).filter(member -> !isConfigured(member.name()))
                .orElseThrow(() -> AdminRequests.notFound("Account"));
    }

    private boolean isConfigured(String name) {
        return team.configured(name).isPresent();
    }

    private static Actor requireOwner(ServerRequest request) {
        return Actor.owner(request, "manages the team");
    }

    private static Optional<Role> role(JsonObject body) {
        return AdminRequests.optionalChoice(body.get("role"), "role", ROLES).flatMap(Role::of);
    }

    /** The account, and its invitation: the secret shown this once. */
    private JsonObject withInvite(TeamStore.Invite invite) {
        return team.json(invite.member())
                .add("invite", Json.builders().createObjectBuilder()
                        .add("secret", invite.secret())
                        .add("path", INVITE_PAGE + invite.secret())
                        .add("expiresAt", Timestamps.format(invite.expiresAt())))
                .build();
    }

    private static JsonObjectBuilder configuredJson(AccountSettings account) {
        return Json.builders().createObjectBuilder()
                .add("name", account.name())
                .add("role", account.role().id())
                .add("source", "configuration")
                .add("state", "active");
    }
}
