package dev.herald.webhook;

import java.io.BufferedOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NoRouteToHostException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;

import dev.herald.logging.LogText;

/**
 * Delivers one message over HTTP/1.1, on a socket of its own, closed after the answer.
 * <p>
 * Why its own small client rather than a library's (docs/modules.md#webhook-deliveries-a-small-http-client):
 * the address policy must hold for the address actually connected to, so the transport resolves the name once,
 * checks every address, and connects to a checked one itself, while TLS still names and verifies the URL's host.
 * The JDK's {@code HttpClient} resolves names itself (a second lookup, which DNS rebinding can answer otherwise)
 * and will not let a request name one host and connect to another address ({@code Host} is a restricted header);
 * Helidon's WebClient has a resolver hook but is not among Herald's modules. What a webhook needs of HTTP is small:
 * one POST with a known length, and an answer of which only the status, a few headers and a line are read.
 * <p>
 * Never throws for anything the network or the receiver does, never follows a redirect, reads the answer to a
 * bound, and writes no secret anywhere (it logs nothing: the worker logs the {@link Attempt}'s detail).
 */
public final class HttpWebhookTransport implements WebhookTransport {

    static final String USER_AGENT = "Herald-Webhooks (+https://www.standardwebhooks.com)";

    private final AddressPolicy policy;
    private final HostResolver resolver;
    private final Supplier<SSLContext> tls;
    private final Clock clock;
    private final Duration connectTimeout;
    private final Duration timeout;

    /**
     * @param settings the {@code webhooks.*} settings: allowed ranges and time-outs
     * @param resolver the name lookup ({@link HostResolver#system()} in production)
     * @param tls      the trust of https deliveries, asked for at the first one ({@link DefaultTls} in production:
     *                 the JDK's CAs)
     * @param clock    reads a {@code Retry-After} date against it
     */
    public HttpWebhookTransport(TransportSettings settings, HostResolver resolver, Supplier<SSLContext> tls,
                                Clock clock) {
        this.policy = settings.addressPolicy();
        this.resolver = resolver;
        this.tls = tls;
        this.clock = clock;
        this.connectTimeout = settings.connectTimeout();
        this.timeout = settings.timeout();
    }

    /** What production runs: the JVM's resolver, the JDK's trusted CAs (made at the first https delivery). */
    public static HttpWebhookTransport create(TransportSettings settings) {
        return new HttpWebhookTransport(settings, HostResolver.system(), new DefaultTls(), Clock.systemUTC());
    }

    /** The trust of https deliveries: for tests. */
    Supplier<SSLContext> tls() {
        return tls;
    }

    /**
     * The JDK's default TLS context, made when first asked for rather than with the transport: making it reads and
     * parses every trusted CA's certificate, on the main thread it put the first answer some 250 ms later at every
     * start (docs/performance.md, start-up), while most instances send no https delivery soon after, if ever.
     */
    static final class DefaultTls implements Supplier<SSLContext> {

        private SSLContext context;

        @Override
        public synchronized SSLContext get() {
            if (context == null) {
                try {
                    context = SSLContext.getDefault();
                } catch (NoSuchAlgorithmException e) {
                    throw new IllegalStateException("the JDK has no default TLS context", e);
                }
            }
            return context;
        }

        /** Whether it was asked for: for tests. */
        synchronized boolean made() {
            return context != null;
        }
    }

    @Override
    public Attempt deliver(Delivery delivery) {
        long start = System.nanoTime();
        try {
            return attempt(delivery, start);
        } catch (RuntimeException unexpected) {
            // A bug of ours must not end the worker's loop; its class names it without any secret.
            return failed(start, 0, "unexpected failure in Herald: " + unexpected.getClass().getSimpleName());
        }
    }

