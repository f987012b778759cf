package dev.herald;

import dev.herald.startup.Ahead;

import io.helidon.common.SerializationConfig;
import io.helidon.common.mapper.DefaultMapperProvider__ServiceDescriptor;
import io.helidon.common.mapper.MappersFactory__ServiceDescriptor;
import io.helidon.metrics.api.MeterRegistryFactory__ServiceDescriptor;
import io.helidon.metrics.api.MetricsFactoryFactory__ServiceDescriptor;
import io.helidon.service.registry.GlobalServiceRegistry;
import io.helidon.service.registry.ServiceRegistryConfig;
import io.helidon.service.registry.ServiceRegistryManager;

/**
 * Helidon 4.5's global service registry, made before Helidon makes its own. Helidon creates it at the first use of
 * its mappers (the routing's path matchers, the DB Client's columns), and by default reads the service metadata of
 * every module in the image and instantiates each descriptor by reflection: work a start paid that Helidon 4.1.7
 * did not do (docs/performance.md). Its ServiceLoader lists are not read either: without them the registry is made
 * without looking at any module's metadata, which was 9 % of the main thread's start (a JFR profile, issue 33). Herald injects nothing; what Helidon itself looks up in the registry at run
 * time is listed here: the mapper manager and its fallback provider (query and path parameters, the DB Client),
 * and the metrics factories of its concurrency limits. A contract missing here fails the request that looks it up
 * with a 500 naming it ({@code ServiceRegistryException: There is no service in registry that matches this
 * lookup}); the training run of the start-up cache (jlink/Train.java) and jlink/check.sh go through every route.
 */
public final class HelidonRegistry {

    private HelidonRegistry() {
    }

    /**
     * {@link #install()}, to begin beside the set-up of logging, which uses its own service loading and not the
     * registry; it must be done before anything else of Helidon's starts.
     */
    static Ahead<Void> installing() {
        return new Ahead<>(() -> {
            install();
            return null;
        });
    }

    /**
     * The JVM's deserialisation filter, set as Helidon's server sets it at its start, with Helidon's own defaults
     * (which the server's start then finds in place): reading every module's metadata for them took 8 ms of the
     * main thread just before listening.
     */
    static Ahead<Void> serialFilter() {
        return new Ahead<>(() -> {
            SerializationConfig.configureRuntime();
            return null;
        });
    }

    /** Before anything of Helidon's but logging. */
    public static void install() {
        ServiceRegistryConfig config = ServiceRegistryConfig.builder()
                .discoverServices(false)
                .discoverServicesFromServiceLoader(false)
                .addServiceDescriptor(MappersFactory__ServiceDescriptor.INSTANCE)
                .addServiceDescriptor(DefaultMapperProvider__ServiceDescriptor.INSTANCE)
                .addServiceDescriptor(MeterRegistryFactory__ServiceDescriptor.INSTANCE)
                .addServiceDescriptor(MetricsFactoryFactory__ServiceDescriptor.INSTANCE)
                .build();
        GlobalServiceRegistry.registry(ServiceRegistryManager.create(config).registry());
    }
}
