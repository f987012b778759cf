package dev.herald.config;

import java.util.Optional;

/**
 * What an instance calls itself to the others (the schema lock's holder, a webhook delivery's claim): the name of
 * its container or host as the environment gives it ({@code HOSTNAME}, which container runtimes and Kubernetes set),
 * else {@code host}. Never a lookup: {@code InetAddress.getLocalHost()} resolves the host's name, and where that name
 * is not in {@code /etc/hosts} it waits for DNS, seconds at every start when DNS does not answer.
 */
public final class InstanceName {

    private InstanceName() {
    }

    public static String host() {
        return Optional.ofNullable(System.getenv("HOSTNAME")).filter(name -> !name.isBlank()).orElse("host");
    }
}
