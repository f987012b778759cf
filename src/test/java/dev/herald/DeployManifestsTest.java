package dev.herald;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.herald.config.KnownSettings;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.greaterThanOrEqualTo;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.lessThan;

/**
 * The deployment files agree with the image and with Herald: no cluster or compose runs here (.ci/container runs
 * the image itself), so what can drift apart silently is checked here. The Kubernetes manifest runs the image's
 * user, read-only, with its probes on the operations port that its configuration opens, and settings Herald knows;
 * the compose file publishes the public port only; the Containerfile's last stage is the minimal base; the Galera
 * topology's files keep the choices docs/scale-out.md argues for.
 */
class DeployManifestsTest {

    private static final Pattern CONTAINERFILE_USER = Pattern.compile("(?m)^USER (\\d+):(\\d+)$");
    private static final Pattern MEBIBYTES = Pattern.compile("(\\d+)Mi");

    @Test
    void kubernetesRunsTheImagesUserReadOnlyWithProbesOnTheOperationsPort() throws IOException {
        List<Map<String, Object>> documents = kubernetes();
        assertThat(documents.stream().map(document -> document.get("kind")).toList(),
                is(List.of("Secret", "ConfigMap", "Deployment", "Service", "NetworkPolicy")));
        Map<String, Object> pod = map(map(map(documents.get(2), "spec"), "template"), "spec");
        Map<String, Object> podSecurity = map(pod, "securityContext");
        assertThat(podSecurity.get("runAsNonRoot"), is(true));
        Matcher user = CONTAINERFILE_USER.matcher(Files.readString(Path.of("Containerfile")));
        assertThat("USER in the Containerfile", user.find(), is(true));
        assertThat(podSecurity.get("runAsUser"), is(Integer.parseInt(user.group(1))));
        assertThat(podSecurity.get("runAsGroup"), is(Integer.parseInt(user.group(2))));

        Map<String, Object> container = map(list(pod, "containers").getFirst());
        Map<String, Object> security = map(container, "securityContext");
        assertThat(security.get("readOnlyRootFilesystem"), is(true));
        assertThat(security.get("allowPrivilegeEscalation"), is(false));

        Map<String, Object> config = herald(documents.get(1));
        int observePort = (Integer) map(config, "observe").get("port");
        int serverPort = (Integer) map(config, "server").get("port");
        assertThat(containerPort(container, "observe"), is(observePort));
        assertThat(containerPort(container, "http"), is(serverPort));
        assertThat(probe(container, "livenessProbe"), is(List.of("/observe/health/live", "observe")));
        assertThat(probe(container, "readinessProbe"), is(List.of("/observe/health/ready", "observe")));
        assertThat(probe(container, "startupProbe"), is(List.of("/observe/health/live", "observe")));

        Map<String, Object> resources = map(container, "resources");
        int request = mebibytes(map(resources, "requests").get("memory"));
        int limit = mebibytes(map(resources, "limits").get("memory"));
        // The peak measured under a saturating load (docs/performance.md): 187 MiB.
        assertThat(request, greaterThanOrEqualTo(187));
        assertThat(limit, greaterThanOrEqualTo(request));
    }

    @Test
    void theServicePublishesThePublicPortOnly() throws IOException {
        Map<String, Object> service = kubernetes().get(3);
        List<Object> ports = list(map(service, "spec"), "ports");
        assertThat(ports.size(), is(1));
        assertThat(map(ports.getFirst()).get("targetPort"), is("http"));
    }

    /** Any pod could otherwise reach the unauthenticated operations port; the public port stays open to all. */
    @Test
    void theNetworkPolicyLetsOnlyTheScraperReachTheOperationsPort() throws IOException {
        Map<String, Object> policy = kubernetes().get(4);
        Map<String, Object> spec = map(policy, "spec");
        assertThat(map(map(spec, "podSelector"), "matchLabels"), is(Map.of("app.kubernetes.io/name", "herald")));
        assertThat(spec.get("policyTypes"), is(List.of("Ingress")));
        List<Object> rules = list(spec, "ingress");
        assertThat(rules.size(), is(2));
        Map<String, Object> open = map(rules.get(0));
        assertThat("the public port, from anywhere", open.containsKey("from"), is(false));
        assertThat(list(open, "ports"), is(List.of(Map.of("port", "http"))));
        Map<String, Object> operations = map(rules.get(1));
        assertThat(list(operations, "ports"), is(List.of(Map.of("port", "observe"))));
        assertThat("the operations port, from named pods only", list(operations, "from").isEmpty(), is(false));
        assertThat(map(map(list(operations, "from").getFirst()), "podSelector").isEmpty(), is(false));
    }

