/** Bench only, never part of Herald: a bare Helidon route as a module, linked into a runtime image by bench/startup.sh. */
module bench.bare {
    requires io.helidon.webserver;
}
