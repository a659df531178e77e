package dev.weft.servlet.dispatch;

import dev.weft.servlet.context.ServletEntry;
import dev.weft.servlet.request.DispatchPath;
import dev.weft.servlet.request.WeftRequest;
import dev.weft.servlet.response.WeftResponse;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.HashMap;
import java.util.Map;

/**
 * A {@link RequestDispatcher} (Servlet 6.1 §9) for a path or a servlet name. {@code forward} clears the buffer,
 * shows the target's path elements (a named dispatch keeps the original ones), sets the
 * {@code jakarta.servlet.forward.*} attributes to the original request's values, and closes the response when
 * the target returns; {@code include} keeps the caller's path elements, sets {@code jakarta.servlet.include.*}
 * to the target's, and keeps status and headers away from the target. A query string in the path adds
 * parameters in front for the dispatch's duration. Everything is put back when the dispatch returns.
 */
final class WeftDispatcher implements RequestDispatcher {

    private static final String[] FORWARD_ATTRIBUTES = {FORWARD_REQUEST_URI, FORWARD_CONTEXT_PATH,
        FORWARD_SERVLET_PATH, FORWARD_PATH_INFO, FORWARD_QUERY_STRING, FORWARD_MAPPING};
    private static final String[] INCLUDE_ATTRIBUTES = {INCLUDE_REQUEST_URI, INCLUDE_CONTEXT_PATH,
        INCLUDE_SERVLET_PATH, INCLUDE_PATH_INFO, INCLUDE_QUERY_STRING, INCLUDE_MAPPING};

    private final ChainRunner runner;
    private final DispatchPath target;
    private final ServletEntry named;

    /** A dispatcher for the path elements {@code target} (its query string included). */
    static WeftDispatcher forPath(ChainRunner runner, DispatchPath target) {
        return new WeftDispatcher(runner, target, null);
    }

    /** A dispatcher for the servlet {@code servlet}. */
    static WeftDispatcher forServlet(ChainRunner runner, ServletEntry servlet) {
        return new WeftDispatcher(runner, null, servlet);
    }

    private WeftDispatcher(ChainRunner runner, DispatchPath target, ServletEntry named) {
        this.runner = runner;
        this.target = target;
        this.named = named;
    }

    @Override
    public void forward(ServletRequest request, ServletResponse response) throws ServletException, IOException {
        WeftRequest base = baseOf(request);
        WeftResponse baseResponse = baseOf(response);
        if (response.isCommitted()) {
            throw new IllegalStateException("forward after the response was committed");
        }
        response.resetBuffer();
        DispatchPath saved = base.dispatch();
        boolean setAttributes = named == null && base.getAttribute(FORWARD_REQUEST_URI) == null;
        if (setAttributes) {
            setPathAttributes(base, FORWARD_ATTRIBUTES, saved);
        }
        DispatchPath path;
        if (named != null) {
            path = new DispatchPath(DispatcherType.FORWARD, saved.requestUri(), saved.path(), saved.servletPath(),
                    saved.pathInfo(), saved.queryString(), saved.mapping(), named);
        } else {
            String query = target.queryString() != null ? target.queryString() : saved.queryString();
            path = new DispatchPath(DispatcherType.FORWARD, target.requestUri(), target.path(), target.servletPath(),
                    target.pathInfo(), query, target.mapping(), target.servlet());
        }
        boolean pushed = named == null && target.queryString() != null;
        if (pushed) {
            base.pushParameters(target.queryString());
        }
        base.dispatch(path);
        try {
            runner.run(path, named != null, base, request, response);
        } catch (ServletException | IOException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new ServletException(e);
        } finally {
            base.dispatch(saved);
            if (pushed) {
                base.popParameters();
            }
            if (setAttributes) {
                for (String name : FORWARD_ATTRIBUTES) {
                    base.setContainerAttribute(name, null);
                }
            }
        }
        if (!base.isAsyncStarted() && !baseResponse.isErrorPending()) {
            close(response, baseResponse);
        }
    }

    /** §9.4: the response is closed when a forward returns; a wrapper's own stream or writer is closed. */
    private static void close(ServletResponse response, WeftResponse base) throws IOException {
        if (response == base) {
            base.closeAfterForward();
            return;
        }
        try {
            PrintWriter writer = response.getWriter();
            writer.close();
        } catch (IllegalStateException e) {
            ServletOutputStream out = response.getOutputStream();
            out.close();
        }
    }

    @Override
    public void include(ServletRequest request, ServletResponse response) throws ServletException, IOException {
        WeftRequest base = baseOf(request);
        WeftResponse baseResponse = baseOf(response);
        DispatchPath saved = base.dispatch();
        Map<String, Object> previous = new HashMap<>();
        DispatchPath chainPath;
        if (named != null) {
            chainPath = new DispatchPath(DispatcherType.INCLUDE, saved.requestUri(), saved.path(),
                    saved.servletPath(), saved.pathInfo(), saved.queryString(), saved.mapping(), named);
        } else {
            for (String name : INCLUDE_ATTRIBUTES) {
                previous.put(name, base.getAttribute(name));
            }
            chainPath = target.as(DispatcherType.INCLUDE);
            setPathAttributes(base, INCLUDE_ATTRIBUTES, chainPath);
        }
        boolean pushed = named == null && target.queryString() != null;
        if (pushed) {
            base.pushParameters(target.queryString());
        }
        base.dispatch(saved.as(DispatcherType.INCLUDE));
        baseResponse.enterInclude();
        try {
            runner.run(chainPath, named != null, base, request, response);
        } catch (ServletException | IOException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new ServletException(e);
        } finally {
            baseResponse.leaveInclude();
            base.dispatch(saved);
            if (pushed) {
                base.popParameters();
            }
            previous.forEach(base::setContainerAttribute);
        }
    }

    /** Sets the six path attributes of a forward or include from {@code p}. */
    static void setPathAttributes(WeftRequest base, String[] names, DispatchPath p) {
        base.setContainerAttribute(names[0], p.requestUri());
        base.setContainerAttribute(names[1], base.getContextPath());
        base.setContainerAttribute(names[2], p.servletPath());
        base.setContainerAttribute(names[3], p.pathInfo());
        base.setContainerAttribute(names[4], p.queryString());
        base.setContainerAttribute(names[5], p.mapping());
    }

    private static WeftRequest baseOf(ServletRequest request) throws ServletException {
        WeftRequest base = ChainRunner.base(request);
        if (base == null) {
            throw new ServletException("the request passed to the dispatcher does not wrap the container's request");
        }
        return base;
    }

    private static WeftResponse baseOf(ServletResponse response) throws ServletException {
        WeftResponse base = ChainRunner.base(response);
        if (base == null) {
            throw new ServletException("the response passed to the dispatcher does not wrap the container's response");
        }
        return base;
    }
}
