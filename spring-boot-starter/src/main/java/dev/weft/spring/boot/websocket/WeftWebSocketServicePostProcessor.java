package dev.weft.spring.boot.websocket;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.web.reactive.socket.server.WebSocketService;
import org.springframework.web.reactive.socket.server.support.HandshakeWebSocketService;
import org.springframework.web.reactive.socket.server.support.WebSocketHandlerAdapter;

/**
 * Gives WebFlux's WebSocket support Weft's {@link WeftRequestUpgradeStrategy} on a Weft server, so an
 * application that maps a {@code WebSocketHandler} needs no configuration of its own.
 *
 * <p>WebFlux's configuration (and an application's own {@code new WebSocketHandlerAdapter()} or
 * {@code new HandshakeWebSocketService()}) picks its upgrade strategy from the class path: Reactor Netty's,
 * Jetty's or the Jakarta WebSocket one, none of which can run on Weft, or none at all. This replaces such
 * {@link WebSocketHandlerAdapter} and {@link HandshakeWebSocketService} beans with ones using Weft's strategy
 * (same order, same session-attribute predicate). Services of other classes, and strategies that are not
 * Spring's own, are left alone.
 */
public class WeftWebSocketServicePostProcessor implements BeanPostProcessor {

    private static final Log logger = LogFactory.getLog(WeftWebSocketServicePostProcessor.class);

    private static final String SPRING_STRATEGIES = "org.springframework.web.reactive.socket.server.upgrade.";
    private static final String NO_STRATEGY_SERVICE =
            "org.springframework.web.reactive.config.WebFluxConfigurationSupport$NoUpgradeStrategyWebSocketService";

    @Override
    public Object postProcessAfterInitialization(Object bean, String beanName) {
        if (bean instanceof WebSocketHandlerAdapter adapter && cannotRunOnWeft(adapter.getWebSocketService())) {
            WebSocketHandlerAdapter replacement = new WebSocketHandlerAdapter(weftService(
                    adapter.getWebSocketService(), beanName));
            replacement.setOrder(adapter.getOrder());
            return replacement;
        }
        if (bean instanceof HandshakeWebSocketService service && cannotRunOnWeft(service)) {
            return weftService(service, beanName);
        }
        return bean;
    }

    private static boolean cannotRunOnWeft(WebSocketService service) {
        if (service.getClass() == HandshakeWebSocketService.class) {
            return ((HandshakeWebSocketService) service).getUpgradeStrategy().getClass().getName()
                    .startsWith(SPRING_STRATEGIES);
        }
        return service.getClass().getName().equals(NO_STRATEGY_SERVICE);
    }

    private static HandshakeWebSocketService weftService(WebSocketService old, String beanName) {
        HandshakeWebSocketService service = new HandshakeWebSocketService(new WeftRequestUpgradeStrategy());
        if (old instanceof HandshakeWebSocketService handshake) {
            service.setSessionAttributePredicate(handshake.getSessionAttributePredicate());
            if (logger.isDebugEnabled()) {
                logger.debug("Bean '" + beanName + "': WebSocket upgrades by Weft instead of "
                        + handshake.getUpgradeStrategy().getClass().getSimpleName());
            }
        }
        return service;
    }
}
