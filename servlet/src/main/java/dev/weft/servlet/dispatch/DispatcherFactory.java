package dev.weft.servlet.dispatch;

import dev.weft.servlet.context.DispatcherSource;
import dev.weft.servlet.context.ServletEntry;
import dev.weft.servlet.context.WeftServletContext;
import dev.weft.servlet.request.DispatchPath;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.RequestDispatcher;

/** Makes the context's {@link RequestDispatcher}s (installed into the context as its {@link DispatcherSource}). */
final class DispatcherFactory implements DispatcherSource {

    private final WeftServletContext context;
    private final ChainRunner runner;
    private final PathResolver resolver;

    DispatcherFactory(WeftServletContext context, ChainRunner runner, PathResolver resolver) {
        this.context = context;
        this.runner = runner;
        this.resolver = resolver;
    }

    @Override
    public RequestDispatcher forPath(String pathWithQuery) {
        DispatchPath target = resolver.resolve(pathWithQuery, DispatcherType.FORWARD);
        return target == null ? null : WeftDispatcher.forPath(runner, target);
    }

    @Override
    public RequestDispatcher forName(String name) {
        ServletEntry servlet = context.registrations().servlet(name);
        return servlet == null ? null : WeftDispatcher.forServlet(runner, servlet);
    }
}
