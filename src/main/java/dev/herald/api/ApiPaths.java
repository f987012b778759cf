package dev.herald.api;

import io.helidon.http.Method;
import io.helidon.webserver.http.ServerRequest;

/**
 * The API surfaces and the error shape each uses (docs/api.md#errors).
 */
public final class ApiPaths {

    public static final String PUBLIC = "/api/v1/public";
    public static final String ADMIN = "/api/v1/admin";
    public static final String TRACKING = PUBLIC + "/track/";
    public static final String SIGN_IN = ADMIN + "/session";
    public static final String INVITE_ACCEPTANCE = ADMIN + "/invites/accept";

    private ApiPaths() {
    }

    public static boolean isPublic(ServerRequest request) {
        String path = fullPath(request);
        return path.equals(PUBLIC) || path.startsWith(PUBLIC + "/");
    }

    /** Signing in to the console: the one management route that takes a body from a caller not yet known. */
    public static boolean isSignIn(ServerRequest request) {
        return request.prologue().method() == Method.POST && fullPath(request).equals(SIGN_IN);
    }

    /** Taking an invitation to the team: a caller not yet known, whose secret is the link it was given. */
    public static boolean isInviteAcceptance(ServerRequest request) {
        return request.prologue().method() == Method.POST && fullPath(request).equals(INVITE_ACCEPTANCE);
    }

    /** The management routes a caller not yet known may use, with a small body: signing in, taking an invitation. */
    public static boolean isWithoutCaller(ServerRequest request) {
        return isSignIn(request) || isInviteAcceptance(request);
    }

    public static boolean isAdmin(ServerRequest request) {
        String path = fullPath(request);
        return path.equals(ADMIN) || path.startsWith(ADMIN + "/");
    }

    /** The tracking endpoints answer with {@code message}, everything else with {@code error} (docs/api.md#errors). */
    public static ErrorField errorField(ServerRequest request) {
        return fullPath(request).startsWith(TRACKING) ? ErrorField.MESSAGE : ErrorField.ERROR;
    }

    /** The request's whole path: inside a service, {@code request.path()} is relative to where it is mounted. */
    public static String fullPath(ServerRequest request) {
        return request.prologue().uriPath().path();
    }
}
