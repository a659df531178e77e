package dev.weft.spring.boot.autoconfigure;

import dev.weft.httpserver.config.AccessLogConfig;
import dev.weft.httpserver.config.Http2Config;
import dev.weft.httpserver.config.ServerConfig;
import dev.weft.httpserver.config.ThreadsConfig;
import dev.weft.spring.boot.WeftReactiveWebServerFactory;
import dev.weft.spring.boot.WeftServerCustomizer;
import dev.weft.spring.boot.WeftWebServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.actuate.autoconfigure.web.server.ManagementContextFactory;
import org.springframework.boot.context.annotation.ImportCandidates;
import org.springframework.boot.reactor.netty.autoconfigure.NettyReactiveWebServerAutoConfiguration;
import org.springframework.boot.reactor.netty.autoconfigure.actuate.web.server.NettyReactiveManagementContextAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.boot.web.server.WebServer;
import org.springframework.boot.web.server.reactive.AbstractReactiveWebServerFactory;
import org.springframework.boot.web.server.reactive.ReactiveWebServerFactory;
import org.springframework.boot.web.server.reactive.context.AnnotationConfigReactiveWebServerApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpStatus;
import org.springframework.http.server.reactive.HttpHandler;
import tools.jackson.databind.JsonNode;

import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** What the auto-configuration contributes, and when it backs off. */
@Timeout(60)
class WeftReactiveWebServerAutoConfigurationTest {

