package dev.herald.web;

/**
 * Which member carries the human-readable text of an error body: public-api.md §2.4 and §7 use both.
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
