package dev.herald.web;

import java.nio.charset.StandardCharsets;

import io.helidon.http.DirectHandler;
import io.helidon.http.HeaderNames;
import io.helidon.http.ServerResponseHeaders;
import io.helidon.http.Status;
import io.helidon.webserver.http.DirectHandlers;

/**
 * Requests Helidon rejects before routing (a malformed request line or header, a bad Content-Length) still get
 * a JSON body, with no detail of what the parser saw.
 */
public final class JsonDirectHandler implements DirectHandler {

    public static DirectHandlers forAllEvents() {
        DirectHandlers.Builder handlers = DirectHandlers.builder();
        JsonDirectHandler handler = new JsonDirectHandler();
        for (EventType eventType : EventType.values()) {
            handlers.addHandler(eventType, handler);
        }
        return handlers.build();
    }

    @Override
    public TransportResponse handle(TransportRequest request,
                                    EventType eventType,
                                    Status defaultStatus,
                                    ServerResponseHeaders responseHeaders,
                                    String message) {
        boolean serverFault = defaultStatus.code() >= 500;
        String code = serverFault ? "INTERNAL_ERROR" : "BAD_REQUEST";
        String text = serverFault ? "Internal server error" : defaultStatus.reasonPhrase();
        var body = Json.builders().createObjectBuilder().add("error", text).add("code", code).build();
        responseHeaders.set(HeaderNames.CONTENT_TYPE, "application/json");
        return TransportResponse.builder()
                .status(defaultStatus)
                .headers(responseHeaders)
                .entity(Json.write(body).getBytes(StandardCharsets.UTF_8))
                .build();
    }
}