    private final ReactiveWebApplicationContextRunner runner = new ReactiveWebApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(NettyReactiveWebServerAutoConfiguration.class,
                    WeftReactiveWebServerAutoConfiguration.class));

    @Test
    void weftFactoryIsChosenWithReactorNettyPresent() {
        runner.run(context -> assertThat(context).hasSingleBean(ReactiveWebServerFactory.class)
                .getBean(ReactiveWebServerFactory.class).isInstanceOf(WeftReactiveWebServerFactory.class));
    }

    @Test
    void isOrderedBeforeBootsReactiveServerAutoConfigurations() {
        AutoConfiguration annotation = WeftReactiveWebServerAutoConfiguration.class
                .getAnnotation(AutoConfiguration.class);

        assertThat(annotation.beforeName()).containsExactlyInAnyOrder(
                NettyReactiveWebServerAutoConfiguration.class.getName(),
                "org.springframework.boot.jetty.autoconfigure.reactive.JettyReactiveWebServerAutoConfiguration",
                "org.springframework.boot.tomcat.autoconfigure.reactive.TomcatReactiveWebServerAutoConfiguration");
    }

    @Test
    void userDefinedReactiveWebServerFactoryWins() {
        runner.withUserConfiguration(UserFactoryConfiguration.class).run(context -> {
            assertThat(context).hasSingleBean(ReactiveWebServerFactory.class);
            assertThat(context).doesNotHaveBean(WeftReactiveWebServerFactory.class);
            assertThat(context.getBean(ReactiveWebServerFactory.class)).isInstanceOf(UserFactory.class);
        });
    }

    @Test
    void backsOffOutsideReactiveWebApplications() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(WeftReactiveWebServerAutoConfiguration.class))
                .run(context -> assertThat(context).doesNotHaveBean(WeftReactiveWebServerFactory.class)
                        .doesNotHaveBean(WeftServerProperties.class));
    }

    @Test
    void withoutPropertiesOnlyBootsDefaultsChangeTheEngineDefaults() {
        runner.run(context -> {
            ServerConfig config = context.getBean(WeftReactiveWebServerFactory.class).buildServerConfig();
            // server.max-http-request-header-size defaults to 8KB, server.http2.enabled to false in Spring Boot,
            // and spring.threads.virtual.enabled to false: application code on platform threads.
            assertThat(config).isEqualTo(ServerConfig.defaults().toBuilder().maxHeaderSize(8 * 1024)
                    .threads(ThreadsConfig.defaults().toBuilder().virtual(false).build())
                    .http2(Http2Config.defaults().toBuilder().h2Enabled(false).h2cEnabled(false).build())
                    .build());
        });
    }

    @Test
    void virtualThreadsEnabledRunsHandlersOnVirtualThreads() {
        runner.withPropertyValues("spring.threads.virtual.enabled=true", "weft.server.threads.time-slice=1ms")
                .run(context -> {
                    ThreadsConfig threads = context.getBean(WeftReactiveWebServerFactory.class).buildServerConfig()
                            .threads();
                    assertThat(threads.virtual()).isTrue();
                    assertThat(threads.timeSlice()).isEqualTo(Duration.ofMillis(1));
                });
    }

    @Test
    void threadPropertiesSizeThePlatformThreads() {
        runner.withPropertyValues("weft.server.threads.max=50", "weft.server.threads.min-spare=5").run(context -> {
            ThreadsConfig threads = context.getBean(WeftReactiveWebServerFactory.class).buildServerConfig().threads();
            assertThat(threads.virtual()).isFalse();
            assertThat(threads.max()).isEqualTo(50);
            assertThat(threads.minSpare()).isEqualTo(5);
        });
    }

    @Test
    void moreSpareThreadsThanTheMaximumFailStartupNamingTheProperty() {
        runner.withPropertyValues("weft.server.threads.max=5", "weft.server.threads.min-spare=6")
                .run(context -> assertThat(context).hasFailed().getFailure().rootCause()
                        .hasMessageContaining("minSpare"));
    }

    @Test
    void propertyDefaultsAreTheEngineDefaults() {
        WeftServerProperties properties = new WeftServerProperties();
        ServerConfig defaults = ServerConfig.defaults();

        assertThat(properties.getMaxConnections()).isEqualTo(defaults.maxConnections());
        assertThat(properties.getIdleTimeout()).isEqualTo(defaults.idleTimeout());
        assertThat(properties.getHeaderReadTimeout()).isEqualTo(defaults.headerReadTimeout());
        assertThat(properties.getBodyReadTimeout()).isEqualTo(defaults.bodyReadTimeout());
        assertThat(properties.getWriteTimeout()).isEqualTo(defaults.writeTimeout());
        assertThat(properties.getTlsHandshakeTimeout()).isEqualTo(defaults.tlsHandshakeTimeout());
        assertThat(properties.getMinRequestDataRate().toBytes()).isEqualTo(defaults.minRequestDataRate());
        assertThat(properties.getMinResponseDataRate().toBytes()).isEqualTo(defaults.minResponseDataRate());
        assertThat(properties.getDataRateGracePeriod()).isEqualTo(defaults.dataRateGracePeriod());
        assertThat(properties.getDrainTimeout()).isEqualTo(defaults.drainTimeout());
        assertThat(properties.getLowResourcesThreshold()).isEqualTo(defaults.lowResourcesThreshold());
        assertThat(properties.getLowResourcesIdleTimeout()).isEqualTo(defaults.lowResourcesIdleTimeout());
        assertThat(properties.getMaxRequestBodySize()).isNull();
        assertThat(defaults.maxRequestBodySize()).isEqualTo(Long.MAX_VALUE);
        assertThat(properties.getMaxHeaderCount()).isEqualTo(defaults.maxHeaderCount());
        assertThat(properties.getMaxRequestLineLength().toBytes()).isEqualTo(defaults.maxRequestLineLength());
        assertThat(properties.getBacklog()).isEqualTo(defaults.backlog());
        assertThat(properties.getAccessLog().toConfig()).isEqualTo(defaults.accessLog());
        assertThat(properties.getStatsPage().isEnabled()).isEqualTo(defaults.statsPath() != null);
        assertThat(properties.getStatsPage().getPath()).isEqualTo("/__stats");
    }

    @Test
    void http2PropertyDefaultsAreTheEngineDefaults() {
        assertThat(new WeftServerProperties().getHttp2().toConfig()).isEqualTo(Http2Config.defaults());
    }

    @Test
    void http2PropertiesReachTheFactory() {
        runner.withPropertyValues("server.http2.enabled=true", "weft.server.http2.h2c=false",
                "weft.server.http2.max-concurrent-streams=3", "weft.server.http2.initial-window-size=64KB",
                "weft.server.http2.connection-window-size=4MB", "weft.server.http2.max-frame-size=1MB",
                "weft.server.http2.max-header-list-size=8KB", "weft.server.http2.header-table-size=1KB",
                "weft.server.http2.max-resets-per-second=5", "weft.server.http2.max-control-frames-per-second=6",
                "weft.server.http2.extended-connect=false")
                .run(context -> {
                    Http2Config http2 = context.getBean(WeftReactiveWebServerFactory.class).buildServerConfig()
                            .http2();
                    assertThat(http2).isEqualTo(new Http2Config(true, false, 3, 64 * 1024, 4 * 1024 * 1024,
                            1024 * 1024, 8 * 1024, 1024, 5, 6, false));
                });
    }

    @Test
    void http2LimitsApplyButHttp2StaysOffWithoutServerHttp2Enabled() {
        runner.withPropertyValues("weft.server.http2.max-concurrent-streams=3").run(context -> {
            Http2Config http2 = context.getBean(WeftReactiveWebServerFactory.class).buildServerConfig().http2();
            assertThat(http2.maxConcurrentStreams()).isEqualTo(3);
            assertThat(http2.h2Enabled()).isFalse();
            assertThat(http2.h2cEnabled()).isFalse();
        });
    }

    @Test
    void http2PropertiesHaveGeneratedMetadata() throws Exception {
        Map<String, JsonNode> properties = ConfigurationMetadata.properties();

        assertThat(properties).containsKeys("weft.server.http2.h2c", "weft.server.http2.max-concurrent-streams",
                "weft.server.http2.initial-window-size", "weft.server.http2.connection-window-size",
                "weft.server.http2.max-frame-size", "weft.server.http2.max-header-list-size",
                "weft.server.http2.header-table-size", "weft.server.http2.max-resets-per-second",
                "weft.server.http2.max-control-frames-per-second", "weft.server.http2.extended-connect");
        JsonNode frameSize = properties.get("weft.server.http2.max-frame-size");
        assertThat(frameSize.path("type").asString()).isEqualTo("org.springframework.util.unit.DataSize");
        assertThat(frameSize.path("defaultValue").asString()).isEqualTo("16KB");
        assertThat(frameSize.path("description").asString()).startsWith("Largest frame payload accepted");
        assertThat(properties.get("weft.server.http2.h2c").path("defaultValue").asBoolean()).isTrue();
    }

    @Test
    void anInvalidAccessLogPatternFailsTheContextNamingThePropertyAndTheDirective() {
        runner.withPropertyValues("weft.server.access-log.pattern=%h %Z").run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).rootCause()
                    .hasMessageContaining("access-log.pattern")
                    .hasMessageContaining("'%Z'");
        });
    }

    @Test
    void invalidHttp2PropertyFailsTheContextNamingTheProperty() {
        runner.withPropertyValues("weft.server.http2.header-table-size=-1B").run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).rootCause()
                    .hasMessageContaining("weft.server")
                    .hasMessageContaining("http2.header-table-size")
                    .hasMessageContaining("headerTableSize must be at least 0, was -1");
        });
    }

    @Test
    void propertiesReachTheFactory() {
        runner.withPropertyValues("server.server-header=Acme", "server.max-http-request-header-size=20KB",
                "weft.server.max-connections=11", "weft.server.idle-timeout=2m",
                "weft.server.header-read-timeout=250ms", "weft.server.body-read-timeout=3s",
                "weft.server.write-timeout=4s", "weft.server.tls-handshake-timeout=5s",
                "weft.server.max-request-body-size=1KB", "weft.server.max-header-count=12",
                "weft.server.max-request-line-length=1KB", "weft.server.backlog=13",
                "weft.server.access-log.enabled=true", "weft.server.stats-page.enabled=true",
                "weft.server.access-log.pattern=common", "weft.server.access-log.file=/var/log/weft/a.log",
                "weft.server.access-log.rotate-daily=false", "weft.server.access-log.max-file-size=10MB",
                "weft.server.access-log.max-files=4", "weft.server.access-log.queue-capacity=99",
                "weft.server.access-log.flush-interval=250ms",
                "weft.server.min-request-data-rate=1KB", "weft.server.min-response-data-rate=0B",
                "weft.server.data-rate-grace-period=7s", "weft.server.drain-timeout=8s",
                "weft.server.low-resources-threshold=0.75", "weft.server.low-resources-idle-timeout=500ms")
                .run(context -> {
                    ServerConfig config = context.getBean(WeftReactiveWebServerFactory.class).buildServerConfig();
                    assertThat(config.serverHeader()).isEqualTo("Acme");
                    assertThat(config.maxHeaderSize()).isEqualTo(20 * 1024);
                    assertThat(config.maxConnections()).isEqualTo(11);
                    assertThat(config.idleTimeout()).isEqualTo(Duration.ofMinutes(2));
                    assertThat(config.headerReadTimeout()).isEqualTo(Duration.ofMillis(250));
                    assertThat(config.bodyReadTimeout()).isEqualTo(Duration.ofSeconds(3));
                    assertThat(config.writeTimeout()).isEqualTo(Duration.ofSeconds(4));
                    assertThat(config.tlsHandshakeTimeout()).isEqualTo(Duration.ofSeconds(5));
                    assertThat(config.maxRequestBodySize()).isEqualTo(1024);
                    assertThat(config.maxHeaderCount()).isEqualTo(12);
                    assertThat(config.maxRequestLineLength()).isEqualTo(1024);
                    assertThat(config.backlog()).isEqualTo(13);
                    assertThat(config.accessLog()).isEqualTo(AccessLogConfig.builder().enabled(true)
                            .pattern("common").file("/var/log/weft/a.log").rotateDaily(false)
                            .maxFileSize(10L << 20).maxFiles(4).queueCapacity(99)
                            .flushInterval(Duration.ofMillis(250)).build());
                    assertThat(config.statsPath()).isEqualTo("/__stats");
                    assertThat(config.minRequestDataRate()).isEqualTo(1024);
                    assertThat(config.minResponseDataRate()).isZero();
                    assertThat(config.dataRateGracePeriod()).isEqualTo(Duration.ofSeconds(7));
                    assertThat(config.drainTimeout()).isEqualTo(Duration.ofSeconds(8));
                    assertThat(config.lowResourcesThreshold()).isEqualTo(0.75);
                    assertThat(config.lowResourcesIdleTimeout()).isEqualTo(Duration.ofMillis(500));
                });
    }

    @Test
    void slowClientPropertiesHaveGeneratedMetadata() throws Exception {
        Map<String, JsonNode> properties = ConfigurationMetadata.properties();

        JsonNode requestRate = properties.get("weft.server.min-request-data-rate");
        assertThat(requestRate.path("type").asString()).isEqualTo("org.springframework.util.unit.DataSize");
        assertThat(requestRate.path("defaultValue").asString()).isEqualTo("240B");
        assertThat(requestRate.path("description").asString()).startsWith("Slowest a client may send a request body");
        assertThat(properties.get("weft.server.min-response-data-rate").path("defaultValue").asString())
                .isEqualTo("240B");
        assertThat(properties.get("weft.server.data-rate-grace-period").path("defaultValue").asString())
                .isEqualTo("5s");
        assertThat(properties.get("weft.server.drain-timeout").path("defaultValue").asString()).isEqualTo("5s");
        assertThat(properties.get("weft.server.low-resources-threshold").path("defaultValue").asDouble())
                .isEqualTo(0.9);
        assertThat(properties.get("weft.server.low-resources-idle-timeout").path("defaultValue").asString())
                .isEqualTo("1s");
    }

    @Test
    void blankServerHeaderRemovesTheHeader() {
        runner.withPropertyValues("server.server-header= ").run(context -> assertThat(
                context.getBean(WeftReactiveWebServerFactory.class).buildServerConfig().serverHeader()).isNull());
    }

    @Test
    void serverCustomizerBeansApplyInOrderAfterProperties() {
        runner.withUserConfiguration(CustomizerConfiguration.class)
                .withPropertyValues("weft.server.max-connections=11", "weft.server.max-header-count=12")
                .run(context -> {
                    ServerConfig config = context.getBean(WeftReactiveWebServerFactory.class).buildServerConfig();
                    assertThat(config.maxConnections()).isEqualTo(2);
                    assertThat(config.maxHeaderCount()).isEqualTo(12);
                });
    }

    @Test
    void servesWithAWeftServerWhenTheContextHasAWebServer() {
        new ReactiveWebApplicationContextRunner(AnnotationConfigReactiveWebServerApplicationContext::new)
                .withConfiguration(AutoConfigurations.of(NettyReactiveWebServerAutoConfiguration.class,
                        WeftReactiveWebServerAutoConfiguration.class))
                .withUserConfiguration(HttpHandlerConfiguration.class)
                .withPropertyValues("server.port=0")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    WebServer webServer = ((AnnotationConfigReactiveWebServerApplicationContext) context
                            .getSourceApplicationContext()).getWebServer();
                    assertThat(webServer).isInstanceOf(WeftWebServer.class);
                    assertThat(webServer.getPort()).isPositive();
                });
    }

    @Test
    void managementContextFactoryIsPrimaryWhenTheManagementPortDiffers() {
        runner.withConfiguration(AutoConfigurations.of(NettyReactiveManagementContextAutoConfiguration.class,
                        WeftReactiveManagementContextAutoConfiguration.class))
                .withPropertyValues("management.server.port=0")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean(ManagementContextFactory.class))
                            .isSameAs(context.getBean("weftReactiveWebChildContextFactory"));
                });
    }

    @Test
    void noManagementContextFactoryOnTheSamePort() {
        runner.withConfiguration(AutoConfigurations.of(WeftReactiveManagementContextAutoConfiguration.class))
                .run(context -> assertThat(context).doesNotHaveBean(ManagementContextFactory.class));
    }

    @Test
    void noManagementContextFactoryWhenWeftIsNotTheServer() {
        runner.withConfiguration(AutoConfigurations.of(WeftReactiveManagementContextAutoConfiguration.class))
                .withUserConfiguration(UserFactoryConfiguration.class)
                .withPropertyValues("management.server.port=0")
                .run(context -> assertThat(context).doesNotHaveBean("weftReactiveWebChildContextFactory"));
    }

    @Test
    void autoConfigurationsAreRegisteredInTheImportsFile() {
        assertThat(ImportCandidates.load(AutoConfiguration.class, getClass().getClassLoader()).getCandidates())
                .contains(WeftReactiveWebServerAutoConfiguration.class.getName(),
                        WeftReactiveManagementContextAutoConfiguration.class.getName());
    }

    @Configuration(proxyBeanMethods = false)
    static class UserFactoryConfiguration {

        @Bean
        UserFactory userFactory() {
            return new UserFactory();
        }
    }

    static class UserFactory extends AbstractReactiveWebServerFactory {

        @Override
        public WebServer getWebServer(HttpHandler httpHandler) {
            throw new UnsupportedOperationException();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class CustomizerConfiguration {

        @Bean
        @Order(2)
        WeftServerCustomizer second() {
            return builder -> builder.maxConnections(2);
        }

        @Bean
        @Order(1)
        WeftServerCustomizer first() {
            return builder -> builder.maxConnections(1);
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class HttpHandlerConfiguration {

        @Bean
        HttpHandler httpHandler() {
            return (request, response) -> {
                response.setStatusCode(HttpStatus.NO_CONTENT);
                return response.setComplete();
            };
        }
    }
}
