/**
 * Herald: self-hosted in-app notifications with interaction tracking.
 */
module dev.herald {
    requires java.sql;
    requires java.logging;
    requires java.management;             // observe.JvmMetrics: heap, GC and thread figures for /observe/metrics
    requires jdk.unsupported;             // config.ConfigWatcher: sun.misc.Signal, SIGHUP reloads the configuration

    requires io.helidon.common;
    requires io.helidon.config;
    requires io.helidon.config.yaml;      // config.HeraldConfig: Helidon's parser of a file SnakeYAML could not read
    requires io.helidon.http;
    requires io.helidon.webserver;
    requires io.helidon.common.task;      // ConnectionsPerClient: a connection Helidon may interrupt on stop
    requires io.helidon.service.registry; // HelidonRegistry: the global registry, without scanning every module
    requires io.helidon.common.mapper;    // HelidonRegistry: the mapper provider it holds
    requires io.helidon.metrics.api;      // HelidonRegistry: the metrics factories it holds
    requires io.helidon.dbclient;
    requires io.helidon.dbclient.jdbc;
    requires com.zaxxer.hikari;
    requires org.mariadb.jdbc;            // storage.FirstUses: the driver's first parse of a URL, ahead of it
    requires jakarta.json;
    requires io.helidon.http.media;
    requires io.helidon.http.media.jsonp; // api.JsonAnswers: Helidon's JSON-P writer for management and health answers
    requires org.yaml.snakeyaml;          // HeraldConfig: the line and column of a mistake, a key given twice
    requires org.jsoup;                   // content.HtmlMessages: HTML messages parsed as browsers parse them
    requires com.nimbusds.jose.jwt;       // identity.TokenVerifier: user tokens (JWS, JWT claims, HS256/ES256; docs/modules.md)

    // storage.StatementBoundOverride: HikariCP makes it by its name, for the stats' pool.
    exports dev.herald.storage to com.zaxxer.hikari;

    // Not referenced in code, but needed at run time (named in logging.properties, found through ServiceLoader).
    requires io.helidon.logging.jul;      // the console handler and format logging.properties names
    requires org.eclipse.parsson;         // jakarta.json provider
}
