package dev.weft.httpserver.spi;

import dev.weft.httpserver.config.ServerConfig;
import dev.weft.httpserver.stats.StatsSnapshot;

/** What both Weft server types offer beyond the JDK API. */
public interface WeftServer {

    /** This server's configuration. */
    ServerConfig config();

    /** A copy of this server's counters. */
    StatsSnapshot stats();
}
