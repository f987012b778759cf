package dev.herald.userstate;

/**
 * One state a user reached for a notification, at {@code at} (epoch millis, the server's time).
 *
 * @param userKey {@code UserIdentity.userKey()}: never the token's sub
 */
public record StateWrite(String projectId, String userKey, String notificationId, UserState state, long at) {
}
