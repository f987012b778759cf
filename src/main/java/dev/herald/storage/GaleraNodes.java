package dev.herald.storage;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.function.Function;

/**
 * What Herald asks of the driver when its URL names several nodes of a Galera cluster.
 *
 * <p>Only nodes in step with the majority are worth a connection. A node cut off from the others still accepts
 * connections and then refuses every statement ({@code WSREP has not yet prepared node for application use}); in
 * sequential order the driver connects to it first whenever it is first in the URL. Measured on cluster/run.sh with
 * node 1 isolated: an instance that started then exited with {@code Schema migration failed}, and each new
 * connection of a running one cost a request its 500. The driver's {@code galeraAllowedState=4} has it check the
 * node's state as it connects (and in {@code isValid}, which the pool calls) and move on to the next node.
 *
 * <p>And a write through one instance is read at once through every other ({@code wsrep_sync_wait=1}): Galera
 * applies a transaction on the other nodes after it commits on its own, and instances write through different
 * nodes for a while after a failover (connections made before it stay where they are, new ones go to the first
 * node that is Synced again).
 *
 * <p>Each is added only when the URL or a {@code dataSource} setting does not name it, and only for a URL of
 * several hosts on a Galera node: on one server {@code galeraAllowedState} refuses every connection (no Galera state
 * to read).
 */
final class GaleraNodes {

    /** {@code wsrep_local_state} of a node in the primary component and in step with it. */
    private static final String SYNCED = "4";
    private static final Map<String, String> OPTIONS = DriverOptions.of("galeraAllowedState", SYNCED,
                                                                        "sessionVariables", "wsrep_sync_wait=1");

    private GaleraNodes() {
    }

    /**
     * The settings to serve with: those given, or, on a Galera node with several in the URL, the same with the
     * options above that they do not name added to the URL.
     */
    static Map<String, String> servingSettings(Connection connection, Map<String, String> settings,
                                               Function<String, String> named) throws SQLException {
        if (!Database.namesSeveralHosts(settings.get("connection.url"))
                || !"ON".equalsIgnoreCase(value(connection, named.apply("show-wsrep-on")))) {
            return settings;
        }
        Map<String, String> galera = DriverOptions.added(settings, OPTIONS);
        return galera == settings ? settings : Map.copyOf(galera);
    }

    /** The options the settings do not name, as URL parameters: {@code a=1&b=2}, or empty. */
    static String added(Map<String, String> settings) {
        return DriverOptions.missing(settings, OPTIONS);
    }

    /** Whether the node of this connection is Synced. */
    static boolean synced(Connection connection, Function<String, String> named) throws SQLException {
        return SYNCED.equals(value(connection, named.apply("show-wsrep-local-state")));
    }

    /** The value column of a one-row {@code SHOW … LIKE}, or null when the server has no such variable. */
    private static String value(Connection connection, String show) throws SQLException {
        try (Statement statement = connection.createStatement(); ResultSet row = statement.executeQuery(show)) {
            return row.next() ? row.getString(2) : null;
        }
    }
}
