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
    private final Credentials credentials;
    private final TeamStore team;
    private final SessionStore sessions;

    private AdminAccess(AdminAuthFilter filter, SessionService sessionService, TeamService teamService,
                        Credentials credentials, TeamStore team, SessionStore sessions) {
        this.filter = filter;
        this.sessionService = sessionService;
        this.teamService = teamService;
        this.credentials = credentials;
        this.team = team;
        this.sessions = sessions;
    }

    public static AdminAccess create(AdminSettings settings, DbClient db, ClientAddresses clients, Clock clock) {
        TeamStore team = new TeamStore(db, settings.accounts(), clock);
        Credentials credentials = Credentials.of(settings, team);
        SessionStore sessions = new SessionStore(db, settings.sessions(), credentials, clock);
        AuthFailures failures = new AuthFailures(settings.authFailures(), clock);
        return new AdminAccess(new AdminAuthFilter(credentials, sessions, clients, failures),
                               new SessionService(credentials, sessions, clients, failures),
                               new TeamService(team, clients, failures), credentials, team, sessions);
    }

    /**
     * The tokens and accounts ({@code admin.tokens}, {@code admin.accounts}) of a configuration reloaded while Herald
     * runs, already checked ({@link Credentials#of}): from the next request on, an added account signs in, a removed
     * one's token and sessions are refused, a changed role holds. The other {@code admin} settings (sessions,
     * auth-failures) are read at start only.
     */
    public void reconfigure(AdminSettings settings) {
        sessions.ending(credentials.reconfigure(settings));
        team.reconfigure(settings.accounts());
    }

    /**
     * After {@link #reconfigure}: deletes the sessions of removed accounts and replaced tokens, as a start does, so
     * that the account added back does not revive them.
     */
    public void endUnconfiguredSessions() {
        sessions.endUnconfigured();
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
