package dev.weft.servlet.testing;

import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRegistration;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;

/** Servlets written as lambdas, for tests. */
public final class Servlets {

    /** What a test servlet does with a request. */
    @FunctionalInterface
    public interface Action {
        void run(HttpServletRequest req, HttpServletResponse resp) throws IOException, ServletException;
    }

    private Servlets() {
    }

    /** A servlet running {@code action} for every method. */
    public static HttpServlet of(Action action) {
        return new HttpServlet() {
            @Override
            protected void service(HttpServletRequest req, HttpServletResponse resp)
                    throws IOException, ServletException {
                action.run(req, resp);
            }
        };
    }

    /** Registers {@link #of(Action)} under the name {@code path}, mapped to {@code path}. */
    public static ServletRegistration.Dynamic map(ServletContext ctx, String path, Action action) {
        ServletRegistration.Dynamic r = ctx.addServlet(path, of(action));
        r.addMapping(path);
        return r;
    }
}
