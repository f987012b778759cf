package dev.herald;

import java.time.Clock;
import java.util.List;

import dev.herald.account.AdminAccess;
import dev.herald.account.AdminAuthFilter;
import dev.herald.account.AdminSettings;
import dev.herald.cors.CorsFilter;
import dev.herald.cors.CorsSettings;
import dev.herald.ratelimit.ClientAddresses;
import dev.herald.ratelimit.RateLimitFilter;
import dev.herald.ratelimit.RateLimitSettings;
import dev.herald.ratelimit.RequestLimit;

import io.helidon.config.Config;

/**
 * The settings a reload of the configuration changes while Herald runs (docs/operations.md#changing-the-configuration-without-a-restart),
 * and the one holder of each: who may use the management API ({@code admin.tokens}, {@code admin.accounts}), the
 * origins CORS allows, the public and the management rate limits, and who is a trusted proxy. Each holder keeps its
 * settings in one volatile field that a request reads once; nothing is allocated for it. Every other setting is read
 * at start only.
 */
public final class LiveSettings {

    /** The settings read again at a reload, as the beginnings of their keys; a list's entries are below its key. */
    static final List<String> KEYS = List.of("admin.tokens", "admin.allow-short-tokens", "admin.accounts",
                                             "admin.rate-limit", "cors", "rate-limit");

    private final ClientAddresses clients;
    private final CorsFilter cors;
    private final RateLimitFilter publicRateLimit;
    private final RateLimitFilter managementRateLimit;
    private final AdminAccess admin;

    private LiveSettings(ClientAddresses clients, CorsFilter cors, RateLimitFilter publicRateLimit,
                         RateLimitFilter managementRateLimit, AdminAccess admin) {
        this.clients = clients;
        this.cors = cors;
        this.publicRateLimit = publicRateLimit;
        this.managementRateLimit = managementRateLimit;
        this.admin = admin;
    }

    static LiveSettings create(Config config, ClientAddresses clients, AdminAccess admin, Clock clock) {
        return new LiveSettings(clients, new CorsFilter(CorsSettings.from(config.get("cors"))),
                                new RateLimitFilter(RateLimitSettings.from(config.get("rate-limit")), clients, clock),
                                RateLimitFilter.management(RequestLimit.management(config.get("admin.rate-limit")),
                                                           clients, clock, AdminAuthFilter::presentsCredential),
                                admin);
    }

    /** Who a request comes from: the one instance every part of the server asks, so a reload changes it everywhere. */
    public ClientAddresses clients() {
        return clients;
    }

    public CorsFilter cors() {
        return cors;
    }

    public RateLimitFilter publicRateLimit() {
        return publicRateLimit;
    }

    /** {@code admin.rate-limit}. */
    public RateLimitFilter managementRateLimit() {
        return managementRateLimit;
    }

    /**
     * Applies the live settings of {@code config}, which {@link Main#checkSettings} found right: every one is read
     * before any is applied, so a mistake would change nothing. The counts of the rate limits and of failed sign-ins
     * go on; nothing is reset.
     */
    void apply(Config config) {
        RateLimitSettings rateLimit = RateLimitSettings.from(config.get("rate-limit"));
        RequestLimit managementLimit = RequestLimit.management(config.get("admin.rate-limit"));
        CorsSettings origins = CorsSettings.from(config.get("cors"));
        AdminSettings access = AdminSettings.from(config.get("admin"));
        clients.reconfigure(rateLimit);
        publicRateLimit.reconfigure(rateLimit.requestLimit());
        managementRateLimit.reconfigure(managementLimit);
        cors.reconfigure(origins);
        admin.reconfigure(access);
    }

    /** After {@link #apply} removed an account or replaced its token: deletes its sessions, as a start does. */
    void endUnconfiguredSessions() {
        admin.endUnconfiguredSessions();
    }
}
