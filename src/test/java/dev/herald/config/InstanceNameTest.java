package dev.herald.config;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

/**
 * An instance names itself by HOSTNAME where the environment sets it (containers), else by the kernel's host name:
 * on a VM, where bash does not export HOSTNAME and the systemd unit does not set it, every instance was "host".
 */
class InstanceNameTest {

    @Test
    void theHostsOwnNameWhereTheEnvironmentGivesNone() throws Exception {
        Path kernel = Path.of("/proc/sys/kernel/hostname");
        Assumptions.assumeTrue(Files.isReadable(kernel), "needs /proc (Linux)");
        String environment = System.getenv("HOSTNAME");
        String expected = environment != null && !environment.isBlank() ? environment : Files.readString(kernel).strip();
        assertThat(InstanceName.host(), is(expected));
    }
}
