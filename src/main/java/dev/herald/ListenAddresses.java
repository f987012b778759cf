package dev.herald;

import java.io.IOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;

import io.helidon.webserver.WebServer;

/**
 * The ports Herald listens on, checked before anything starts and again once the server has started. Helidon 4.1.7
 * logs a port already in use, reports port -1 and carries on: Herald used to run its migrations, say it listened
 * on port -1, and exit 0 on the next signal, which a service manager's restart-on-failure takes for a clean stop.
 */
final class ListenAddresses {

    private ListenAddresses() {
    }

    /**
     * @param setting  the settings that name the address, for the message ({@code server.port}, with its variable)
     * @throws IllegalStateException naming the address and the setting when it cannot be bound
     */
    static void requireFree(String host, int port, String setting) {
        if (port == 0) {
            return;
        }
        try (ServerSocket probe = new ServerSocket()) {
            // As Helidon binds its listeners: a port in TIME_WAIT after a restart is free.
            probe.setReuseAddress(true);
            probe.bind(new InetSocketAddress(host, port));
        } catch (BindException e) {
            throw new IllegalStateException(host + ":" + port + " is already in use or not available here (" + setting
                    + "): stop what listens there, or choose another port");
        } catch (IOException e) {
            throw new IllegalStateException("Cannot listen on " + host + ":" + port + " (" + setting + "): "
                                                    + e.getMessage());
        }
    }

    /** After the start: a listener that could not bind has port -1 in Helidon 4.1.7. */
    static void requireListening(WebServer server, String socket, String setting) {
        if (server.port(socket) < 0) {
            throw new IllegalStateException("Could not listen for " + setting + " (the port was taken after the check"
                                                    + " at start, or the address is not this host's): see the line above");
        }
    }
}
