package dev.weft.servlet.dispatch;

import dev.weft.servlet.chain.FilterSelection;
import dev.weft.servlet.chain.SecurityConstraints;
import dev.weft.servlet.chain.ServletChain;
import dev.weft.servlet.context.FilterEntry;
import dev.weft.servlet.context.ServletEntry;
import dev.weft.servlet.context.WeftServletContext;
import dev.weft.servlet.request.DispatchPath;
import dev.weft.servlet.request.WeftRequest;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletRequestWrapper;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.ServletResponseWrapper;
import jakarta.servlet.UnavailableException;
import jakarta.servlet.http.HttpServletResponse;
import dev.weft.servlet.response.WeftResponse;

import java.io.IOException;
import java.util.List;

/**
 * Runs one dispatch: selects its filters, then the target servlet — refused with 404 when it is permanently out
 * of service and 503 (with {@code Retry-After}) while temporarily unavailable — or a 404 when nothing is mapped.
 * Also finds the container's request and response under application wrappers.
 */
final class ChainRunner {

    private final WeftServletContext context;

    ChainRunner(WeftServletContext context) {
        this.context = context;
    }

    /**
     * Runs the filters and servlet of {@code path} with the given (possibly wrapped) request and response.
     *
     * @param named whether the dispatch is by servlet name (servlet-name filter mappings only)
     */
    void run(DispatchPath path, boolean named, WeftRequest base, ServletRequest request, ServletResponse response)
            throws IOException, ServletException {
        ServletEntry servlet = path.servlet();
        if (servlet != null) {
            long until = servlet.unavailableUntil();
            if (until < 0) {
                ((HttpServletResponse) response).sendError(HttpServletResponse.SC_NOT_FOUND);
                return;
            }
            long left = until - System.currentTimeMillis();
            if (until > 0 && left > 0) {
                HttpServletResponse http = (HttpServletResponse) response;
                http.setHeader("Retry-After", String.valueOf((left + 999) / 1000));
                http.sendError(HttpServletResponse.SC_SERVICE_UNAVAILABLE);
                return;
            }
        }
        if (path.type() == DispatcherType.REQUEST && !SecurityConstraints.permits(servlet, base)) {
            ((HttpServletResponse) response).sendError(HttpServletResponse.SC_FORBIDDEN);
            return;
        }
        List<FilterEntry> filters = FilterSelection.select(context.registrations(), named ? null : path.path(),
                servlet == null ? null : servlet.getName(), path.type());
        ServletChain chain = new ServletChain(filters, servlet, ChainRunner::notFound, base);
        try {
            chain.doFilter(request, response);
        } catch (UnavailableException e) {
            if (servlet != null && e.isPermanent()) {
                servlet.markPermanentlyUnavailable();
            } else if (servlet != null) {
                servlet.markUnavailableFor(e.getUnavailableSeconds());
            }
            throw e;
        }
    }

    private static void notFound(ServletRequest request, ServletResponse response) throws IOException {
        ((HttpServletResponse) response).sendError(HttpServletResponse.SC_NOT_FOUND);
    }

    /** The container's request under any wrappers, or null if {@code request} does not wrap it. */
    static WeftRequest base(ServletRequest request) {
        ServletRequest r = request;
        while (r instanceof ServletRequestWrapper w) {
            r = w.getRequest();
        }
        return r instanceof WeftRequest w ? w : null;
    }

    /** The container's response under any wrappers, or null if {@code response} does not wrap it. */
    static WeftResponse base(ServletResponse response) {
        ServletResponse r = response;
        while (r instanceof ServletResponseWrapper w) {
            r = w.getResponse();
        }
        return r instanceof WeftResponse w ? w : null;
    }
}
