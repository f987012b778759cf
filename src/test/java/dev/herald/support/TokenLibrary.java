package dev.herald.support;

/**
 * The JOSE libraries Herald did not write that mint user tokens for the interoperability tests, with the versions
 * pinned in src/test/interop (package-lock.json; Debian's python3-jwt for PyJWT).
 */
public enum TokenLibrary {
    JOSE("jose", "npm jose 6.2.17", TokenLibraries.Runtime.NODE),
    JSONWEBTOKEN("jsonwebtoken", "npm jsonwebtoken 9.0.3", TokenLibraries.Runtime.NODE),
    PYJWT("pyjwt", "PyJWT (Debian python3-jwt)", TokenLibraries.Runtime.PYTHON);

    private final String specName;
    private final String description;
    private final TokenLibraries.Runtime runtime;

    TokenLibrary(String specName, String description, TokenLibraries.Runtime runtime) {
        this.specName = specName;
        this.description = description;
        this.runtime = runtime;
    }

    /** The spec's {@code "library"} member. */
    public String specName() {
        return specName;
    }

    @Override
    public String toString() {
        return description;
    }

    TokenLibraries.Runtime runtime() {
        return runtime;
    }
}
