package dev.herald.account;

import java.time.Clock;

import dev.herald.ratelimit.ClientAddresses;

import io.helidon.dbclient.DbClient;
import io.helidon.webserver.http.Filter;
import io.helidon.webserver.http.HttpService;

/**
 * Who may use the management API, built once from {@code admin}: the filter on every admin route, the session routes
 * and the taking of invitations share one count of failed sign-ins per client, so guessing through any of them is
 * throttled alike.
 */
public final class AdminAccess {

    private final AdminAuthFilter filter;
    private final SessionService sessionService;
    private final TeamService teamService;
    private final SessionStore sessions;

    private AdminAccess(AdminAuthFilter filter, SessionService sessionService, TeamService teamService,
                        SessionStore sessions) {
        this.filter = filter;
        this.sessionService = sessionService;
        this.teamService = teamService;
        this.sessions = sessions;
    }

    public static AdminAccess create(AdminSettings settings, DbClient db, ClientAddresses clients, Clock clock) {
        TeamStore team = new TeamStore(db, settings.accounts(), clock);
        Credentials credentials = Credentials.of(settings, team);
        SessionStore sessions = new SessionStore(db, settings.sessions(), credentials, clock);
        AuthFailures failures = new AuthFailures(settings.authFailures(), clock);
        return new AdminAccess(new AdminAuthFilter(credentials, sessions, clients, failures),
                               new SessionService(credentials, sessions, clients, failures),
                               new TeamService(team, clients, failures), sessions);
    }

    /** Once the schema is current, before the first request: {@link SessionStore#start}. */
    public void start() {
        sessions.start();
    }

    public Filter filter() {
        return filter;
    }

    /** {@code /session} and {@code /sessions} under the management API. */
    public HttpService sessionService() {
        return sessionService;
    }

    /** {@code /accounts} and {@code /invites/accept} under the management API. */
    public HttpService teamService() {
        return teamService;
    }
}
