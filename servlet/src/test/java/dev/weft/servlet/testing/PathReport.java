package dev.weft.servlet.testing;

import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletMapping;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A servlet that answers with the request's path elements and dispatch attributes as {@code key=value} lines,
 * and a parser for that answer.
 */
public final class PathReport extends HttpServlet {

    private static final long serialVersionUID = 1L;

    private final String label;

    public PathReport(String label) {
        this.label = label;
    }

    @Override
    protected void service(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        resp.setContentType("text/plain;charset=UTF-8");
        PrintWriter w = resp.getWriter();
        w.println("servlet=" + label);
        w.println("method=" + req.getMethod());
        w.println("dispatcherType=" + req.getDispatcherType());
        w.println("requestURI=" + req.getRequestURI());
        w.println("contextPath=" + req.getContextPath());
        w.println("servletPath=" + req.getServletPath());
        w.println("pathInfo=" + req.getPathInfo());
        w.println("queryString=" + req.getQueryString());
        HttpServletMapping m = req.getHttpServletMapping();
        w.println("mapping=" + (m == null ? null
                : m.getMappingMatch() + "|" + m.getPattern() + "|" + m.getMatchValue() + "|" + m.getServletName()));
        w.println("requestURL=" + req.getRequestURL());
        for (String name : new String[] {RequestDispatcher.FORWARD_REQUEST_URI, RequestDispatcher.FORWARD_SERVLET_PATH,
            RequestDispatcher.FORWARD_PATH_INFO, RequestDispatcher.FORWARD_QUERY_STRING,
            RequestDispatcher.INCLUDE_REQUEST_URI, RequestDispatcher.INCLUDE_SERVLET_PATH,
            RequestDispatcher.INCLUDE_PATH_INFO, RequestDispatcher.INCLUDE_QUERY_STRING,
            RequestDispatcher.ERROR_STATUS_CODE, RequestDispatcher.ERROR_REQUEST_URI, RequestDispatcher.ERROR_METHOD,
            RequestDispatcher.ERROR_EXCEPTION_TYPE, RequestDispatcher.ERROR_EXCEPTION, RequestDispatcher.ERROR_MESSAGE,
            RequestDispatcher.ERROR_SERVLET_NAME,
            RequestDispatcher.ERROR_QUERY_STRING}) {
            w.println(name + "=" + req.getAttribute(name));
        }
        for (String p : req.getParameterMap().keySet()) {
            w.println("param." + p + "=" + String.join(",", req.getParameterValues(p)));
        }
    }

    /** The {@code key=value} lines of a report as a map. */
    public static Map<String, String> parse(String body) {
        Map<String, String> m = new LinkedHashMap<>();
        for (String line : body.split("\r?\n")) {
            int eq = line.indexOf('=');
            if (eq > 0 && !m.containsKey(line.substring(0, eq))) {
                m.put(line.substring(0, eq), line.substring(eq + 1));
            }
        }
        return m;
    }
}
