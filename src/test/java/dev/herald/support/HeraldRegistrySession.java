package dev.herald.support;

import dev.herald.HelidonRegistry;

import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

/**
 * Runs the whole suite on the service registry Herald installs in production ({@link HelidonRegistry}), before any
 * test makes a server: a service Helidon looks up that the registry lacks fails some test with a 500, rather than a
 * user's request. (Registered in META-INF/services.)
 */
public final class HeraldRegistrySession implements LauncherSessionListener {

    @Override
    public void launcherSessionOpened(LauncherSession session) {
        HelidonRegistry.install();
    }
}
