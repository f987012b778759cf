package dev.herald.wire;

import java.util.Optional;
import java.util.concurrent.ExecutorService;

import io.helidon.common.buffers.DataReader;
import io.helidon.common.buffers.DataWriter;
import io.helidon.common.socket.HelidonSocket;
import io.helidon.common.socket.PeerInfo;
import io.helidon.webserver.ConnectionContext;
import io.helidon.webserver.ListenerContext;
import io.helidon.webserver.ProxyProtocolData;
import io.helidon.webserver.Router;

/**
 * A connection's context with a {@link StrictChunkReader} in place of Helidon's reader, everything else as it was:
 * Helidon (4.1.7 to 4.5.0) offers no setting for how it reads chunked bodies or which request lines it takes, and
 * its HTTP/1.1 connection takes its reader from the context it is made with. The context also carries the version
 * of the request being read ({@link RequestVersion}) and the {@code Host} its requests last sent that passed
 * ({@link CheckedHost}), which {@link HttpVersions} finds through it.
 */
public record StrictChunkContext(ConnectionContext ctx, DataReader dataReader, RequestVersion version,
                                 CheckedHost host)
        implements ConnectionContext {

    public static ConnectionContext of(ConnectionContext ctx) {
        RequestVersion version = new RequestVersion();
        return new StrictChunkContext(ctx, new StrictChunkReader(ctx.dataReader(), version), version,
                                      new CheckedHost());
    }

    @Override
    public ListenerContext listenerContext() {
        return ctx.listenerContext();
    }

    @Override
    public ExecutorService executor() {
        return ctx.executor();
    }

    @Override
    public DataWriter dataWriter() {
        return ctx.dataWriter();
    }

    @Override
    public Router router() {
        return ctx.router();
    }

    @Override
    public Optional<ProxyProtocolData> proxyProtocolData() {
        return ctx.proxyProtocolData();
    }

    @Override
    public HelidonSocket serverSocket() {
        return ctx.serverSocket();
    }

    @Override
    public PeerInfo remotePeer() {
        return ctx.remotePeer();
    }

    @Override
    public PeerInfo localPeer() {
        return ctx.localPeer();
    }

    @Override
    public boolean isSecure() {
        return ctx.isSecure();
    }

    @Override
    public String socketId() {
        return ctx.socketId();
    }

    @Override
    public String childSocketId() {
        return ctx.childSocketId();
    }
}
