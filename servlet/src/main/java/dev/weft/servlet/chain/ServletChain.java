package dev.weft.servlet.chain;

import dev.weft.servlet.context.FilterEntry;
import dev.weft.servlet.context.ServletEntry;
import dev.weft.servlet.request.WeftRequest;
import jakarta.servlet.FilterChain;
import jakarta.servlet.Servlet;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;

import java.io.IOException;
import java.util.List;

/**
 * The {@link FilterChain} of one dispatch: each selected filter in turn, then the target servlet (or, without
 * one, the {@code terminal} step the container supplies, e.g. a 404). Passing a filter or servlet that does not
 * support async processing turns the request's async support off (§2.3.3.3). Each filter and the servlet get
 * the request and response objects the previous step passed on. One chain per dispatch, on its thread.
 */
public final class ServletChain implements FilterChain {

    /** The last step when no servlet is the target. */
    @FunctionalInterface
    public interface Terminal {
        void handle(ServletRequest request, ServletResponse response) throws IOException, ServletException;
    }

    private final List<FilterEntry> filters;
    private final ServletEntry servlet;
    private final Terminal terminal;
    private final WeftRequest base;
    private int next;

    /**
     * @param servlet  the target servlet, or null
     * @param terminal what runs instead of a servlet when {@code servlet} is null
     * @param base     the container's request, whose async support the chain narrows
     */
    public ServletChain(List<FilterEntry> filters, ServletEntry servlet, Terminal terminal, WeftRequest base) {
        this.filters = filters;
        this.servlet = servlet;
        this.terminal = terminal;
        this.base = base;
    }

    @Override
    public void doFilter(ServletRequest request, ServletResponse response) throws IOException, ServletException {
        if (next < filters.size()) {
            FilterEntry f = filters.get(next++);
            if (!f.isAsyncSupported()) {
                base.asyncSupported(false);
            }
            f.filter().doFilter(request, response, this);
            return;
        }
        next++;
        if (servlet == null) {
            terminal.handle(request, response);
            return;
        }
        if (!servlet.isAsyncSupported()) {
            base.asyncSupported(false);
        }
        Servlet s = servlet.acquire();
        s.service(request, response);
    }
}
