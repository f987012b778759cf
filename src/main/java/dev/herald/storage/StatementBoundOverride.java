package dev.herald.storage;

import java.sql.SQLException;

import com.zaxxer.hikari.SQLExceptionOverride;

/**
 * Keeps a connection of the stats' pool whose statement ran past its bound ({@link Reports}): the database ended the
 * statement and the connection serves on, but HikariCP takes every SQLTimeoutException for a broken connection,
 * logged a warning for each and opened another. HikariCP makes it by its name ({@code exceptionOverrideClassName}).
 */
public final class StatementBoundOverride implements SQLExceptionOverride {

    @java.lang.Override
    public SQLExceptionOverride.Override adjudicate(SQLException failure) {
        return Reports.timedOut(failure) ? SQLExceptionOverride.Override.DO_NOT_EVICT
                                         : SQLExceptionOverride.Override.CONTINUE_EVICT;
    }
}
