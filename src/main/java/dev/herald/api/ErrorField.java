package dev.herald.api;

/**
 * Which member carries the human-readable text of an error body: the API uses both (docs/api.md#errors).
 */
public enum ErrorField {
    ERROR("error"),
    MESSAGE("message");

    private final String jsonName;

    ErrorField(String jsonName) {
        this.jsonName = jsonName;
    }

    public String jsonName() {
        return jsonName;
    }
}