    @Test
    void theConfigMapHoldsOnlySettingsHeraldKnowsAndNoSecret() throws IOException {
        List<Map<String, Object>> documents = kubernetes();
        Map<String, Object> config = herald(documents.get(1));
        List<String> keys = new ArrayList<>();
        flatten("", config, keys);
        assertThat(KnownSettings.bundled().check(keys, key -> "deploy/kubernetes.yaml", true), is(empty()));
        assertThat(keys.stream().filter(key -> key.contains("password") || key.contains("tokens")).toList(), is(empty()));
        // A placeholder left as it is must stop the start: Herald refuses admin tokens under 32 characters.
        String tokens = (String) map(documents.getFirst(), "stringData").get("ADMIN_TOKENS");
        assertThat(tokens.length(), lessThan(32));
    }

    @Test
    void composeRunsHeraldReadOnlyAfterMariaDbAndPublishesThePublicPortOnly() throws IOException {
        Map<String, Object> compose = new Yaml().load(Files.readString(Path.of("deploy/compose.yaml")));
        Map<String, Object> services = map(compose, "services");
        Map<String, Object> herald = map(services, "herald");
        assertThat(herald.get("read_only"), is(true));
        assertThat(herald.get("ports"), is(List.of("8080:8080")));
        assertThat(map(map(herald, "depends_on"), "mariadb").get("condition"), is("service_healthy"));
        assertThat((String) map(herald, "environment").get("DB_CONNECTION_URL"),
                containsString("//mariadb:3306/"));
        assertThat(map(services, "mariadb").containsKey("healthcheck"), is(true));
    }

    /**
     * The Galera topology (docs/scale-out.md): every instance names the three nodes in one order, sequentially, so
     * that the cluster has one writer node; the balancer hashes clients by address and is the one proxy Herald
     * trusts, so that the per-client rate limit stays exact; nothing but the balancer is published.
     */
    @Test
    void composeGaleraGivesEveryInstanceTheNodesInOneOrderBehindAHashingBalancerItTrusts() throws IOException {
        Map<String, Object> compose = new Yaml().load(Files.readString(Path.of("deploy/compose-galera.yaml")));
        Map<String, Object> services = map(compose, "services");
        Map<String, Object> balancer = map(services, "balancer");
        String balancerAddress = (String) map(map(balancer, "networks"), "default").get("ipv4_address");
        String nginx = (String) map(map(compose, "configs"), "balancer").get("content");
        assertThat(balancer.get("ports"), is(List.of("8080:8080")));
        assertThat(nginx, containsString("hash $$remote_addr consistent;"));
        assertThat(nginx, containsString("proxy_set_header X-Forwarded-For $$remote_addr;"));
        for (String instance : List.of("herald-1", "herald-2", "herald-3")) {
            Map<String, Object> herald = map(services, instance);
            Map<String, Object> environment = map(herald, "environment");
            assertThat(instance, environment.get("DB_CONNECTION_URL"),
                       is("jdbc:mariadb:sequential://galera-1:3306,galera-2:3306,galera-3:3306/herald"));
            assertThat(instance, environment.get("RATE_DASH_LIMIT_TRUSTED_DASH_PROXIES"), is(balancerAddress));
            assertThat(instance, herald.containsKey("ports"), is(false));
            assertThat(herald.get("read_only"), is(true));
            for (String node : List.of("galera-1", "galera-2", "galera-3")) {
                assertThat(map(map(herald, "depends_on"), node).get("condition"), is("service_healthy"));
            }
            assertThat(nginx, containsString("server " + instance + ":8080"));
        }
    }

