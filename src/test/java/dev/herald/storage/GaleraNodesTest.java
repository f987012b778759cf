package dev.herald.storage;

import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

/** Which Galera options Herald adds to a URL of several hosts: only those it does not name. */
class GaleraNodesTest {

    private static final String CLUSTER = "jdbc:mariadb:sequential://a:3306,b:3306,c:3306/herald";

    @Test
    void aUrlThatNamesNeitherGetsBoth() {
        assertThat(GaleraNodes.added(Map.of("connection.url", CLUSTER)),
                   is("galeraAllowedState=4&sessionVariables=wsrep_sync_wait=1"));
    }

    @Test
    void anOptionTheUrlNamesInAnyCaseIsLeftAsItIs() {
        assertThat(GaleraNodes.added(Map.of("connection.url", CLUSTER + "?GaleraAllowedState=4,5")),
                   is("sessionVariables=wsrep_sync_wait=1"));
        assertThat(GaleraNodes.added(Map.of("connection.url", CLUSTER + "?retriesAllDown=2&sessionvariables=x=1")),
                   is("galeraAllowedState=4"));
    }

    @Test
    void anOptionGivenAsADriverSettingIsLeftAsItIs() {
        // HikariSettings hands driver settings on in lower case.
        assertThat(GaleraNodes.added(Map.of("connection.url", CLUSTER,
                                            "connection.dataSource.galeraallowedstate", "4,2",
                                            "connection.dataSource.sessionvariables", "wsrep_sync_wait=3")),
                   is(""));
    }
}
