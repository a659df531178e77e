package dev.weft.spring.boot.servlet.mvc;

import dev.weft.httpserver.config.ServerConfig;
import dev.weft.spring.boot.WeftServerCustomizer;
import dev.weft.spring.boot.autoconfigure.WeftServletManagementContextAutoConfiguration;
import dev.weft.spring.boot.autoconfigure.WeftServletWebServerAutoConfiguration;
import dev.weft.spring.boot.servlet.WeftServletWebServerFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.annotation.ImportCandidates;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.web.server.Cookie.SameSite;
import org.springframework.boot.web.server.WebServer;
import org.springframework.boot.web.server.servlet.ServletWebServerFactory;
import org.springframework.boot.web.server.servlet.ServletWebServerSettings;
import org.springframework.boot.web.servlet.ServletContextInitializer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;

import static org.assertj.core.api.Assertions.assertThat;

/** What the servlet auto-configuration contributes, which properties reach the factory, and when it backs off. */
@Timeout(60)
class WeftServletWebServerAutoConfigurationTest {

    private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(WeftServletWebServerAutoConfiguration.class));

    @Test
    void aServletApplicationGetsTheWeftFactory() {
        runner.run(context -> assertThat(context).hasSingleBean(ServletWebServerFactory.class)
                .getBean(ServletWebServerFactory.class).isInstanceOf(WeftServletWebServerFactory.class));
    }

    @Test
    void aUserDefinedServletWebServerFactoryWins() {
        runner.withUserConfiguration(UserFactoryConfiguration.class).run(context -> {
            assertThat(context).hasSingleBean(ServletWebServerFactory.class);
            assertThat(context).doesNotHaveBean(WeftServletWebServerFactory.class);
        });
    }

    @Test
    void runsAfterTomcatAndJettySoTheyWinWhenPresent() {
        assertThat(WeftServletWebServerAutoConfiguration.class.getAnnotation(AutoConfiguration.class).afterName())
                .containsExactlyInAnyOrder(
                        "org.springframework.boot.tomcat.autoconfigure.servlet.TomcatServletWebServerAutoConfiguration",
                        "org.springframework.boot.jetty.autoconfigure.servlet.JettyServletWebServerAutoConfiguration");
    }

    @Test
    void backsOffInReactiveApplications() {
        new ReactiveWebApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(WeftServletWebServerAutoConfiguration.class))
                .run(context -> assertThat(context).doesNotHaveBean(WeftServletWebServerFactory.class));
    }

    @Test
    void isListedForAutoConfigurationAndForTestSlicesWithAWebServer() throws IOException {
        assertThat(ImportCandidates.load(AutoConfiguration.class, getClass().getClassLoader()).getCandidates())
                .contains(WeftServletWebServerAutoConfiguration.class.getName(),
                        WeftServletManagementContextAutoConfiguration.class.getName());
        try (InputStream in = getClass().getResourceAsStream(
                "/META-INF/spring/org.springframework.boot.web.server.test.AutoConfigureWebServer.imports")) {
            assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8).lines())
                    .contains(WeftServletWebServerAutoConfiguration.class.getName());
        }
    }

    @Test
    void serverServletPropertiesReachTheFactory() {
        runner.withPropertyValues(
                        "server.servlet.context-path=/app",
                        "server.servlet.application-display-name=demo",
                        "server.servlet.register-default-servlet=true",
                        "server.servlet.context-parameters.a=alpha",
                        "server.servlet.session.timeout=45s",
                        "server.servlet.session.persistent=true",
                        "server.servlet.session.cookie.name=SID",
                        "server.servlet.session.cookie.same-site=strict",
                        "server.servlet.encoding.mapping.de=UTF-8",
                        "server.servlet.jsp.registered=false",
                        "server.mime-mappings.weft=application/x-weft")
                .run(context -> {
                    ServletWebServerSettings settings = context.getBean(WeftServletWebServerFactory.class)
                            .getSettings();
                    assertThat(settings.getContextPath().toString()).isEqualTo("/app");
                    assertThat(settings.getDisplayName()).isEqualTo("demo");
                    assertThat(settings.isRegisterDefaultServlet()).isTrue();
                    assertThat(settings.getInitParameters()).containsEntry("a", "alpha");
                    assertThat(settings.getSession().getTimeout()).isEqualTo(Duration.ofSeconds(45));
                    assertThat(settings.getSession().isPersistent()).isTrue();
                    assertThat(settings.getSession().getCookie().getName()).isEqualTo("SID");
                    assertThat(settings.getSession().getCookie().getSameSite()).isEqualTo(SameSite.STRICT);
                    assertThat(settings.getLocaleCharsetMappings()).containsEntry(Locale.GERMAN,
                            StandardCharsets.UTF_8);
                    assertThat(settings.getJsp().getRegistered()).isFalse();
                    assertThat(settings.getMimeMappings().get("weft")).isEqualTo("application/x-weft");
                });
    }

    @Test
    void serverAndWeftServerPropertiesAndCustomizersReachTheEngine() {
        runner.withUserConfiguration(CustomizerConfiguration.class)
                .withPropertyValues(
                        "server.server-header=Weft-Test",
                        "server.max-http-request-header-size=12KB",
                        "weft.server.max-connections=123",
                        "weft.server.idle-timeout=7s",
                        "weft.server.max-header-count=42",
                        "weft.server.http2.max-concurrent-streams=33",
                        "server.http2.enabled=true")
                .run(context -> {
                    ServerConfig config = context.getBean(WeftServletWebServerFactory.class).buildServerConfig();
                    assertThat(config.serverHeader()).isEqualTo("Weft-Test");
                    assertThat(config.maxHeaderSize()).isEqualTo(12 * 1024);
                    assertThat(config.maxConnections()).isEqualTo(123);
                    assertThat(config.idleTimeout()).isEqualTo(Duration.ofSeconds(7));
                    assertThat(config.maxHeaderCount()).isEqualTo(42);
                    assertThat(config.http2().maxConcurrentStreams()).isEqualTo(33);
                    assertThat(config.http2().h2cEnabled()).isTrue();
                    assertThat(config.backlog()).as("from the customizer").isEqualTo(99);
                });
    }

    @Test
    void withoutServerHeaderPropertyResponsesCarryNone() {
        runner.run(context -> assertThat(context.getBean(WeftServletWebServerFactory.class).buildServerConfig()
                .serverHeader()).isNull());
    }

    @Configuration(proxyBeanMethods = false)
    static class UserFactoryConfiguration {
        @Bean
        ServletWebServerFactory userFactory() {
            return new UserFactory();
        }
    }

    /** A factory of the application's own. */
    static class UserFactory implements ServletWebServerFactory {
        @Override
        public WebServer getWebServer(ServletContextInitializer... initializers) {
            throw new UnsupportedOperationException("never started in this test");
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class CustomizerConfiguration {
        @Bean
        WeftServerCustomizer backlog() {
            return builder -> builder.backlog(99);
        }
    }
}
