package dev.herald.export;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.herald.api.ApiException;

/**
 * The opaque {@code cursor} of an export (docs/api.md#export): base64url of the export's kind, the project and the
 * place after the last row handed out, its time and the rest as its kind writes it (ExportKind#tiebreak). The kind and project are in it so that a loader configured with the wrong
 * cursor is told so, instead of silently starting another project's export in the middle.
 */
final class ExportCursor {

    private static final Pattern FORM = Pattern.compile(
            "e1\\.([a-z-]{1,32})\\.(-?\\d{1,19})\\.([A-Za-z0-9_-]{1,512})\\.(.{1,64})");

    private ExportCursor() {
    }

    static <P extends Comparable<P>> String encode(ExportKind<P> kind, String projectId, P position) {
        String text = "e1." + kind.name() + "." + kind.at(position) + "." + kind.tiebreak(position) + "." + projectId;
        return Base64.getUrlEncoder().withoutPadding().encodeToString(text.getBytes(StandardCharsets.UTF_8));
    }

    static <P extends Comparable<P>> P decode(String cursor, ExportKind<P> kind, String projectId) {
        Matcher form;
        try {
            form = FORM.matcher(new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8));
        } catch (IllegalArgumentException e) {
            throw invalid();
        }
        if (!form.matches()) {
            throw invalid();
        }
        if (!form.group(1).equals(kind.name()) || !form.group(4).equals(projectId)) {
            throw ApiException.validation("cursor", "cursor belongs to another export: use the one this export of"
                    + " this project returned");
        }
        try {
            return kind.position(Long.parseLong(form.group(2)), form.group(3));
        } catch (IllegalArgumentException e) {
            throw invalid();
        }
    }

    private static ApiException invalid() {
        return ApiException.validation("cursor", "cursor must be the Herald-Export-Cursor header of a previous export");
    }
}
