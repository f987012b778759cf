package dev.herald.account;

import dev.herald.support.LoggerLines;

/**
 * The warnings of the admin sign-in throttle while it is open; written before the answer that reaches the limit is
 * sent, so never late.
 */
final class AuthFailureLog extends LoggerLines {

    AuthFailureLog() {
        super(AuthFailures.class.getName());
    }
}
