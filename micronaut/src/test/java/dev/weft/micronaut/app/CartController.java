package dev.weft.micronaut.app;

import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.http.annotation.Post;
import io.micronaut.session.Session;
import io.micronaut.session.SessionStore;

import java.util.ArrayList;
import java.util.List;

/**
 * A shopping cart kept in the HTTP session (micronaut-session): items added, listed, and the session ended at
 * checkout (deleted from the session store, micronaut-session's way of invalidating it).
 */
@Controller(value = "/cart", produces = MediaType.TEXT_PLAIN)
public class CartController {

    private static final String ITEMS = "items";

    private final SessionStore<Session> sessions;

    public CartController(SessionStore<Session> sessions) {
        this.sessions = sessions;
    }

    @Post(value = "/{item}", consumes = MediaType.ALL)
    public String add(Session session, @PathVariable String item) {
        List<String> items = new ArrayList<>(items(session));
        items.add(item);
        session.put(ITEMS, items);
        return String.join(",", items);
    }

    @Get
    public String list(@Nullable Session session) {
        return session == null ? "no session" : String.join(",", items(session));
    }

    @Post(value = "/checkout", consumes = MediaType.ALL)
    public String checkout(Session session) {
        String bought = String.join(",", items(session));
        sessions.deleteSession(session.getId()).join();
        return "bought " + bought;
    }

    @SuppressWarnings("unchecked")
    private static List<String> items(Session session) {
        return session.get(ITEMS, List.class).orElse(List.of());
    }
}
