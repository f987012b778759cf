package dev.herald.backup;

import java.time.Clock;
import java.time.Duration;
import java.util.Locale;

import dev.herald.admin.Actor;
import dev.herald.admin.AdminResponses;
import dev.herald.api.ApiException;
import dev.herald.api.Json;
import dev.herald.api.RouteFallbacks;
import dev.herald.audit.AuditEntry;
import dev.herald.audit.AuditLog;
import dev.herald.config.ConfigValues;
import dev.herald.storage.Dialect;
import dev.herald.storage.Transactions;

import io.helidon.config.Config;
import io.helidon.dbclient.DbClient;
import io.helidon.http.Status;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

import jakarta.json.JsonObject;

/**
 * {@code POST /backups} (docs/api.md#backups): an owner has the embedded H2 database backed up into
 * {@code db.backup.directory} on the server, and is told the file's name. The backup is never sent over HTTP: it
 * holds every token's and session's hash, and a database of gigabytes would pass through the server's memory. On
 * MariaDB the database's own tools back it up, consistent across tables without stopping Herald.
 */
public final class BackupService implements HttpService {

    /** Why this database is not backed up here: null when it is (a file of embedded H2). */
    private final ApiException refusal;
    private final DbClient db;
    private final OnlineBackup backup;
    private final Clock clock;

    BackupService(ApiException refusal, DbClient db, OnlineBackup backup, Clock clock) {
        this.refusal = refusal;
        this.db = db;
        this.backup = backup;
        this.clock = clock;
    }

    /**
     * @param dbSettings  {@code db}: its URL says which database, {@code backup.*} where backups go and how many stay
     * @param readTimeout {@code limits.read-timeout}: the server cuts a request at it, so the answer comes sooner
     */
    public static BackupService create(DbClient db, Config dbSettings, Duration readTimeout, Clock clock) {
        String url = ConfigValues.string(dbSettings.get("connection.url")).orElse("");
        Dialect dialect = Dialect.of(url);
        ApiException refusal = null;
        if (dialect != Dialect.H2) {
            refusal = ApiException.error(Status.CONFLICT_409, "NOT_H2", "Herald runs on " + dialect.displayName()
                    + ": back it up with mariadb-dump --single-transaction or mariabackup (tools/backup.sh,"
                    + " docs/operations.md#backups); this route backs up the embedded H2 database");
        } else if (url.toLowerCase(Locale.ROOT).startsWith("jdbc:h2:mem:")) {
            refusal = ApiException.error(Status.CONFLICT_409, "NOT_PERSISTENT", "Herald runs on an in-memory H2"
                    + " database: nothing of it outlives the process, and there is no file to back up");
        }
        return new BackupService(refusal, db, new OnlineBackup(db, BackupSettings.from(dbSettings.get("backup")),
                                                               readTimeout, clock), clock);
    }

    @Override
    public void routing(HttpRules rules) {
        rules.post("/backups", this::take)
                .any("/backups", RouteFallbacks.methodNotAllowed("POST"));
    }

    /**
     * 201 with the file when the backup ends within the wait, else 202: it goes on, and the log and the audit tell
     * of its end. Audited once the file is complete, in a transaction of its own: the backup holds no line about
     * itself.
     */
    private void take(ServerRequest request, ServerResponse response) {
        Actor owner = Actor.owner(request, "backs up the database");
        if (refusal != null) {
            throw refusal;
        }
        OnlineBackup.Outcome outcome = backup.take(taken -> audit(owner, taken));
        if (!outcome.done()) {
            AdminResponses.accepted(request, response, Json.builders().createObjectBuilder()
                    .add("file", outcome.file())
                    .add("status", "running")
                    .build());
            return;
        }
        OnlineBackup.Taken taken = outcome.taken();
        JsonObject answer = Json.builders().createObjectBuilder()
                .add("file", taken.file())
                .add("bytes", taken.bytes())
                .add("tookMs", taken.tookMillis())
                .build();
        AdminResponses.created(request, response, answer);
    }

    private void audit(Actor owner, OnlineBackup.Taken taken) {
        long now = clock.millis();
        Transactions.run(db, transaction -> AuditLog.record(transaction, AuditEntry.of(
                owner, now, "database.backed-up", null, "backup", taken.file(),
                Json.builders().createObjectBuilder().add("bytes", taken.bytes()).build())));
    }
}
