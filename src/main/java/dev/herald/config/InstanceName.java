package dev.herald.config;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * What an instance calls itself to the others (the schema lock's holder, a webhook delivery's claim): the name of
 * its container or host as the environment gives it ({@code HOSTNAME}, which container runtimes and Kubernetes set),
 * else the kernel's host name ({@code /proc/sys/kernel/hostname}: bash does not export {@code HOSTNAME}, and a
 * systemd unit does not set it, so every VM of a fleet was "host"), else {@code host}. Never a lookup:
 * {@code InetAddress.getLocalHost()} resolves the host's name, and where that name is not in {@code /etc/hosts} it
 * waits for DNS, seconds at every start when DNS does not answer.
 */
public final class InstanceName {

    private static final Path KERNEL_HOST_NAME = Path.of("/proc/sys/kernel/hostname");

    private InstanceName() {
    }

    public static String host() {
        return Optional.ofNullable(System.getenv("HOSTNAME")).filter(name -> !name.isBlank())
                .or(InstanceName::kernelHostName).orElse("host");
    }

    private static Optional<String> kernelHostName() {
        try {
            return Optional.of(Files.readString(KERNEL_HOST_NAME).strip()).filter(name -> !name.isEmpty());
        } catch (IOException | SecurityException e) {
            return Optional.empty();
        }
    }
}