    @Test
    void kubernetesGaleraKnowsItsSettingsHashesByAddressAndKeepsTwoInstancesAndTwoNodes() throws IOException {
        List<Map<String, Object>> documents = new ArrayList<>();
        for (Object document : new Yaml().loadAll(Files.readString(Path.of("deploy/kubernetes-galera.yaml")))) {
            documents.add(map(document));
        }
        Map<String, Object> configMap = kind(documents, "ConfigMap", "herald");
        Map<String, Object> config = herald(configMap);
        List<String> keys = new ArrayList<>();
        flatten("", config, keys);
        assertThat(KnownSettings.bundled().check(keys, key -> "deploy/kubernetes-galera.yaml", true), is(empty()));
        assertThat(map(map(config, "db"), "connection").get("url"), is("jdbc:mariadb:sequential://galera-0.galera:3306,"
                + "galera-1.galera:3306,galera-2.galera:3306/herald"));
        assertThat(map(map(kind(documents, "Ingress", "herald"), "metadata"), "annotations")
                           .get("nginx.ingress.kubernetes.io/upstream-hash-by"), is("$remote_addr"));
        assertThat(map(kind(documents, "Deployment", "herald"), "spec").get("replicas"), is(3));
        assertThat(map(kind(documents, "StatefulSet", "galera"), "spec").get("replicas"), is(3));
        Map<String, Object> container = map(list(map(map(map(kind(documents, "Deployment", "herald"), "spec"),
                                                         "template"), "spec"), "containers").getFirst());
        assertThat(probe(container, "readinessProbe"), is(List.of("/observe/health/ready", "observe")));
        assertThat(map(kind(documents, "PodDisruptionBudget", "herald"), "spec").get("minAvailable"), is(2));
        assertThat(map(kind(documents, "PodDisruptionBudget", "galera"), "spec").get("maxUnavailable"), is(1));
    }

    private static Map<String, Object> kind(List<Map<String, Object>> documents, String kind, String name) {
        return documents.stream()
                .filter(document -> kind.equals(document.get("kind")) && name.equals(map(document, "metadata").get("name")))
                .findFirst().orElseThrow(() -> new AssertionError("no " + kind + " " + name));
    }

    @Test
    void theContainerfileRunsOnTheMinimalBaseAsTheServiceUser() throws IOException {
        String containerfile = Files.readString(Path.of("Containerfile"));
        List<String> stages = Pattern.compile("(?m)^FROM (\\S+)").matcher(containerfile).results()
                .map(match -> match.group(1)).toList();
        assertThat(stages.getLast(), is("scratch"));
        assertThat(containerfile, containsString("COPY --from=runtime-base /rootfs/ /"));
        assertThat(containerfile, containsString("HEALTHCHECK"));
        assertThat(containerfile, containsString("/observe/health/ready"));
        assertThat(containerfile, containsString("--chown=10001:10001 /herald-data/ /var/lib/herald/"));
    }

    private static List<Map<String, Object>> kubernetes() throws IOException {
        List<Map<String, Object>> documents = new ArrayList<>();
        for (Object document : new Yaml().loadAll(Files.readString(Path.of("deploy/kubernetes.yaml")))) {
            documents.add(map(document));
        }
        return documents;
    }

    private static Map<String, Object> herald(Map<String, Object> configMap) {
        return map(new Yaml().load((String) map(configMap, "data").get("herald.yaml")));
    }

    private static int containerPort(Map<String, Object> container, String name) {
        return list(container, "ports").stream().map(DeployManifestsTest::map)
                .filter(port -> name.equals(port.get("name")))
                .map(port -> (Integer) port.get("containerPort"))
                .findFirst().orElseThrow(() -> new AssertionError("no container port " + name));
    }

    private static List<Object> probe(Map<String, Object> container, String probe) {
        Map<String, Object> get = map(map(container, probe), "httpGet");
        return List.of(get.get("path"), get.get("port"));
    }

    private static int mebibytes(Object quantity) {
        Matcher matcher = MEBIBYTES.matcher(String.valueOf(quantity));
        assertThat("a quantity in Mi: " + quantity, matcher.matches(), is(true));
        return Integer.parseInt(matcher.group(1));
    }

    private static void flatten(String prefix, Map<String, Object> node, List<String> keys) {
        node.forEach((key, value) -> {
            if (value instanceof Map<?, ?>) {
                flatten(prefix + key + ".", map(value), keys);
            } else {
                keys.add(prefix + key);
            }
        });
    }

    private static Map<String, Object> map(Map<String, Object> parent, String key) {
        Object value = parent.get(key);
        if (value == null) {
            throw new AssertionError("no " + key + " in " + parent.keySet());
        }
        return map(value);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object value) {
        return (Map<String, Object>) value;
    }

    @SuppressWarnings("unchecked")
    private static List<Object> list(Map<String, Object> parent, String key) {
        return (List<Object>) parent.get(key);
    }
}