    private Attempt attempt(Delivery delivery, long start) {
        long deadline = start + timeout.toNanos();
        EndpointUrl target;
        try {
            target = EndpointUrl.of(delivery.url());
        } catch (IllegalArgumentException refused) {
            return finished(start, Attempt.Outcome.REFUSED, 0, Optional.empty(), refused.getMessage());
        }
        String messageId = delivery.messageId();
        if (!isHeaderValue(messageId)) {
            return failed(start, 0, "the message id cannot be sent as a header");
        }
        List<InetAddress> addresses;
        try {
            addresses = resolve(target.host(), deadline);
        } catch (UnknownHostException unknown) {
            return failed(start, 0, "no address found for " + target.host());
        } catch (TimeoutException slow) {
            return failed(start, 0, "no address found for " + target.host() + " within " + timeout);
        }
        for (InetAddress address : addresses) {
            Optional<String> refusal = policy.refusal(address);
            if (refusal.isPresent()) {
                String name = target.isLiteral() ? "" : target.host() + ": ";
                return finished(start, Attempt.Outcome.REFUSED, 0, Optional.empty(),
                                name + refusal.get() + "; Herald does not deliver there unless "
                                + "webhooks.allowed-addresses allows it");
            }
        }
        byte[] head = requestHead(target, delivery);
        String lastFailure = "no answer within " + timeout;
        for (InetAddress address : addresses) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                break;
            }
            Socket socket = new Socket();
            SocketDeadline deadlineClose = SocketDeadline.at(socket, left);
            try {
                int connectMillis = (int) Math.max(1, Math.min(connectTimeout.toMillis(), left / 1_000_000));
                socket.connect(new InetSocketAddress(address, target.port()), connectMillis);
            } catch (IOException notConnected) {
                deadlineClose.cancel();
                closeQuietly(socket);
                lastFailure = connectFailure(notConnected, address, target, deadlineClose.fired());
                continue;
            }
            try {
                return exchange(socket, target, head, delivery.body(), start, deadline);
            } catch (IOException broken) {
                return failed(start, 0, exchangeFailure(broken, target, deadlineClose.fired()));
            } finally {
                deadlineClose.cancel();
                closeQuietly(socket);
            }
        }
        return failed(start, 0, lastFailure);
    }

    private List<InetAddress> resolve(String host, long deadline) throws UnknownHostException, TimeoutException {
        // The system's lookup cannot be interrupted and may take resolv.conf's time-outs and retries: it runs on a
        // virtual thread of its own, waited for until the attempt's deadline.
        FutureTask<List<InetAddress>> lookup = new FutureTask<>(() -> resolver.resolve(host));
        Thread.ofVirtual().name("herald-webhook-lookup").start(lookup);
        try {
            List<InetAddress> addresses = lookup.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (addresses.isEmpty()) {
                throw new UnknownHostException(host);
            }
            return addresses;
        } catch (ExecutionException failed) {
            if (failed.getCause() instanceof UnknownHostException unknown) {
                throw unknown;
            }
            throw new UnknownHostException(host);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw new TimeoutException();
        } finally {
            lookup.cancel(true);
        }
    }

    private Attempt exchange(Socket plain, EndpointUrl target, byte[] head, byte[] body, long start, long deadline)
            throws IOException {
        plain.setSoTimeout((int) Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
        plain.setTcpNoDelay(true);
        Socket socket = target.https() ? handshake(plain, target) : plain;
        OutputStream out = new BufferedOutputStream(socket.getOutputStream(), 8192);
        out.write(head);
        out.write(body);
        out.flush();
        ReceiverAnswer answer = ReceiverAnswer.read(socket.getInputStream());
        return classify(answer, start);
    }

    private SSLSocket handshake(Socket plain, EndpointUrl target) throws IOException {
        SSLSocket socket = (SSLSocket) tls.get().getSocketFactory()
                .createSocket(plain, target.host(), target.port(), true);
        SSLParameters parameters = socket.getSSLParameters();
        // The certificate must name the URL's host, although the socket was opened to an address.
        parameters.setEndpointIdentificationAlgorithm("HTTPS");
        if (!target.isLiteral()) {
            try {
                parameters.setServerNames(List.of(new SNIHostName(target.host())));
            } catch (IllegalArgumentException notAnSniName) {
                // A name SNI cannot carry (no IDN form): sent without, still verified against the certificate.
            }
        }
        socket.setSSLParameters(parameters);
        socket.startHandshake();
        return socket;
    }

    private Attempt classify(ReceiverAnswer answer, long start) {
        int status = answer.status();
        String said = answer.bodyLine().isBlank() ? "" : ": " + answer.bodyLine().strip();
        if (status >= 200 && status < 300) {
            return finished(start, Attempt.Outcome.DELIVERED, status, Optional.empty(), "HTTP " + status);
        }
        if (status == 410) {
            return finished(start, Attempt.Outcome.GONE, status, Optional.empty(),
                            "HTTP 410: the receiver asks not to be called again" + said);
        }
        if (status >= 300 && status < 400) {
            String where = answer.location() == null ? "" : " to " + answer.location();
            return failed(start, status, "HTTP " + status + ": a redirect" + where
                                         + ", not followed (Herald never follows redirects)");
        }
        Optional<Duration> retryAfter = Optional.empty();
        if ((status == 429 || status == 503) && answer.retryAfter() != null) {
            retryAfter = RetryAfter.parse(answer.retryAfter(), clock.instant());
        }
        String asked = retryAfter.map(wait -> ", Retry-After " + wait.toSeconds() + " s").orElse("");
        return finished(start, Attempt.Outcome.FAILED, status, retryAfter, "HTTP " + status + asked + said);
    }

    private byte[] requestHead(EndpointUrl target, Delivery delivery) {
        String head = "POST " + target.requestTarget() + " HTTP/1.1\r\n"
                      + "Host: " + target.hostHeader() + "\r\n"
                      + "User-Agent: " + USER_AGENT + "\r\n"
                      + "Content-Type: application/json\r\n"
                      + "Content-Length: " + delivery.body().length + "\r\n"
                      + "webhook-id: " + delivery.messageId() + "\r\n"
                      + "webhook-timestamp: " + Signatures.timestamp(delivery.timestamp()) + "\r\n"
                      + "webhook-signature: " + Signatures.header(delivery.messageId(), delivery.timestamp(),
                                                                  delivery.body(), delivery.secrets()) + "\r\n"
                      + "Connection: close\r\n"
                      + "\r\n";
        return head.getBytes(StandardCharsets.US_ASCII);
    }

    private String connectFailure(IOException failure, InetAddress address, EndpointUrl target, boolean deadlinePassed) {
        String where = address.getHostAddress() + " port " + target.port();
        if (failure instanceof SocketTimeoutException || deadlinePassed) {
            return "no connection to " + where + " within " + connectTimeout;
        }
        if (failure instanceof ConnectException) {
            return "connection refused by " + where;
        }
        if (failure instanceof NoRouteToHostException) {
            return "no route to " + where;
        }
        return "no connection to " + where + ": " + failure.getMessage();
    }

    private String exchangeFailure(IOException failure, EndpointUrl target, boolean deadlinePassed) {
        if (failure instanceof SocketTimeoutException || deadlinePassed) {
            return "no answer within " + timeout;
        }
        if (failure instanceof ReceiverAnswer.Malformed) {
            return failure.getMessage();
        }
        if (failure instanceof SSLException) {
            return "TLS with " + target.host() + " failed: " + failure.getMessage();
        }
        if (failure instanceof EOFException) {
            return "the receiver closed the connection without an answer";
        }
        return "the connection failed: " + failure.getMessage();
    }

    private static boolean isHeaderValue(String text) {
        return !text.isEmpty() && text.chars().allMatch(c -> c > 0x20 && c < 0x7f);
    }

    private static Attempt failed(long start, int status, String detail) {
        return finished(start, Attempt.Outcome.FAILED, status, Optional.empty(), detail);
    }

    private static Attempt finished(long start, Attempt.Outcome outcome, int status, Optional<Duration> retryAfter,
                                    String detail) {
        return new Attempt(outcome, status, Duration.ofNanos(System.nanoTime() - start), retryAfter,
                           LogText.of(String.valueOf(detail)));
    }

    static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing is all that is left to do
        }
    }
}
