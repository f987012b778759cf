package dev.herald.account;

import java.time.Clock;

import dev.herald.ratelimit.ClientAddresses;

import io.helidon.dbclient.DbClient;
import io.helidon.webserver.http.Filter;
import io.helidon.webserver.http.HttpService;

/**
 * Who may use the management API, built once from {@code admin}: the filter on every admin route and the session
 * routes share one count of failed sign-ins per client, so guessing through either is throttled alike.
 */
public final class AdminAccess {

    private final AdminAuthFilter filter;
    private final SessionService sessionService;
    private final SessionStore sessions;

    private AdminAccess(AdminAuthFilter filter, SessionService sessionService, SessionStore sessions) {
        this.filter = filter;
        this.sessionService = sessionService;
        this.sessions = sessions;
    }

    public static AdminAccess create(AdminSettings settings, DbClient db, ClientAddresses clients, Clock clock) {
        Credentials credentials = Credentials.of(settings);
        SessionStore sessions = new SessionStore(db, settings.sessions(), credentials, clock);
        AuthFailures failures = new AuthFailures(settings.authFailures(), clock);
        return new AdminAccess(new AdminAuthFilter(credentials, sessions, clients, failures),
                               new SessionService(credentials, sessions, clients, failures), sessions);
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
}
