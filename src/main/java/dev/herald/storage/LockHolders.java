package dev.herald.storage;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.herald.config.InstanceName;

/**
 * Names the schema lock's holders so that a holder whose process has ended is known at once, without waiting out
 * its lease, when it ran under the same kernel boot and in the same process namespace as the one that reads its name
 * (a VM or host where Herald restarts after its database failed mid-migration): there a process id says for certain
 * whether the process lives. Anywhere else (another host, another container, a system without {@code /proc}) only the
 * lease tells, and the name says nothing more than which instance it was.
 */
final class LockHolders {

    private static final Pattern PROCESS = Pattern.compile(" pid (\\d+) \\(boot ([0-9a-f-]{36}), pid namespace (\\d+)\\) ");
    private static final int HOST_SHOWN = 100;

    private final long pid;
    /** "(boot …, pid namespace …)", or empty where {@code /proc} does not say. */
    private final Optional<String> machine;

    private LockHolders(long pid, Optional<String> machine) {
        this.pid = pid;
        this.machine = machine;
    }

    static LockHolders ofThisProcess() {
        return new LockHolders(ProcessHandle.current().pid(), machine());
    }

    /** A new holder's name: host, process, machine where known, and a random tag that makes it unique. */
    String newName() {
        String host = InstanceName.host();
        if (host.length() > HOST_SHOWN) {
            host = host.substring(0, HOST_SHOWN);
        }
        return host + " pid " + pid + machine.map(known -> " " + known).orElse("") + " "
                + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt());
    }

    /**
     * Certain only here: the holder ran under this boot, in this process namespace, as another process than this one,
     * and no process has its id now. Its id taken again by another process, or this process's own, says "alive":
     * the lease decides then.
     */
    boolean hasEnded(String holder) {
        Matcher named = PROCESS.matcher(holder);
        if (machine.isEmpty() || !named.find()) {
            return false;
        }
        String holderMachine = "(boot " + named.group(2) + ", pid namespace " + named.group(3) + ")";
        long holderPid = Long.parseLong(named.group(1));
        return holderMachine.equals(machine.get()) && holderPid != pid
                && !ProcessHandle.of(holderPid).map(ProcessHandle::isAlive).orElse(false);
    }

    private static Optional<String> machine() {
        try {
            String boot = Files.readString(Path.of("/proc/sys/kernel/random/boot_id")).trim();
            String namespace = Files.readSymbolicLink(Path.of("/proc/self/ns/pid")).toString().replaceAll("\\D", "");
            if (!boot.matches("[0-9a-f-]{36}") || namespace.isEmpty()) {
                return Optional.empty();
            }
            return Optional.of("(boot " + boot + ", pid namespace " + namespace + ")");
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            return Optional.empty();
        }
    }
}
