package dev.weft.websocket.jakarta.session;

import dev.weft.httpserver.websocket.CloseStatus;
import dev.weft.httpserver.websocket.WebSocketSession;
import dev.weft.websocket.jakarta.coding.Coders;
import jakarta.websocket.CloseReason;
import jakarta.websocket.Extension;
import jakarta.websocket.MessageHandler;
import jakarta.websocket.RemoteEndpoint;
import jakarta.websocket.Session;
import jakarta.websocket.WebSocketContainer;

import java.io.IOException;
import java.net.URI;
import java.security.Principal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/** A Jakarta {@link Session} over one engine {@link WebSocketSession}. */
final class WeftSession implements Session {

    private static final AtomicLong IDS = new AtomicLong();

    private final WebSocketSession ws;
    private final SessionContext context;
    private final String id = Long.toString(IDS.incrementAndGet(), 36);
    private final Coders coders;
    private final MessageHandlers handlers;
    private final BasicRemote basic;
    private final AsyncRemote async;
    private final IdleWatch idle;
    private volatile int maxText;
    private volatile int maxBinary;

    WeftSession(WebSocketSession ws, SessionContext context) {
        this.ws = ws;
        this.context = context;
        this.coders = new Coders(context.config());
        this.handlers = new MessageHandlers(coders);
        this.basic = new BasicRemote(this, ws);
        this.async = new AsyncRemote(this, ws, basic, context.defaults().sendTimeoutMillis());
        this.idle = new IdleWatch(context.scheduler(), this::closeIdle);
        this.maxText = context.defaults().maxTextBytes();
        this.maxBinary = context.defaults().maxBinaryBytes();
        idle.timeout(context.defaults().maxIdleMillis());
    }

    Coders coders() {
        return coders;
    }

    MessageHandlers handlers() {
        return handlers;
    }

    void touch() {
        idle.touch();
    }

    /** Stops the idle watch and destroys the coders: the session has ended. */
    void ended() {
        idle.stop();
        coders.destroy();
    }

    private void closeIdle() {
        try {
            ws.close(CloseStatus.GOING_AWAY, "idle timeout");
        } catch (IOException e) {
            ws.abort();
        }
    }

    @Override
    public WebSocketContainer getContainer() {
        return context.container();
    }

    @Override
    public void addMessageHandler(MessageHandler handler) {
        handlers.add(handler);
    }

    @Override
    public <T> void addMessageHandler(Class<T> clazz, MessageHandler.Whole<T> handler) {
        handlers.add(handler, clazz, false);
    }

    @Override
    public <T> void addMessageHandler(Class<T> clazz, MessageHandler.Partial<T> handler) {
        handlers.add(handler, clazz, true);
    }

    @Override
    public Set<MessageHandler> getMessageHandlers() {
        return handlers.all();
    }

    @Override
    public void removeMessageHandler(MessageHandler handler) {
        handlers.remove(handler);
    }

    @Override
    public String getProtocolVersion() {
        return "13";
    }

    @Override
    public String getNegotiatedSubprotocol() {
        String s = ws.subprotocol();
        return s == null ? "" : s;
    }

    @Override
    public List<Extension> getNegotiatedExtensions() {
        List<Extension> list = new ArrayList<>();
        for (String e : ws.extensions()) {
            list.add(new NamedExtension(e.split(";", 2)[0].strip()));
        }
        return List.copyOf(list);
    }

    @Override
    public boolean isSecure() {
        return ws.sslSession() != null;
    }

    @Override
    public boolean isOpen() {
        return ws.isOpen();
    }

    @Override
    public long getMaxIdleTimeout() {
        return idle.timeoutMillis();
    }

    @Override
    public void setMaxIdleTimeout(long milliseconds) {
        idle.timeout(milliseconds);
    }

    @Override
    public void setMaxBinaryMessageBufferSize(int length) {
        maxBinary = length;
    }

    @Override
    public int getMaxBinaryMessageBufferSize() {
        return maxBinary;
    }

    @Override
    public void setMaxTextMessageBufferSize(int length) {
        maxText = length;
    }

    @Override
    public int getMaxTextMessageBufferSize() {
        return maxText;
    }

    @Override
    public RemoteEndpoint.Async getAsyncRemote() {
        return async;
    }

    @Override
    public RemoteEndpoint.Basic getBasicRemote() {
        return basic;
    }

    @Override
    public String getId() {
        return id;
    }

    @Override
    public void close() throws IOException {
        ws.close();
    }

    @Override
    public void close(CloseReason reason) throws IOException {
        int code = reason.getCloseCode().getCode();
        ws.close(CloseStatus.isSendable(code) ? code : CloseStatus.NORMAL,
                CloseStatus.truncateReason(reason.getReasonPhrase()));
    }

    @Override
    public URI getRequestURI() {
        return ws.requestUri();
    }

    @Override
    public Map<String, List<String>> getRequestParameterMap() {
        return QueryParameters.parse(getQueryString());
    }

    @Override
    public String getQueryString() {
        return ws.requestUri().getRawQuery();
    }

    @Override
    public Map<String, String> getPathParameters() {
        return context.pathParameters();
    }

    @Override
    public Map<String, Object> getUserProperties() {
        return context.config().getUserProperties();
    }

    @Override
    public Principal getUserPrincipal() {
        return context.principal();
    }

    @Override
    public Set<Session> getOpenSessions() {
        return context.openSessions().snapshot();
    }

    @Override
    public String toString() {
        return "WeftSession[" + id + " " + ws.requestUri() + "]";
    }

    /** An extension by name, without parameters. */
    private record NamedExtension(String getName) implements Extension {
        @Override
        public List<Parameter> getParameters() {
            return Collections.emptyList();
        }
    }
}
