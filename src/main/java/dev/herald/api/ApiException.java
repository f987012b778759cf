package dev.herald.api;

import java.util.List;

import io.helidon.http.Status;

/**
 * A request that cannot be served as asked: carries everything {@link ErrorResponses} needs for the JSON body.
 * Thrown by validation and lookups; never built into a response anywhere else.
 */
public final class ApiException extends RuntimeException {

    private final Status status;
    private final String code;
    private final ErrorField field;
    private final String invalidField;
    private final List<String> allowed;
    private final List<String> missing;

    private ApiException(Status status, ErrorField field, String code, String message, String invalidField,
                         List<String> allowed) {
        this(status, field, code, message, invalidField, allowed, List.of());
    }

    private ApiException(Status status, ErrorField field, String code, String message, String invalidField,
                         List<String> allowed, List<String> missing) {
        // No stack trace: these are expected outcomes on the hot path, not faults.
        super(message, null, false, false);
        this.status = status;
        this.field = field;
        this.code = code;
        this.invalidField = invalidField;
        this.allowed = List.copyOf(allowed);
        this.missing = List.copyOf(missing);
    }

    private ApiException(Status status, ErrorField field, String code, String message) {
        this(status, field, code, message, null, List.of());
    }

    /** Bad input to the management API names the offending field in {@code details.field} (docs/api.md#errors). */
    public static ApiException validation(String invalidField, String message) {
        return validation(invalidField, message, List.of());
    }

    /**
     * Bad input where the field takes one of a fixed set: the set goes to {@code details.allowed} too, so a program
     * can offer the choices without parsing the message.
     */
    public static ApiException validation(String invalidField, String message, List<String> allowed) {
        return new ApiException(Status.BAD_REQUEST_400, ErrorField.ERROR, "VALIDATION_ERROR", message, invalidField,
                                allowed);
    }

    /**
     * Bad input that lacks members of a set the field must cover (a project's required languages): they go to
     * {@code details.missing}, so a program can say which without parsing the message.
     */
    public static ApiException missing(String invalidField, String message, List<String> missing) {
        return new ApiException(Status.BAD_REQUEST_400, ErrorField.ERROR, "VALIDATION_ERROR", message, invalidField,
                                List.of(), missing);
    }

    public static ApiException of(Status status, ErrorField field, String code, String message) {
        return new ApiException(status, field, code, message);
    }

    /** An error whose body says {@code {"error": message, "code": code}} (the shared error object). */
    public static ApiException error(Status status, String code, String message) {
        return new ApiException(status, ErrorField.ERROR, code, message);
    }

    /** An error whose body says {@code {"message": message, "code": code}} (the tracking endpoints' shape). */
    public static ApiException message(Status status, String code, String message) {
        return new ApiException(status, ErrorField.MESSAGE, code, message);
    }

    /**
     * The same error with {@code details}: the part of the request that was refused and what it may be. For answers
     * whose text a specification fixes (the tracking endpoints'), this is where the detail goes.
     */
    public ApiException withDetails(String invalidField, List<String> allowed) {
        return new ApiException(status, field, code, getMessage(), invalidField, allowed);
    }

    public Status status() {
        return status;
    }

    public String code() {
        return code;
    }

    public ErrorField field() {
        return field;
    }

    /** The request field that was refused, or null. */
    public String invalidField() {
        return invalidField;
    }

    /** The values the refused part may take, in the order to show them; empty when there is no fixed set. */
    public List<String> allowed() {
        return allowed;
    }

    public List<String> missing() {
        return missing;
    }
}
