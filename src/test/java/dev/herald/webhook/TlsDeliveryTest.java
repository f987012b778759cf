package dev.herald.webhook;

import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import javax.net.ssl.ExtendedSSLSession;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SNIServerName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.startsWith;

/**
 * https deliveries connect to the address Herald checked, yet TLS names and verifies the URL's host: SNI carries
 * it, and a certificate for another name fails the attempt before anything is sent. The receiver's certificate is
 * made for the test by the JDK's keytool, for {@code receiver.test} only.
 */
class TlsDeliveryTest {

    private static final char[] PASSWORD = "changeit".toCharArray();
    private static final Duration TIMEOUT = Duration.ofSeconds(5);
    private static KeyStore receiverKeys;
    private static SSLContext trustingReceiver;

    @BeforeAll
    static void certificate() throws IOException, InterruptedException, GeneralSecurityException {
        Path directory = Files.createDirectories(Path.of("target/webhook-tls"));
        Path keys = directory.resolve("receiver.p12");
        Files.deleteIfExists(keys);
        Process keytool = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair", "-alias", "receiver", "-keyalg", "EC", "-groupname", "secp256r1",
                "-dname", "CN=receiver.test", "-ext", "SAN=dns:receiver.test", "-validity", "2",
                "-storetype", "PKCS12", "-keystore", keys.toString(), "-storepass", "changeit")
                .redirectErrorStream(true).redirectOutput(directory.resolve("keytool.txt").toFile()).start();
        assertThat("keytool made the receiver's certificate", keytool.waitFor(60, TimeUnit.SECONDS)
                                                               && keytool.exitValue() == 0, is(true));
        receiverKeys = KeyStore.getInstance("PKCS12");
        try (InputStream in = new FileInputStream(keys.toFile())) {
            receiverKeys.load(in, PASSWORD);
        }
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        trust.setCertificateEntry("receiver", receiverKeys.getCertificate("receiver"));
        TrustManagerFactory trustManagers = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trustManagers.init(trust);
        trustingReceiver = SSLContext.getInstance("TLS");
        trustingReceiver.init(null, trustManagers.getTrustManagers(), null);
    }

    @Test
    void theUrlsHostIsSentAsSniAndHostAndItsCertificateVerifies() throws Exception {
        List<List<SNIServerName>> serverNames = new CopyOnWriteArrayList<>();
        try (ScriptedReceiver receiver = tlsReceiver(serverNames)) {
            Attempt attempt = transport(trustingReceiver).deliver(
                    Deliveries.to(URI.create("https://receiver.test:" + receiver.port() + "/in")));

            assertThat(attempt.detail(), attempt.outcome(), is(Attempt.Outcome.DELIVERED));
            assertThat(serverNames, is(List.of(List.<SNIServerName>of(new SNIHostName("receiver.test")))));
            assertThat(receiver.requests().getFirst().header("host"), is("receiver.test:" + receiver.port()));
        }
    }

    @Test
    void aCertificateForAnotherNameFailsBeforeAnythingIsSent() throws Exception {
        try (ScriptedReceiver receiver = tlsReceiver(new CopyOnWriteArrayList<>())) {
            Attempt attempt = transport(trustingReceiver).deliver(
                    Deliveries.to(URI.create("https://impostor.test:" + receiver.port() + "/in")));

            assertThat(attempt.outcome(), is(Attempt.Outcome.FAILED));
            assertThat(attempt.detail(), startsWith("TLS with impostor.test failed: "));
            assertThat(receiver.requests(), is(List.of()));
        }
    }

    @Test
    void aCertificateNoTrustedAuthoritySignedFails() throws Exception {
        try (ScriptedReceiver receiver = tlsReceiver(new CopyOnWriteArrayList<>())) {
            Attempt attempt = transport(SSLContext.getDefault()).deliver(
                    Deliveries.to(URI.create("https://receiver.test:" + receiver.port() + "/in")));

            assertThat(attempt.outcome(), is(Attempt.Outcome.FAILED));
            assertThat(attempt.detail(), startsWith("TLS with receiver.test failed: "));
            assertThat(receiver.requests(), is(List.of()));
        }
    }

    /**
     * Production's transport makes the JDK's TLS context (every trusted CA's certificate read and parsed) at its
     * first https delivery, not when it is made at start, on the way to the first answer.
     */
    @Test
    void productionsTrustIsMadeAtTheFirstHttpsDeliveryNotAtStart() throws Exception {
        HttpWebhookTransport transport = HttpWebhookTransport.create(
                new TransportSettings(Deliveries.LOOPBACK, Duration.ofSeconds(2), TIMEOUT));
        HttpWebhookTransport.DefaultTls tls = (HttpWebhookTransport.DefaultTls) transport.tls();
        assertThat("made at start", tls.made(), is(false));

        try (ScriptedReceiver receiver = tlsReceiver(new CopyOnWriteArrayList<>())) {
            Attempt attempt = transport.deliver(
                    Deliveries.to(URI.create("https://127.0.0.1:" + receiver.port() + "/in")));

            assertThat(attempt.outcome(), is(Attempt.Outcome.FAILED));
            assertThat(attempt.detail(), startsWith("TLS with 127.0.0.1 failed: "));
            assertThat(receiver.requests(), is(List.of()));
        }
        assertThat("made at the first https delivery", tls.made(), is(true));
    }

    /** Both names resolve to loopback, allowed here; only the certificate tells them apart. */
    private static HttpWebhookTransport transport(SSLContext tls) {
        HostResolver dns = host -> {
            if (!host.endsWith(".test")) {
                throw new UnknownHostException(host);
            }
            return List.of(InetAddress.getLoopbackAddress());
        };
        return new HttpWebhookTransport(new TransportSettings(Deliveries.LOOPBACK, Duration.ofSeconds(2), TIMEOUT),
                                        dns, () -> tls, Clock.systemUTC());
    }

    private static ScriptedReceiver tlsReceiver(List<List<SNIServerName>> serverNames)
            throws GeneralSecurityException, IOException {
        KeyManagerFactory keyManagers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keyManagers.init(receiverKeys, PASSWORD);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(keyManagers.getKeyManagers(), null, null);
        SSLServerSocket server = (SSLServerSocket) context.getServerSocketFactory().createServerSocket();
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        return ScriptedReceiver.listening(server, (socket, request) -> {
            serverNames.add(((ExtendedSSLSession) ((SSLSocket) socket).getSession()).getRequestedServerNames());
            socket.getOutputStream().write("HTTP/1.1 204 No Content\r\n\r\n".getBytes());
            socket.getOutputStream().flush();
        });
    }
}
