package dev.weft.servlet.resource;

import dev.weft.servlet.response.ResponseOutput;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Locale;

/**
 * The container's default servlet: serves the context's static resources ({@link ResourceSet}) for GET and
 * HEAD, with {@code Content-Type} from the context's MIME table, {@code Content-Length}, {@code Last-Modified}
 * and a weak {@code ETag}, and {@code 304} for a matching {@code If-None-Match} or an unmodified
 * {@code If-Modified-Since}. A directory is redirected to its {@code /} form and served by its first welcome
 * file; there are no listings. {@code WEB-INF} and {@code META-INF} are never served. A missing resource is a
 * 404 ({@code FileNotFoundException} inside an include, §9.3). A resource that is a file goes to the container's
 * output as a file region ({@link ResponseOutput#writeFile}), which the engine sends without copying it through
 * the heap on cleartext HTTP/1.1; a resource in a jar, or a response whose stream a filter wrapped, is copied.
 */
public final class DefaultServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;

    private final transient ResourceSet resources;
    private final List<String> welcomeFiles;

    public DefaultServlet(ResourceSet resources, List<String> welcomeFiles) {
        this.resources = resources;
        this.welcomeFiles = List.copyOf(welcomeFiles);
    }

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws ServletException, IOException {
        serve(req, resp, true);
    }

    @Override
    protected void doHead(HttpServletRequest req, HttpServletResponse resp) throws ServletException, IOException {
        serve(req, resp, false);
    }

    @Override
    protected void doPost(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        methodNotAllowed(resp);
    }

    @Override
    protected void doPut(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        methodNotAllowed(resp);
    }

    @Override
    protected void doDelete(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        methodNotAllowed(resp);
    }

    private static void methodNotAllowed(HttpServletResponse resp) throws IOException {
        resp.setHeader("Allow", "GET, HEAD, OPTIONS");
        resp.sendError(HttpServletResponse.SC_METHOD_NOT_ALLOWED);
    }

    private void serve(HttpServletRequest req, HttpServletResponse resp, boolean body) throws IOException {
        boolean included = req.getAttribute(RequestDispatcher.INCLUDE_REQUEST_URI) != null;
        String path = included
                ? joined((String) req.getAttribute(RequestDispatcher.INCLUDE_SERVLET_PATH),
                        (String) req.getAttribute(RequestDispatcher.INCLUDE_PATH_INFO))
                : joined(req.getServletPath(), req.getPathInfo());
        Resource r = hidden(path) ? null : resources.find(path);
        if (r != null && r.directory()) {
            if (!path.endsWith("/")) {
                if (included) {
                    throw new FileNotFoundException(path + " is a directory");
                }
                String query = req.getQueryString();
                resp.sendRedirect(req.getRequestURI() + "/" + (query == null ? "" : "?" + query));
                return;
            }
            r = welcome(path);
        }
        if (r == null) {
            if (included) {
                throw new FileNotFoundException(path);
            }
            resp.sendError(HttpServletResponse.SC_NOT_FOUND);
            return;
        }
        String etag = "W/\"" + r.length() + "-" + r.lastModified() + "\"";
        if (!included && notModified(req, r, etag)) {
            resp.setStatus(HttpServletResponse.SC_NOT_MODIFIED);
            resp.setHeader("ETag", etag);
            return;
        }
        if (!included) {
            String type = getServletContext().getMimeType(r.path());
            if (type != null) {
                resp.setContentType(type);
            }
            resp.setHeader("ETag", etag);
            if (r.lastModified() > 0) {
                resp.setDateHeader("Last-Modified", r.lastModified());
            }
            if (r.length() >= 0) {
                resp.setContentLengthLong(r.length());
            }
        }
        if (!body) {
            return;
        }
        ServletOutputStream out = resp.getOutputStream();
        Path file = r.file();
        if (file != null && out instanceof ResponseOutput direct && !direct.isNonBlocking()) {
            // The container's own stream (no wrapper sees the bytes): the file goes to the engine as a region,
            // without copying on cleartext HTTP/1.1.
            try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
                direct.writeFile(ch, 0, r.length() >= 0 ? r.length() : ch.size());
            }
            return;
        }
        try (InputStream in = r.open()) {
            in.transferTo(out);
        }
    }

    private Resource welcome(String directory) {
        for (String name : welcomeFiles) {
            Resource w = resources.find(directory + name);
            if (w != null && !w.directory()) {
                return w;
            }
        }
        return null;
    }

    private static boolean notModified(HttpServletRequest req, Resource r, String etag) {
        String ifNoneMatch = req.getHeader("If-None-Match");
        if (ifNoneMatch != null) {
            for (String tag : ifNoneMatch.split(",")) {
                String t = tag.strip();
                if (t.equals("*") || t.equals(etag) || ("W/" + t).equals(etag)) {
                    return true;
                }
            }
            return false;
        }
        try {
            long since = req.getDateHeader("If-Modified-Since");
            return since >= 0 && r.lastModified() > 0 && r.lastModified() / 1000 <= since / 1000;
        } catch (IllegalArgumentException e) {
            return false; // an unparseable date is ignored (RFC 9110 §13.1.3)
        }
    }

    private static String joined(String servletPath, String pathInfo) {
        String p = (servletPath == null ? "" : servletPath) + (pathInfo == null ? "" : pathInfo);
        return p.isEmpty() ? "/" : p;
    }

    private static boolean hidden(String path) {
        for (String segment : path.split("/")) {
            String s = segment.toUpperCase(Locale.ROOT);
            if (s.equals("WEB-INF") || s.equals("META-INF")) {
                return true;
            }
        }
        return false;
    }
}
