package dev.herald.backup;

import java.util.HashMap;
import java.util.Map;

import dev.herald.account.Accounts;
import dev.herald.support.HeraldServerTest;
import dev.herald.support.RequiresMariaDb;
import dev.herald.support.TestDatabase;
import dev.herald.support.Tokens;

import io.helidon.http.Method;
import io.helidon.webclient.http1.Http1Client;
import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.testing.junit5.ServerTest;
import io.helidon.webserver.testing.junit5.SetUpServer;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;

/** On MariaDB the route backs nothing up: its answer names the database's own tools (docs/operations.md#backups). */
@RequiresMariaDb
@ServerTest
class BackupMariaDbTest extends HeraldServerTest {

    private final Http1Client http;

    BackupMariaDbTest(Http1Client http) {
        this.http = http;
    }

    @SetUpServer
    static void server(WebServerConfig.Builder server) {
        Map<String, String> settings = new HashMap<>(Accounts.settings());
        settings.put("admin.accounts.2.name", "olive");
        settings.put("admin.accounts.2.role", "owner");
        settings.put("admin.accounts.2.token-sha256", Tokens.sha256(BackupH2Test.OLIVE_TOKEN));
        startServer(TestDatabase.mariadb(), server, settings);
    }

    @Test
    void anOwnerIsToldToUseMariaDbsOwnTools() {
        Accounts.Answer answer = Accounts.send(http, Method.POST, "/backups", null,
                                               Map.of("Authorization", "Bearer " + BackupH2Test.OLIVE_TOKEN));

        assertThat(answer.body(), answer.status(), is(409));
        assertThat(answer.code(), is("NOT_H2"));
        assertThat(answer.object().getString("error"), containsString("mariadb-dump --single-transaction"));
        assertThat(answer.object().getString("error"), containsString("docs/operations.md#backups"));
    }
}
