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
     * @param hostSetting the setting that names the host, with its variable ({@code server.host, SERVER_HOST})
     * @param portSetting the setting that names the port, with its variable
     * @throws IllegalStateException naming the address and the setting when it cannot be bound
     */
    static void requireFree(String host, int port, String hostSetting, String portSetting) {
        InetSocketAddress address = new InetSocketAddress(host, port);
        if (address.isUnresolved()) {
            throw new IllegalStateException(host + " is not a name or address this host can resolve (" + hostSetting
                    + ")");
        }
        if (port == 0) {
            return;
        }
        try (ServerSocket probe = new ServerSocket()) {
            // As Helidon binds its listeners: a port in TIME_WAIT after a restart is free.
            probe.setReuseAddress(true);
            probe.bind(address);
        } catch (BindException e) {
            throw refusal(e, host, port, hostSetting, portSetting);
        } catch (IOException e) {
            throw new IllegalStateException("Cannot listen on " + host + ":" + port + " (" + hostSetting + ", "
                    + portSetting + "): " + e.getMessage());
        }
    }

    /** What the system's refusal to bind means, in the operator's terms. */
    static IllegalStateException refusal(BindException e, String host, int port, String hostSetting,
                                         String portSetting) {
        String reason = String.valueOf(e.getMessage());
        if (reason.contains("assign requested address")) {
            return new IllegalStateException(host + " is not an address of this host (" + hostSetting
                    + "): use one of its own, or 0.0.0.0 for all");
        }
        if (reason.contains("Permission denied") || reason.contains("Access denied")) {
            return new IllegalStateException("This user may not listen on port " + port + " (" + portSetting + "): "
                    + "ports below 1024 need root or the capability CAP_NET_BIND_SERVICE; choose a port from 1024 "
                    + "(8080) and publish it as " + port + " with a proxy or the container's port mapping");
        }
        if (reason.contains("already in use")) {
            return new IllegalStateException(host + ":" + port + " is already in use (" + portSetting
                    + "): stop what listens there, or choose another port");
        }
        return new IllegalStateException("Cannot listen on " + host + ":" + port + " (" + hostSetting + ", "
                + portSetting + "): " + reason);
    }

    /** The two listeners cannot share a port; Helidon would bind one, fail the other, and say so in a stack trace. */
    static void requireDistinct(int port, int observePort) {
        if (port != 0 && port == observePort) {
            throw new IllegalStateException("server.port (SERVER_PORT) and observe.port (OBSERVE_PORT) are both " + port
                    + ": the public API and the operations listener need a port each");
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
